// One trace follows a request across NATS: the service's span is a child of the caller's, and on
// through its Postgres statements and the events it writes.
import t from 'tap';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { startTracing, stopTracing } from '../src/tracing.ts';

// One SDK per process (the API's global provider): the tests share it and tell their spans apart by
// trace. Started before the kit loads, as main.ts does, so that pg and pino are instrumented.
const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor({ exporter });
await startTracing('kit-test', { spanProcessors: [processor] });
/** The spans exported so far, once every ended span has reached the exporter (it may wait for the resource's detected attributes). */
async function finishedSpans() {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
}
t.teardown(() => stopTracing());
const { AppError, eventsStreamName, eventsWildcard, requestOperation } = await import('@bo/contracts');
const { BaseConfigSchema, createLogger, eventInsertFrom, logContext, Migration, outboxTableSql, startDurableConsumer, tracer, traceHeaders, startServiceWith } =
  await import('../src/index.ts');
type ServiceDefinition = import('../src/index.ts').ServiceDefinition;
const { createTestDatabase, testPrefix, cleanupNatsPrefix, testNatsUrl, waitFor } = await import('../src/testing.ts');

t.test('trace context crosses NATS request-reply', async (t) => {
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
  // The service's span, by the messaging conventions: `process <subject>`, a consumer span.
  const server = (await finishedSpans()).find((s) => /^process \S*otel\.echo$/.test(s.name));
  t.ok(server, 'the service recorded a span');
  t.equal(server!.spanContext().traceId, clientCtx.traceId);
  t.equal(server!.parentSpanContext?.spanId, clientCtx.spanId, 'the service span is a child of the caller span');
  t.equal(server!.attributes['bo.request_id'], 'req_x');
  t.equal(server!.kind, SpanKind.CONSUMER, 'a consumer span');
  t.match(
    server!.attributes,
    { 'messaging.system': 'nats', 'messaging.operation.type': 'process', 'messaging.destination.name': /otel\.echo$/ },
    'with the messaging attributes',
  );
});

t.test('at info, each request a service answers is one log line with its requestId, traceId, subject, outcome and duration', async (t) => {
  const db = await createTestDatabase('otellog');
  const prefix = testPrefix('otellog');
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger('otellog', 'info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const def: ServiceDefinition = {
    name: 'otellog',
    schema: 'otellog',
    config: BaseConfigSchema,
    entities: [],
    migrations: [],
    handlers: () => ({ 'otellog.echo': async (req) => ({ body: req.body }) }),
  };
  const svc = await startServiceWith(
    def,
    { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 3000, OUTBOX_POLL_MS: 50 },
    { log },
  );
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const client = tracer.startSpan('client');
  const ask = (subject: string) =>
    requestOperation(
      svc.nc,
      subject,
      { ctx: { requestId: 'req_logged', scope: { kind: 'internal', service: 't' } }, params: {}, query: {}, body: {} },
      { prefix, headers: traceHeaders(trace.setSpan(context.active(), client)) },
    );
  t.equal((await ask('otellog.echo')).ok, true);
  t.equal((await ask('otellog.ping')).ok, true);
  client.end();
  const answered = lines.filter((l) => l.msg === 'request answered');
  t.equal(answered.length, 1, 'one line for the request; none for the readiness ping');
  t.match(
    answered[0],
    { level: 30, requestId: 'req_logged', traceId: client.spanContext().traceId, subject: 'otellog.echo', outcome: 'ok', durationMs: Number },
    'at info, with the request, its trace, the subject, the outcome and the duration',
  );
});

