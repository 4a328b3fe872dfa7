// One trace follows a request across NATS: the service's span is a child of the caller's.
import t from 'tap';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { context, trace } from '@opentelemetry/api';
import { requestOperation } from '@bo/contracts';
import { BaseConfigSchema, startTelemetry, tracer, traceHeaders, startServiceWith, type ServiceDefinition } from '../src/index.ts';
import { createTestDatabase, testPrefix, cleanupNatsPrefix, testNatsUrl } from '../src/testing.ts';

t.test('trace context crosses NATS request-reply', async (t) => {
  const exporter = new InMemorySpanExporter();
  const telemetry = startTelemetry('kit-test', { spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const db = await createTestDatabase('otel');
  const prefix = testPrefix('otel');
  const def: ServiceDefinition = {
    name: 'otel',
    schema: 'otel',
    config: BaseConfigSchema,
    entities: [],
    migrations: [],
    handlers: () => ({ 'otel.echo': async (req) => ({ body: { traceId: trace.getActiveSpan()?.spanContext().traceId, got: req.body } }) }),
  };
  const svc = await startServiceWith(def, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 3000, OUTBOX_POLL_MS: 50 });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
    await telemetry.shutdown();
  });

  const client = tracer.startSpan('client');
  const reply = await requestOperation(
    svc.nc,
    'otel.echo',
    { ctx: { requestId: 'req_x', scope: { kind: 'internal', service: 't' } }, params: {}, query: {}, body: { a: 1 } },
    { prefix, headers: traceHeaders(trace.setSpan(context.active(), client)) },
  );
  client.end();
  t.equal(reply.ok, true);
  const clientCtx = client.spanContext();
  t.equal(reply.ok && (reply.body as { traceId: string }).traceId, clientCtx.traceId, 'the handler runs inside the caller trace');
  const server = exporter.getFinishedSpans().find((s) => s.name === 'rpc otel.echo');
  t.ok(server, 'the service recorded a span');
  t.equal(server!.spanContext().traceId, clientCtx.traceId);
  t.equal(server!.parentSpanContext?.spanId, clientCtx.spanId, 'the service span is a child of the caller span');
  t.equal(server!.attributes['bo.request_id'], 'req_x');
});
