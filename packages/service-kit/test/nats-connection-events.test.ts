// logConnectionEvents against a real nats-server: a connection that is cut and comes back says so
// (lost, then back, naming the server); and a service the kit starts (on real Postgres) logs its own.
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { BaseConfigSchema, createLogger, logConnectionEvents, Migration, outboxTableSql, startServiceWith, type ServiceDefinition } from '../src/index.ts';
import { cleanupNatsPrefix, createTestDatabase, testNatsUrl, testPrefix, waitFor } from '../src/testing.ts';

function capture() {
  const lines: Array<{ level: 'warn' | 'error'; msg: string; fields: Record<string, unknown> }> = [];
  const at =
    (level: 'warn' | 'error') =>
    (a: unknown, b?: string): void => {
      if (typeof a === 'string') lines.push({ level, msg: a, fields: {} });
      else lines.push({ level, msg: b ?? '', fields: a as Record<string, unknown> });
    };
  return { lines, log: { warn: at('warn'), error: at('error') } as never };
}

t.test('a connection cut and back says both, naming the server', async (t) => {
  const nc = await connect({ servers: testNatsUrl(), maxReconnectAttempts: -1, reconnectTimeWait: 50 });
  t.teardown(() => nc.close());
  const { lines, log } = capture();
  logConnectionEvents(nc, log);
  await nc.reconnect();
  await waitFor(async () => lines.some((l) => l.msg === 'NATS connection back'), { what: 'the reconnect logged' });
  const said = lines.map((l) => `${l.level} ${l.msg}`);
  t.same(said.slice(0, 2), ['warn NATS connection lost; reconnecting', 'warn NATS connection back'], 'lost, then back');
  t.match(String(lines[0]!.fields.server), /\d+\.\d+\.\d+\.\d+:\d+|localhost:\d+/, 'naming the server it lost');
});

class Init extends Migration {
  override async up() {
    this.addSql(outboxTableSql('connevents'));
  }
}

t.test("a service the kit starts logs its own connection's loss and return", async (t) => {
  const db = await createTestDatabase('connevents');
  const prefix = testPrefix('connevents');
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger('connevents', 'warn', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const def: ServiceDefinition = {
    name: 'connevents',
    schema: 'connevents',
    config: BaseConfigSchema,
    entities: [],
    migrations: [{ name: 'Init', class: Init }],
    handlers: () => ({}),
  };
  const svc = await startServiceWith(def, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix }, { log });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  await svc.nc.reconnect();
  await waitFor(async () => lines.some((l) => l.msg === 'NATS connection back'), { what: "the service's reconnect logged" });
  t.same(
    lines.filter((l) => String(l.msg).startsWith('NATS ')).map((l) => [l.level, l.msg, l.name]),
    [
      [40, 'NATS connection lost; reconnecting', 'connevents'],
      [40, 'NATS connection back', 'connevents'],
    ],
    'at warn, with the service named',
  );
});