t.test('LOG_REQUESTS_SAMPLE=0: no line for an ok answer, a line for a refused one', async (t) => {
  const db = await createTestDatabase('otelsample');
  const prefix = testPrefix('otelsample');
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger('otelsample', 'info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const def: ServiceDefinition = {
    name: 'otelsample',
    schema: 'otelsample',
    config: BaseConfigSchema,
    entities: [],
    migrations: [],
    handlers: () => ({
      'otelsample.ok': async () => ({ body: {} }),
      'otelsample.refuse': async () => {
        throw new AppError('VALIDATION_ERROR');
      },
    }),
  };
  const svc = await startServiceWith(
    def,
    { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 3000, OUTBOX_POLL_MS: 50, LOG_REQUESTS_SAMPLE: 0 },
    { log },
  );
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const ask = (subject: string) =>
    requestOperation(
      svc.nc,
      subject,
      { ctx: { requestId: 'req_sampled', scope: { kind: 'internal', service: 't' } }, params: {}, query: {}, body: {} },
      { prefix },
    );
  t.equal((await ask('otelsample.ok')).ok, true);
  t.equal((await ask('otelsample.refuse')).ok, false);
  t.same(
    lines.filter((l) => l.msg === 'request answered').map((l) => [l.subject, l.outcome]),
    [['otelsample.refuse', 'VALIDATION_ERROR']],
    'only the refusal is logged',
  );
});

// The kit's own spans: a handler's Postgres statements are children of its span, and the event it
// writes carries the trace (and the request id) to whoever consumes it from JetStream.
class Init extends Migration {
  override async up() {
    this.addSql(outboxTableSql('oteldb'));
    this.addSql('create table oteldb.things (id text primary key)');
  }
}

t.test('Postgres statements and an event message continue the trace', async (t) => {
  const db = await createTestDatabase('oteldb');
  const prefix = testPrefix('oteldb');
  const def: ServiceDefinition = {
    name: 'oteldb',
    schema: 'oteldb',
    config: BaseConfigSchema,
    entities: [],
    migrations: [{ name: 'Init', class: Init }],
    handlers: (deps) => ({
      'oteldb.make': async () => {
        const committed = await deps.sql.transaction(async (tx) => {
          await tx.query('insert into oteldb.things (id) values (?)', ['a']);
          const event = eventInsertFrom('oteldb', '(select 1) as one', { operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox' }, 'webhook.test', {
            message: 'm',
          });
          await tx.query(event.text, event.params);
          return event.row;
        });
        deps.outbox.publishCommitted([committed]);
        return { status: 201, body: {} };
      },
    }),
  };
  const svc = await startServiceWith(def, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 3000, OUTBOX_POLL_MS: 50 });
  const consumed: Array<{ traceId?: string; parent?: string; requestId?: string }> = [];
  const log = createLogger('oteldb-test', 'silent');
  const consumer = startDurableConsumer({
    name: 'test consumer',
    nc: svc.nc,
    consumer: { stream: eventsStreamName(prefix), name: `${prefix}_otel`, filterSubject: eventsWildcard(prefix), ackWaitMs: 30_000, replicas: 1 },
    ensureStream: async () => undefined,
    maxMessages: 10,
    log,
    onMessage: (m) => {
      consumed.push({ traceId: trace.getActiveSpan()?.spanContext().traceId, requestId: logContext()?.requestId });
      m.ack();
    },
  });
  t.teardown(async () => {
    await consumer.stop();
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });

  const client = tracer.startSpan('client');
  const reply = await requestOperation(
    svc.nc,
    'oteldb.make',
    { ctx: { requestId: 'req_db', scope: { kind: 'internal', service: 't' } }, params: {}, query: {}, body: {} },
    { prefix, headers: traceHeaders(trace.setSpan(context.active(), client)) },
  );
  client.end();
  t.equal(reply.ok, true);
  const traceId = client.spanContext().traceId;
  await waitFor(async () => consumed.length > 0, { timeoutMs: 30_000, intervalMs: 20, what: 'the event to be consumed' });
  t.same(consumed[0], { traceId, requestId: 'req_db' }, "the consumer handles the event in the request's trace, naming the request");

  const spans = (await finishedSpans()).filter((s) => s.spanContext().traceId === traceId);
  const rpc = spans.find((s) => /^process \S*oteldb\.make$/.test(s.name))!;
  t.ok(rpc, 'the service span');
  const insert = spans.find((s) => s.name === 'INSERT oteldb.things' && s.attributes['db.query.text'] === 'insert into oteldb.things (id) values ($1)');
  t.match(
    insert?.attributes,
    { 'db.system.name': 'postgresql', 'db.operation.name': 'INSERT', 'db.collection.name': 'oteldb.things' },
    'named and attributed by the database conventions',
  );
  t.equal(insert?.parentSpanContext?.spanId, rpc.spanContext().spanId, "the handler's statement is a child of its span, its text without values");
  t.ok(spans.some((s) => s.name === 'BEGIN') && spans.some((s) => s.name === 'COMMIT'), 'the transaction is traced');
  const publish = spans.find((s) => /^publish \S*webhook\.test$/.test(s.name))!;
  t.match(publish?.attributes, { 'messaging.system': 'nats', 'messaging.operation.type': 'send' }, 'a producer span with the messaging attributes');
  t.equal(publish?.parentSpanContext?.spanId, rpc.spanContext().spanId, 'the publish is a child of the span that wrote the event');
  t.ok(
    spans.some((s) => s.name.startsWith('consume ') && s.parentSpanContext?.spanId === publish.spanContext().spanId),
    'the consumer span is a child of the publish',
  );
  t.notOk(
    (await finishedSpans()).some((s) => s.attributes['db.system.name'] === 'postgresql' && !s.parentSpanContext),
    'statements outside any trace (the relay, the loops) make no spans',
  );
});

