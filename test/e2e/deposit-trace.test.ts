// One deposit, one trace: the real processes export their spans (OTLP over HTTP, JSON) to a local
// receiver, and the trace of the operator's confirm request is followed from the gateway through
// payments and the wallet (NATS request-reply), their Postgres statements, the deposit.confirmed
// event's JetStream message, the webhooks service's intake and the signed webhook POST: every span
// of it connected to one root, the gateway's.
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

  const player = await c.post('/players', playerInput(uniq('trace')), key());
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
    ['payments', /^rpc payments\.deposits\.confirm$/],
    ['payments', /^pg (update|with|select|insert)$/],
    ['wallet', /^rpc wallet\./],
    ['wallet', /^pg /],
    ['payments', /^publish deposit\.confirmed$/],
    ['webhooks', /^consume /],
    ['webhooks', /^webhook delivery$/],
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
  t.match(root.name, /^HTTP POST \/api\/v1\/deposits\/:depositId\/confirm$/, "the trace's root is the operator's request at the gateway");
  t.ok(has(spans, 'payments', /^rpc payments\.deposits\.confirm$/), 'payments answered in it');
  t.ok(has(spans, 'payments', /^pg (update|with|select|insert)$/), "with payments' Postgres statements (the kit's sql)");
  t.ok(has(spans, 'wallet', /^rpc wallet\./), 'the wallet credit in it');
  t.ok(has(spans, 'wallet', /^pg /), "with the wallet's statements");
  t.ok(has(spans, 'payments', /^publish deposit\.confirmed$/), 'the event published in it');
  t.ok(has(spans, 'webhooks', /^consume /), 'taken in by the webhooks service in it');
  const delivery = spans.find((s) => s.service === 'webhooks' && s.name === 'webhook delivery')!;
  t.equal(delivery.attributes['http.response.status_code'], 204, 'the signed POST, answered 204');
  t.same(orphans(root, spans), [], 'every span of the trace hangs from another of it: one connected trace');

  // The ORM's queries are traced too: the players service records a player through it.
  const playerRoot = rootOf(player.headers.get('x-request-id')!);
  t.ok(playerRoot, "the player's creation has its trace");
  await waitFor(async () => has(inTrace(playerRoot!.traceId), 'players', /^pg insert$/), {
    timeoutMs: 30_000,
    intervalMs: 100,
    what: "the players service's ORM insert in the trace",
  });
  t.pass("the players service's ORM insert is in the player's trace");
});
