// The operator's webhook tools (API 1.2.0), against the real service, Postgres, JetStream and HTTP
// receivers: recent events with their delivery state, attempts, redelivery, each scoped to the
// caller's operator and environment; and signatures from both secrets during a rotation's overlap.
import t from 'tap';
import {
  newId,
  requestOperation,
  webhookOperations,
  type OperationReply,
  type RedeliveryResult,
  type Scope,
  type WebhookAttempt,
  type WebhookEventSummary,
} from '@bo/contracts';
import { sealSecret, DEV_MASTER_KEY } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';
import {
  call,
  newWebhookSecret,
  operatorScope,
  publishEvent,
  startReceiver,
  startStack,
  upsertEndpoint,
  verifyContractSignature,
  verifyStandardSignature,
  type Stack,
} from './helpers.ts';

type Page = { data: WebhookEventSummary[]; nextCursor: string | null };
const ops = webhookOperations;

const list = (stack: Stack, scope: Scope, query: Record<string, unknown> = {}) =>
  call<Page>(stack.svc.nc, stack.prefix, ops.listWebhookEvents.subject, scope, { query });
const attempts = (stack: Stack, scope: Scope, eventId: string) =>
  call<{ data: WebhookAttempt[] }>(stack.svc.nc, stack.prefix, ops.listWebhookEventAttempts.subject, scope, { params: { eventId } });
const redeliver = (stack: Stack, scope: Scope, eventId: string, key: string): Promise<OperationReply<RedeliveryResult>> =>
  requestOperation<RedeliveryResult>(
    stack.svc.nc,
    ops.redeliverWebhookEvent.subject,
    { ctx: { requestId: newId('request'), scope, idempotencyKey: key }, params: { eventId }, query: {}, body: {} },
    { prefix: stack.prefix, timeoutMs: 20_000 },
  );
const body = <R>(r: OperationReply<R>): R => {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r.body;
};
const code = (r: OperationReply<unknown>) => (r.ok ? `ok ${r.status}` : r.error.code);

