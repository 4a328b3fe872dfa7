// logConnectionEvents against a real nats-server: a connection that is cut and comes back says so
// (lost, then back, naming the server).
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { logConnectionEvents } from '../src/index.ts';
import { testNatsUrl, waitFor } from '../src/testing.ts';

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
