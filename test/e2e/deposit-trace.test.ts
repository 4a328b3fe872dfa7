// One deposit, one trace: the real processes export their spans (OTLP over HTTP, JSON) to a local
// receiver, and the trace of the operator's confirm request is followed from the gateway through
// payments and the wallet (NATS request-reply), their Postgres statements, the deposit.confirmed
// event's JetStream message, the webhooks service's intake and the signed webhook POST: every span
// of it connected to one root, the gateway's. HTTP and Postgres spans are the official
// instrumentations' (their scope names them), NATS spans the kit's, all by the conventions.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, playerInput, uniq } from './support/stack.ts';
import { startOtlpReceiver, tracingEnv, type ReceivedSpan } from './support/otlp-receiver.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

const key = () => ({ 'idempotency-key': uniq('k') });

t.test('a deposit produces one connected trace, from the operator request to the signed webhook POST', async (t) => {
  const otlp = await startOtlpReceiver();
  t.teardown(() => otlp.close());
  const stack = await startStack(tracingEnv(otlp.endpoint));
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Trace Bets');
  const receiver = await startWebhookReceiver(op.sandbox.webhookSecret);
  t.teardown(() => receiver.close());
  await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url });
  await stack.firstTestWebhook(op.sandboxClient);
  const c = op.sandboxClient;

  // An operator's client that sends its own trace context: the gateway starts a trace of ours all the same.
  const foreignTraceId = 'abcdef0123456789abcdef0123456789';
  const player = await c.post('/players', playerInput(uniq('trace')), { ...key(), traceparent: `00-${foreignTraceId}-0123456789abcdef-01` });
  t.equal(player.status, 201);
  const deposit = await c.post(
    `/players/${player.body.id}/deposits`,
    { amount: '25.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') },
    key(),
  );
  t.equal(deposit.status, 201);
  const confirmed = await c.post(`/deposits/${deposit.body.id}/confirm`, {}, key());
  t.equal(confirmed.status, 200);
  const requestId = confirmed.headers.get('x-request-id')!;
  await waitFor(async () => receiver.received.some((r) => r.type === 'deposit.confirmed' && r.body.data.id === deposit.body.id), {
    timeoutMs: 60_000,
    intervalMs: 50,
    what: 'the deposit.confirmed webhook',
  });

  const rootOf = (id: string) => otlp.spans.find((s) => s.service === 'gateway' && s.attributes['bo.request_id'] === id && !s.parentSpanId);
  const inTrace = (traceId: string) => otlp.spans.filter((s) => s.traceId === traceId);
  const has = (spans: ReceivedSpan[], service: string, name: RegExp) => spans.some((s) => s.service === service && name.test(s.name));
  // Spans are exported in batches, each process on its own schedule: wait until every part the test
  // names has arrived and no arrived span still waits for its parent (on a busy machine the
  // publisher's batch can come after the consumer's).
  const expected: Array<[string, RegExp]> = [
    ['gateway', /^send \S*payments\.deposits\.confirm$/],
    ['payments', /^process \S*payments\.deposits\.confirm$/],
    ['payments', /^(UPDATE|WITH|SELECT|INSERT)\b/],
    ['wallet', /^process \S*wallet\./],
    ['wallet', /^(UPDATE|WITH|SELECT|INSERT|BEGIN|COMMIT)\b/],
    ['payments', /^publish \S*deposit\.confirmed$/],
    ['webhooks', /^consume /],
    ['webhooks', /^webhook attempt$/],
    ['webhooks', /^POST$/],
  ];
  const orphans = (root: ReceivedSpan, spans: ReceivedSpan[]) => {
    const ids = new Set(spans.map((s) => s.spanId));
    return spans.filter((s) => s !== root && !ids.has(s.parentSpanId ?? '')).map((s) => `${s.service}: ${s.name}`);
  };
  const trace = await waitFor(
    async () => {
      const root = rootOf(requestId);
      const spans = root ? inTrace(root.traceId) : [];
      const whole = root && expected.every(([service, name]) => has(spans, service, name)) && orphans(root, spans).length === 0;
      return whole ? { root, spans } : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: "the confirm request's whole trace" },
  );
  const { root, spans } = trace;
  // Named and attributed by the OpenTelemetry conventions (HTTP, messaging, database).
  const HTTP = '@opentelemetry/instrumentation-http';
  const PG = '@opentelemetry/instrumentation-pg';
  const [SERVER, CLIENT, PRODUCER, CONSUMER] = [2, 3, 4, 5];
  t.equal(root.name, 'POST /api/v1/deposits/:depositId/confirm', "the trace's root is the operator's request at the gateway, `<method> <route>`");
  t.match(root, { scope: HTTP, kind: SERVER }, "a server span, HTTP's instrumentation's");
  t.match(
    root.attributes,
    {
      'http.request.method': 'POST',
      'http.route': '/api/v1/deposits/:depositId/confirm',
      'url.path': `/api/v1/deposits/${deposit.body.id}/confirm`,
      'http.response.status_code': 200,
    },
    'with the HTTP server attributes',
  );
  const send = spans.find((s) => s.service === 'gateway' && /^send \S*payments\.deposits\.confirm$/.test(s.name))!;
  t.match(
    send,
    {
      kind: PRODUCER,
      attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'send', 'messaging.destination.name': /payments\.deposits\.confirm$/ },
    },
    'the NATS request: a producer span with the messaging attributes',
  );
  t.equal(send.parentSpanId, root.spanId, 'under the HTTP span');
  const processed = spans.find((s) => s.service === 'payments' && /^process \S*payments\.deposits\.confirm$/.test(s.name))!;
  t.match(
    processed,
    { kind: CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'process' } },
    'payments answered in it, a consumer span',
  );
  t.equal(processed.parentSpanId, send.spanId, "the gateway's producer span its parent");
  const statement = spans.find((s) => s.service === 'payments' && /^(UPDATE|WITH|SELECT|INSERT)\b/.test(s.name))!;
  t.match(
    statement,
    { scope: PG, kind: CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.operation.name': statement.name.split(' ')[0], 'db.query.text': String } },
    "with payments' Postgres statements (the kit's sql), pg's instrumentation's, named `<OPERATION> <table>`",
  );
  t.ok(
    spans.filter((s) => s.scope === PG).every((s) => /^[A-Z]+( \S+)?$/.test(s.name) && s.attributes['db.operation.name'] === s.name.split(' ')[0]),
    'every statement span named by the database conventions, none `pg.query:…`',
  );
  t.ok(has(spans, 'wallet', /^process \S*wallet\./), 'the wallet credit in it');
  t.ok(has(spans, 'wallet', /^(UPDATE|WITH|SELECT|INSERT|BEGIN|COMMIT)\b/), "with the wallet's statements");
  const publish = spans.find((s) => s.service === 'payments' && /^publish \S*deposit\.confirmed$/.test(s.name))!;
  t.match(publish.attributes, { 'messaging.system': 'nats', 'messaging.destination.name': /deposit\.confirmed$/ }, 'the event published in it');
  t.ok(has(spans, 'webhooks', /^consume /), 'taken in by the webhooks service in it');
  const attempt = spans.find((s) => s.service === 'webhooks' && s.name === 'webhook attempt')!;
  t.match(attempt.attributes, { 'bo.event_id': String, 'bo.delivery_id': String, 'bo.attempt': 1 }, "the delivery's attempt, naming it");
  const delivery = spans.find((s) => s.service === 'webhooks' && s.name === 'POST')!;
  t.match(
    delivery,
    {
      scope: HTTP,
      kind: CLIENT,
      attributes: {
        'http.request.method': 'POST',
        'http.response.status_code': 204,
        'server.address': '127.0.0.1',
        'server.port': Number,
        'url.full': receiver.url,
      },
    },
    "the signed POST, HTTP's instrumentation's client span under the attempt, answered 204",
  );
  t.equal(delivery.parentSpanId, attempt.spanId, 'the POST is a child of its attempt');
  t.same(orphans(root, spans), [], 'every span of the trace hangs from another of it: one connected trace');

  // The ORM's queries are traced too: the players service records a player through it.
  const playerRoot = rootOf(player.headers.get('x-request-id')!);
  t.ok(playerRoot, "the player's creation has its trace, rooted at the gateway");
  t.not(playerRoot?.traceId, foreignTraceId, "not the caller's: a traceparent sent by an operator is not continued");
  await waitFor(async () => has(inTrace(playerRoot!.traceId), 'players', /^INSERT /), {
    timeoutMs: 30_000,
    intervalMs: 100,
    what: "the players service's ORM insert in the trace",
  });
  t.pass("the players service's ORM insert is in the player's trace");
});