t.test('events, attempts and redelivery are scoped to the operator and environment of the caller', async (t) => {
  const stack = await startStack(t);
  const secretA = newWebhookSecret();
  const secretB = newWebhookSecret();
  const receiverA = await startReceiver(secretA);
  const receiverB = await startReceiver(secretB);
  t.teardown(() => receiverA.close());
  t.teardown(() => receiverB.close());
  const aSandbox = operatorScope('op_a', 'sandbox');
  const aProduction = operatorScope('op_a', 'production');
  const bSandbox = operatorScope('op_b', 'sandbox');
  t.equal((await upsertEndpoint(stack, { operatorId: 'op_a', environment: 'sandbox', brandId: 'brd_op_a', url: receiverA.url, secret: secretA })).ok, true);
  t.equal((await upsertEndpoint(stack, { operatorId: 'op_a', environment: 'production', brandId: 'brd_op_a', secret: secretA })).ok, true);
  t.equal((await upsertEndpoint(stack, { operatorId: 'op_b', environment: 'sandbox', brandId: 'brd_op_b', url: receiverB.url, secret: secretB })).ok, true);

  const kyc = { playerId: 'plr_1', externalId: 'u-1', previousStatus: 'em_analise' as const, status: 'aprovado' as const };
  const a1 = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_a', environment: 'sandbox' }, 'kyc.status_changed', kyc);
  const a2 = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_a', environment: 'sandbox' }, 'kyc.status_changed', {
    ...kyc,
    playerId: 'plr_2',
  });
  const a3 = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_a', environment: 'sandbox' }, 'webhook.test', { message: 'hello' });
  const aProd = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_a', environment: 'production' }, 'kyc.status_changed', kyc);
  const b1 = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_b', environment: 'sandbox' }, 'kyc.status_changed', kyc);
  await receiverA.waitForRequests(3);
  await receiverB.waitForRequests(1);
  // Delivered means recorded; the production event has no URL and ends `no_endpoint`.
  const settled = await waitFor(
    async () => {
      const mine = body(await list(stack, aSandbox));
      const prod = body(await list(stack, aProduction));
      return (
        mine.data.every((e) => e.deliveryStatus === 'delivered') && mine.data.length === 3 && prod.data[0]?.deliveryStatus === 'no_endpoint' && { mine, prod }
      );
    },
    { what: 'deliveries recorded' },
  );

  const aIds = [a1, a2, a3].map((e) => e.event.id).sort();
  t.same(settled.mine.data.map((e) => e.id).sort(), aIds, 'operator A sandbox sees exactly its three events');
  t.match(settled.mine.data[0], {
    environment: 'sandbox',
    deliveryStatus: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
    nextAttemptAt: null,
  });
  t.ok(
    settled.mine.data.every((e) => e.deliveredAt !== null),
    'delivered events say when',
  );
  t.same(
    settled.prod.data.map((e) => [e.id, e.deliveryStatus, e.attempts]),
    [[aProd.event.id, 'no_endpoint', 0]],
    'production is a list of its own',
  );
  t.same(
    body(await list(stack, bSandbox)).data.map((e) => e.id),
    [b1.event.id],
    'operator B sees only its event',
  );
  t.same(body(await list(stack, operatorScope('op_a', 'sandbox', 'brd_other'))).data, [], 'another brand of the same operator id sees nothing');

  const first = body(await list(stack, aSandbox, { limit: 2 }));
  t.equal(first.data.length, 2);
  t.type(first.nextCursor, 'string');
  const second = body(await list(stack, aSandbox, { limit: 2, cursor: first.nextCursor }));
  t.equal(second.data.length, 1);
  t.equal(second.nextCursor, null, 'the last page says so');
  t.same([...first.data, ...second.data].map((e) => e.id).sort(), aIds, 'pages cover every event once');
  t.same(
    body(await list(stack, aSandbox, { type: 'webhook.test' })).data.map((e) => e.id),
    [a3.event.id],
    'filter by type',
  );
  t.same(body(await list(stack, aSandbox, { deliveryStatus: 'failed' })).data, [], 'filter by delivery status');
  t.equal(code(await list(stack, aSandbox, { cursor: 'not-a-cursor' })), 'VALIDATION_ERROR', 'a cursor we did not issue is 422');
  // A position written by hand (the shape the cursor once had, unsigned) and another caller's cursor are refused too.
  const handWritten = Buffer.from(JSON.stringify({ t: '2999-01-01T00:00:00.000000', id: 'evt_zzz' })).toString('base64url');
  t.match(
    await list(stack, aSandbox, { cursor: handWritten }),
    { ok: false, error: { code: 'VALIDATION_ERROR', details: { in: 'query', issues: [{ path: '/cursor' }] } } },
    'a cursor written by hand is 422',
  );
  t.equal(code(await list(stack, bSandbox, { cursor: first.nextCursor })), 'VALIDATION_ERROR', "another operator's cursor is 422");
  t.equal(code(await list(stack, aProduction, { cursor: first.nextCursor })), 'VALIDATION_ERROR', "the other environment's cursor is 422");

  const log = body(await attempts(stack, aSandbox, a1.event.id));
  t.equal(log.data.length, 1);
  t.match(log.data[0], { attempt: 1, url: receiverA.url, outcome: 'delivered', statusCode: 200, error: null });
  t.equal(code(await attempts(stack, bSandbox, a1.event.id)), 'WEBHOOK_EVENT_NOT_FOUND', 'another operator cannot read the attempts');
  t.equal(code(await attempts(stack, aProduction, a1.event.id)), 'WEBHOOK_EVENT_NOT_FOUND', 'nor the other environment');
  t.equal(code(await attempts(stack, aSandbox, 'evt_missing')), 'WEBHOOK_EVENT_NOT_FOUND');

  t.equal(code(await redeliver(stack, bSandbox, a1.event.id, 'k-b')), 'WEBHOOK_EVENT_NOT_FOUND', 'another operator cannot redeliver');
  t.equal(code(await redeliver(stack, aProduction, aProd.event.id, 'k-p')), 'WEBHOOK_NOT_CONFIGURED', 'no URL: nothing to deliver to');
  t.equal(code(await redeliver(stack, aProduction, aProd.event.id, 'k-p')), 'WEBHOOK_NOT_CONFIGURED', 'the same key answers the same refusal (stored 4xx)');
  const again = await redeliver(stack, aSandbox, a1.event.id, 'k-a');
  t.equal(code(again), 'ok 202');
  const scheduled = body(again);
  t.match(scheduled, { eventId: a1.event.id, deliveryStatus: 'pending' });
  t.same(body(await redeliver(stack, aSandbox, a1.event.id, 'k-a')), scheduled, 'the same key answers the first redelivery');
  const received = await receiverA.waitForRequests(4);
  t.equal(received[3]!.webhookId, a1.event.id, 'the same event id again');
  t.same(received[3]!.raw, received.find((r) => r.webhookId === a1.event.id)!.raw, 'the same bytes again');
  const after = await waitFor(
    async () => {
      const r = body(await attempts(stack, aSandbox, a1.event.id));
      return r.data.length === 2 && r.data[1]!.outcome === 'delivered' && r;
    },
    { what: 'the redelivery recorded' },
  );
  t.same(
    after.data.map((a) => [a.deliveryId === scheduled.deliveryId, a.attempt]),
    [
      [false, 1],
      [true, 1],
    ],
    'one attempt per delivery, the redelivery counted from 1',
  );
  t.equal(receiverB.requests.length, 1, 'nothing reached the other operator');
});

