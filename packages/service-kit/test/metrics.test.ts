// Every service serves Prometheus metrics on its internal METRICS_PORT: RPC latency and outcome
// per subject, and its outbox backlog with the oldest event's age.
import t from 'tap';
import { requestOperation, AppError } from '@bo/contracts';
import { BaseConfigSchema, Migration, startServiceWith, outboxTableSql, writeEvent, ormRunner, type ServiceDefinition } from '../src/index.ts';
import { createTestDatabase, testPrefix, cleanupNatsPrefix, testNatsUrl } from '../src/testing.ts';

class Init extends Migration {
  override async up() {
    this.addSql(outboxTableSql('kitm'));
  }
}

t.test('service metrics', async (t) => {
  const db = await createTestDatabase('kitm');
  const prefix = testPrefix('kitm');
  const def: ServiceDefinition = {
    name: 'kitm',
    schema: 'kitm',
    config: BaseConfigSchema,
    entities: [],
    migrations: [{ name: 'Init', class: Init }],
    handlers: (deps) => ({
      'kitm.ok': async () => ({ body: { fine: true } }),
      'kitm.refuse': async () => {
        throw new AppError('PLAYER_NOT_FOUND');
      },
      // Writes an event straight into the outbox without waking the relay: a backlog to see.
      'kitm.event': async () => {
        await deps.orm.em
          .fork()
          .transactional((tx) =>
            writeEvent(ormRunner(tx), 'kitm', { operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox' }, 'webhook.test', { message: 'm' }),
          );
        return { body: {} };
      },
    }),
  };
  // A long outbox poll keeps the event unpublished while we look.
  const svc = await startServiceWith(def, {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    RPC_TIMEOUT_MS: 3000,
    OUTBOX_POLL_MS: 600_000,
    METRICS_PORT: 0,
  });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const send = (subject: string) =>
    requestOperation(svc.nc, subject, { ctx: { requestId: 'r', scope: { kind: 'internal', service: 't' } }, params: {}, query: {}, body: {} }, { prefix });
  await send('kitm.ok');
  await send('kitm.refuse');
  await send('kitm.event');
  t.type(svc.metricsPort, 'number');
  const text = await (await fetch(`http://127.0.0.1:${svc.metricsPort}/metrics`)).text();
  t.match(text, /bo_rpc_duration_seconds_count\{service="kitm",subject="kitm.ok",outcome="ok"\} 1/, 'RPC latency and outcome per subject');
  t.match(text, /bo_rpc_duration_seconds_count\{service="kitm",subject="kitm.refuse",outcome="PLAYER_NOT_FOUND"\} 1/, 'refusals by error code');
  t.match(text, /bo_outbox_backlog\{service="kitm"\} 1/, 'the unpublished event');
  t.match(text, /bo_outbox_oldest_age_seconds\{service="kitm"\} \d/, 'and its age');
  t.equal((await fetch(`http://127.0.0.1:${svc.metricsPort}/other`)).status, 404);
});
