// Without an exporter configured, tracing costs the money path next to nothing: nothing is
// instrumented (pg's query is its own), an event's message carries no trace context (only the request id its log
// lines name), and the API's spans are no-ops.
import t from 'tap';
import { jetstream } from '@nats-io/jetstream';
import { trace } from '@opentelemetry/api';
import type { Pool } from 'pg';
import { eventsStreamName, requestOperation } from '@bo/contracts';
import { BaseConfigSchema, eventInsertFrom, Migration, outboxTableSql, startServiceWith, tracingOn, type ServiceDefinition } from '../src/index.ts';
import { cleanupNatsPrefix, createTestDatabase, testNatsUrl, testPrefix } from '../src/testing.ts';

class Init extends Migration {
  override async up() {
    this.addSql(outboxTableSql('notrace'));
  }
}

t.test('tracing off', async (t) => {
  t.equal(tracingOn(), false, 'no exporter, no SDK');
  const db = await createTestDatabase('notrace');
  const prefix = testPrefix('notrace');
  let activeSpan: unknown = 'unset';
  const def: ServiceDefinition = {
    name: 'notrace',
    schema: 'notrace',
    config: BaseConfigSchema,
    entities: [],
    migrations: [{ name: 'Init', class: Init }],
    handlers: (deps) => ({
      'notrace.make': async () => {
        activeSpan = trace.getActiveSpan()?.isRecording() ?? false;
        const event = eventInsertFrom('notrace', '(select 1) as one', { operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox' }, 'webhook.test', {
          message: 'm',
        });
        await deps.sql.query(event.text, event.params);
        deps.outbox.publishCommitted([event.row]);
        return { status: 201, body: {} };
      },
    }),
  };
  const svc = await startServiceWith(def, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 3000, OUTBOX_POLL_MS: 50 });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const reply = await requestOperation(
    svc.nc,
    'notrace.make',
    { ctx: { requestId: 'req_off', scope: { kind: 'internal', service: 't' } }, params: {}, query: {}, body: {} },
    { prefix },
  );
  t.equal(reply.ok, true);
  t.equal(activeSpan, false, "the handler's span is the API's no-op");

  const pool = (await svc.orm.em.getConnection().getNativeClient()) as unknown as Pool;
  const client = await pool.connect();
  const query = Object.getPrototypeOf(client).query as { __wrapped?: boolean };
  t.equal(client.query, query, "the pool's connections run the client's query");
  t.notOk(query.__wrapped, "pg's own, not instrumented");
  client.release();

  const consumer = await jetstream(svc.nc).consumers.get(eventsStreamName(prefix));
  const m = await consumer.next({ expires: 10_000 });
  t.ok(m, 'the event was published');
  t.equal(m?.headers?.get('traceparent') ?? '', '', 'with no trace context');
  t.equal(m?.headers?.get('bo-request-id'), 'req_off', 'and the request id its consumer logs');
});