t.test('during a rotation overlap deliveries carry signatures from both secrets', async (t) => {
  const stack = await startStack(t);
  const oldSecret = newWebhookSecret();
  const newSecret = newWebhookSecret();
  const receiver = await startReceiver(newSecret);
  t.teardown(() => receiver.close());
  const scope = operatorScope('op_r', 'sandbox');
  const endpoint = { operatorId: 'op_r', environment: 'sandbox' as const, brandId: 'brd_op_r', url: receiver.url };
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  const rotated = await upsertEndpoint(stack, {
    ...endpoint,
    secretSealed: sealSecret(newSecret, DEV_MASTER_KEY),
    previousSecretSealed: sealSecret(oldSecret, DEV_MASTER_KEY),
    previousSecretExpiresAt: inAnHour,
  });
  t.equal(rotated.ok, true);

  const test = () => call<{ delivered: boolean }>(stack.svc.nc, stack.prefix, ops.testWebhook.subject, scope);
  t.equal(body(await test()).delivered, true);
  const [during] = await receiver.waitForRequests(1);
  t.equal(String(during!.headers['webhook-signature']).split(' ').length, 2, 'two v1 signatures');
  t.equal(verifyStandardSignature(newSecret, during!.headers, during!.raw), true, 'one with the new secret');
  t.equal(verifyStandardSignature(oldSecret, during!.headers, during!.raw), true, 'one with the previous secret');
  t.equal(verifyContractSignature(oldSecret, during!.headers, during!.raw), true, 'X-Webhook-Signature stays on the previous secret');

  // The overlap ended (or a rotation without one): only the new secret signs.
  t.equal((await upsertEndpoint(stack, { ...endpoint, previousSecretSealed: null, previousSecretExpiresAt: null })).ok, true);
  t.equal(body(await test()).delivered, true);
  const [, ended] = await receiver.waitForRequests(2);
  t.equal(String(ended!.headers['webhook-signature']).split(' ').length, 1, 'one v1 signature');
  t.equal(verifyStandardSignature(newSecret, ended!.headers, ended!.raw), true);
  t.equal(verifyContractSignature(newSecret, ended!.headers, ended!.raw), true, 'X-Webhook-Signature on the new secret');

  const expired = new Date(Date.now() - 1000).toISOString();
  t.equal(
    (await upsertEndpoint(stack, { ...endpoint, previousSecretSealed: sealSecret(oldSecret, DEV_MASTER_KEY), previousSecretExpiresAt: expired })).ok,
    true,
  );
  t.equal(body(await test()).delivered, true);
  const [, , late] = await receiver.waitForRequests(3);
  t.equal(verifyContractSignature(newSecret, late!.headers, late!.raw), true, 'an expired previous secret no longer signs');
  t.equal(String(late!.headers['webhook-signature']).split(' ').length, 1);
});