// HTTP and fetch, by their official instrumentations: a URL's query values never reach a span, and
// probes make none.
t.test('HTTP server and client spans keep no query value; probes are not traced', async (t) => {
  const { default: http } = await import('node:http');
  const server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const parent = tracer.startSpan('caller');
  await context.with(trace.setSpan(context.active(), parent), async () => {
    await new Promise<void>((resolve, reject) =>
      http
        .request(`${base}/hook?token=s3cret`, { method: 'POST' }, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end(),
    );
    await (await fetch(`${base}/search?email=a%40b.example`)).text();
    await (await fetch(`${base}/readyz`)).text();
  });
  parent.end();
  const traceId = parent.spanContext().traceId;
  await waitFor(async () => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId).length >= 5, {
    timeoutMs: 10_000,
    what: 'the HTTP spans',
  });
  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const scope = (s: (typeof spans)[number]) => s.instrumentationScope.name;
  const post = spans.find((s) => s.kind === SpanKind.CLIENT && s.name === 'POST')!;
  t.match(
    { scope: scope(post), attributes: post.attributes },
    { scope: '@opentelemetry/instrumentation-http', attributes: { 'http.request.method': 'POST', 'url.full': `${base}/hook`, 'server.address': '127.0.0.1' } },
    "node:http's client span: url.full without its query",
  );
  const served = spans.filter((s) => s.kind === SpanKind.SERVER);
  t.same(served.map((s) => s.attributes['url.query']).sort(), ['email=REDACTED', 'token=REDACTED'], 'the server spans: url.query with its keys only');
  const get = spans.find((s) => s.kind === SpanKind.CLIENT && scope(s) === '@opentelemetry/instrumentation-undici' && s.attributes['url.path'] === '/search')!;
  t.match(get?.attributes, { 'url.full': `${base}/search`, 'url.query': 'email=REDACTED' }, "fetch's client span (undici): the same");
  t.notOk(
    served.some((s) => s.attributes['url.path'] === '/readyz'),
    'a probe makes no server span',
  );
  t.notOk(
    JSON.stringify(spans.map((s) => s.attributes)).includes('s3cret') || JSON.stringify(spans.map((s) => s.attributes)).includes('a%40b'),
    'no value of a query anywhere',
  );
});
