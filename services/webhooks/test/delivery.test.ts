// Delivery end to end: events published to JetStream reach a real HTTP receiver, signed over the
// raw bytes; failures are retried on the schedule with the same X-Webhook-Id; every attempt is
// in the admin log; a slow endpoint does not hold up another operator.
import t from 'tap';
import { newId, webhookAdminOperations, type DeliveryLogItem } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { adminScope, call, newWebhookSecret, publishEvent, startReceiver, startStack, upsertEndpoint, type Stack, depositData as deposit } from './helpers.ts';

const withdrawal = (id: string) => ({
  id,
  playerId: 'plr_1',
  amount: '50.00',
  currency: 'BRL',
  method: 'pix',
  destination: 'key@example.test',
  status: 'approved' as const,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:05:00.000Z',
  payoutDueAt: null,
});

async function configure(stack: Stack, operatorId: string, url: string, secret: string, environment: 'sandbox' | 'production' = 'sandbox') {
  const r1 = await upsertEndpoint(stack, { operatorId, environment, brandId: `brd_${operatorId}`, secret });
  const r2 = await upsertEndpoint(stack, { operatorId, environment, brandId: `brd_${operatorId}`, url });
  if (!r1.ok || !r2.ok) throw new Error(`endpoint setup failed: ${JSON.stringify([r1, r2])}`);
}

async function deliveryLog(stack: Stack, query: Record<string, string>): Promise<DeliveryLogItem[]> {
  const r = await call<{ data: DeliveryLogItem[] }>(stack.svc.nc, stack.prefix, webhookAdminOperations.adminListDeliveries.subject!, adminScope, { query });
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.body.data;
}

async function deliveryStatus(stack: Stack, eventId: string): Promise<{ status: string; attempts: number }[]> {
  return stack.svc.sql.query('select status, attempts from webhooks.deliveries where event_id = ? order by created_at', [eventId]);
}

t.test('every event kind arrives signed over its raw bytes (both signature schemes)', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  t.teardown(() => rx.close());
  await configure(stack, 'op_sig', rx.url, secret);
  const routing = { operatorId: 'op_sig', environment: 'sandbox' as const };
  const published = [
    await publishEvent(stack.svc.nc, stack.prefix, routing, 'kyc.status_changed', {
      playerId: 'plr_1',
      externalId: 'ext-1',
      previousStatus: 'em_analise',
      status: 'aprovado',
    }),
    await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_1')),
    await publishEvent(stack.svc.nc, stack.prefix, routing, 'withdrawal.status_changed', { withdrawal: withdrawal('wd_1'), previousStatus: 'under_review' }),
    await publishEvent(stack.svc.nc, stack.prefix, routing, 'webhook.test', { message: 'über ✓ non-ASCII bytes' }),
  ];
  await rx.waitForRequests(4);
  for (const p of published) {
    const got = rx.requests.filter((r) => r.webhookId === p.event.id);
    t.equal(got.length, 1, `${p.event.type} delivered once`);
    const r = got[0];
    t.equal(r!.raw.toString('utf8'), p.raw, `${p.event.type}: body is the exact published bytes`);
    t.ok(r!.contractSignatureOk, `${p.event.type}: X-Webhook-Signature verifies with the whsec_ string`);
    t.ok(r!.standardSignatureOk, `${p.event.type}: webhook-signature verifies with the decoded key`);
    t.equal(r!.headers['webhook-id'], p.event.id);
    t.equal(r!.headers['content-type'], 'application/json');
    t.equal(r!.headers['x-webhook-timestamp'], r!.headers['webhook-timestamp']);
    t.ok(Math.abs(Number(r!.headers['x-webhook-timestamp']) - Date.now() / 1000) < 300, 'timestamp is epoch seconds of the attempt');
  }
  // A signature over another body or with another secret does not verify (the check can fail).
  const first = rx.requests[0];
  const { verifyContractSignature } = await import('./helpers.ts');
  t.notOk(verifyContractSignature(secret, first!.headers, Buffer.from(`${first!.raw.toString('utf8')} `)));
  t.notOk(verifyContractSignature(newWebhookSecret(), first!.headers, first!.raw));
  for (const p of published) {
    // The receiver answered before the service recorded the attempt: wait for the record.
    await waitFor(async () => (await deliveryStatus(stack, p.event.id))[0]?.status !== 'pending', { what: 'attempt recorded' });
    t.same(await deliveryStatus(stack, p.event.id), [{ status: 'delivered', attempts: 1 }]);
  }
});

t.test('a failing receiver gets the same event again until it answers 2xx', async (t) => {
  // A short deadline for the attempt that hangs (it never answers); the others answer at once.
  const stack = await startStack(t, { WEBHOOK_TIMEOUT_MS: 3000 });
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, (n) =>
    n === 1 ? 500 : n === 2 ? { status: 302, headers: { location: 'http://127.0.0.1:1/' } } : n === 3 ? 'hang' : 204,
  );
  t.teardown(() => rx.close());
  await configure(stack, 'op_retry', rx.url, secret);
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_retry', environment: 'sandbox' }, 'deposit.confirmed', deposit('dep_2'));
  await rx.waitForRequests(3);
  // The third attempt hangs; it must time out and be retried rather than block the delivery.
  await rx.waitForRequests(4);
  t.same(
    rx.requests.map((r) => r.webhookId),
    [event.id, event.id, event.id, event.id],
    'same X-Webhook-Id on every attempt',
  );
  t.ok(
    rx.requests.every((r) => r.contractSignatureOk && r.standardSignatureOk),
    'every attempt signed afresh and valid',
  );
  await waitFor(async () => (await deliveryStatus(stack, event.id))[0]?.status === 'delivered', { what: 'delivered' });
  const log = await deliveryLog(stack, { eventId: event.id });
  t.same(log.map((l) => [l.attempt, l.statusCode, l.outcome]).reverse(), [
    [1, 500, 'failed'],
    [2, 302, 'failed'],
    [3, null, 'failed'],
    [4, 204, 'delivered'],
  ]);
  t.match(log.find((l) => l.attempt === 3)!.error, /timeout/);
  t.match(log.find((l) => l.attempt === 2)!.error, /redirect/);
  t.ok(log.every((l) => l.url === rx.url && typeof l.durationMs === 'number'));
  t.ok(
    log.every((l) => l.eventType === event.type),
    `every attempt names its event's type (${event.type})`,
  );
});

t.test('a receiver that always fails gets exactly 8 attempts, then the delivery is failed', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, () => 503);
  t.teardown(() => rx.close());
  await configure(stack, 'op_dead', rx.url, secret);
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_dead', environment: 'sandbox' }, 'kyc.status_changed', {
    playerId: 'plr_9',
    externalId: null,
    previousStatus: 'nao_iniciado',
    status: 'em_analise',
  });
  await waitFor(async () => (await deliveryStatus(stack, event.id))[0]?.status === 'failed', { what: 'delivery failed', timeoutMs: 60_000 });
  // Nothing more is sent once failed.
  await new Promise((r) => setTimeout(r, 300));
  t.equal(rx.requests.length, 8, 'receiver saw 8 attempts');
  t.ok(rx.requests.every((r) => r.webhookId === event.id));
  const log = await deliveryLog(stack, { eventId: event.id });
  t.equal(log.length, 8, 'the log shows 8 attempts');
  t.same(
    log.map((l) => l.attempt).sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  t.ok(log.every((l) => l.statusCode === 503 && l.outcome === 'failed'));
  t.same(await deliveryStatus(stack, event.id), [{ status: 'failed', attempts: 8 }]);
});

t.test('Retry-After of a 429 postpones the next attempt within the schedule', async (t) => {
  const stack = await startStack(t, { WEBHOOK_RETRY_SCHEDULE_MS: '10,10,10,10,10,10,3000' });
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : 200));
  t.teardown(() => rx.close());
  await configure(stack, 'op_429', rx.url, secret);
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_429', environment: 'sandbox' }, 'deposit.confirmed', deposit('dep_3'));
  await rx.waitForRequests(1);
  // Once attempt 1 is recorded, the next one is due about 1 s after it, not after the 10 ms step.
  const [d] = await waitFor(
    async () => {
      const rows = await stack.svc.sql.query<{ gap_ms: number }>(
        `select extract(epoch from (d.next_attempt_at - a.finished_at)) * 1000 as gap_ms from webhooks.deliveries d
       join webhooks.attempts a on a.delivery_id = d.id and a.attempt = 1 and a.outcome = 'failed'
       where d.event_id = ? and d.lease_token is null`,
        [event.id],
      );
      return rows.length ? rows : undefined;
    },
    { what: 'attempt 1 recorded' },
  );
  t.ok(Number(d!.gap_ms) >= 900, `next attempt scheduled about 1 s later (Retry-After), not after the 10 ms step: ${d!.gap_ms}`);
  await rx.waitForRequests(2);
  await waitFor(async () => (await deliveryStatus(stack, event.id))[0]?.status === 'delivered', { what: 'delivered' });
});

t.test('an operator without a URL: the event is recorded as undeliverable and not retried', async (t) => {
  const stack = await startStack(t);
  await upsertEndpoint(stack, { operatorId: 'op_nourl', environment: 'sandbox', brandId: 'brd_op_nourl', secret: newWebhookSecret() });
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_nourl', environment: 'sandbox' }, 'deposit.confirmed', deposit('dep_4'));
  const { event: unknownOp } = await publishEvent(
    stack.svc.nc,
    stack.prefix,
    { operatorId: 'op_never_seen', environment: 'production' },
    'deposit.confirmed',
    deposit('dep_5'),
  );
  for (const id of [event.id, unknownOp.id]) {
    await waitFor(async () => (await deliveryStatus(stack, id))[0]?.status === 'no_endpoint', { what: 'no_endpoint' });
    t.same(await deliveryStatus(stack, id), [{ status: 'no_endpoint', attempts: 0 }]);
  }
  const [stored] = await stack.svc.sql.query<{ n: string }>('select count(*) n from webhooks.events');
  t.equal(Number(stored!.n), 2, 'both events stored');
});

t.test('an event published twice (new msgID, same event id) is stored and delivered once', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  t.teardown(() => rx.close());
  await configure(stack, 'op_dup', rx.url, secret);
  const id = newId('event');
  await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_dup', environment: 'sandbox' }, 'deposit.confirmed', deposit('dep_6'), {
    id,
    msgId: `${id}-a`,
  });
  await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_dup', environment: 'sandbox' }, 'deposit.confirmed', deposit('dep_6'), {
    id,
    msgId: `${id}-b`,
  });
  // A third, later event proves the consumer has passed both copies.
  const { event: marker } = await publishEvent(
    stack.svc.nc,
    stack.prefix,
    { operatorId: 'op_dup', environment: 'sandbox' },
    'deposit.confirmed',
    deposit('dep_7'),
  );
  await waitFor(async () => rx.requests.some((r) => r.webhookId === marker.id), { what: 'marker delivered' });
  await waitFor(async () => rx.requests.some((r) => r.webhookId === id), { what: 'event delivered' });
  await new Promise((r) => setTimeout(r, 200));
  t.equal(rx.requests.filter((r) => r.webhookId === id).length, 1);
  t.equal((await deliveryStatus(stack, id)).length, 1, 'one delivery planned');
});

t.test('a hanging endpoint does not hold up another operator', async (t) => {
  // The hang is real: the timeout is far longer than the test needs to see the other delivery.
  const stack = await startStack(t, { WEBHOOK_TIMEOUT_MS: 30_000, WEBHOOK_CONCURRENCY: 4, WEBHOOK_ENDPOINT_CONCURRENCY: 2 });
  const secretA = newWebhookSecret();
  const secretB = newWebhookSecret();
  const slow = await startReceiver(secretA, () => 'hang');
  const fast = await startReceiver(secretB);
  t.teardown(async () => {
    await slow.close();
    await fast.close();
  });
  await configure(stack, 'op_slow', slow.url, secretA);
  await configure(stack, 'op_fast', fast.url, secretB);
  const slowEvents = [];
  for (let i = 0; i < 6; i++) {
    slowEvents.push(
      (await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_slow', environment: 'sandbox' }, 'deposit.confirmed', deposit(`dep_s${i}`))).event,
    );
  }
  await waitFor(async () => slow.held() === 2, { what: 'two slow requests hanging' });
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_fast', environment: 'sandbox' }, 'deposit.confirmed', deposit('dep_f'));
  const [got] = await fast.waitForRequests(1);
  t.equal(got!.webhookId, event.id);
  t.equal(slow.held(), 2, 'the slow endpoint was still hanging when the other operator got its event');
  t.equal(slow.requests.length, 2, 'the slow endpoint holds at most its share of the pool');
  t.ok(slow.maxConcurrent() <= 2);
  // Released, the slow endpoint receives the rest.
  slow.releaseAll(200);
  await waitFor(
    async () => {
      slow.releaseAll(200);
      return new Set(slow.requests.map((r) => r.webhookId)).size === 6;
    },
    { what: 'slow endpoint drained', timeoutMs: 60_000 },
  );
  t.same(new Set(slow.requests.map((r) => r.webhookId)), new Set(slowEvents.map((e) => e.id)));
});

t.test('two replicas share the queue: every event is sent exactly once when nothing fails', async (t) => {
  const stack = await startStack(t, { WEBHOOK_CONCURRENCY: 3, WEBHOOK_ENDPOINT_CONCURRENCY: 8 });
  // A second replica on the same database and prefix: same durable consumer, same delivery queue.
  const { startService } = await import('@bo/service-kit');
  const { webhooksService } = await import('../src/index.ts');
  const replica = await startService(webhooksService, stack.config);
  t.teardown(() => replica.stop());
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  t.teardown(() => rx.close());
  await configure(stack, 'op_many', rx.url, secret);
  const ids = new Set<string>();
  for (let i = 0; i < 40; i++) {
    ids.add(
      (await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_many', environment: 'sandbox' }, 'deposit.confirmed', deposit(`dep_m${i}`))).event.id,
    );
  }
  await rx.waitForRequests(40);
  await waitFor(
    async () => {
      const [r] = await stack.svc.sql.query<{ n: string }>(`select count(*) n from webhooks.deliveries where status = 'delivered'`);
      return Number(r!.n) === 40;
    },
    { what: 'all recorded' },
  );
  await new Promise((r) => setTimeout(r, 200));
  t.equal(rx.requests.length, 40, 'no event sent twice');
  t.same(new Set(rx.requests.map((r) => r.webhookId)), ids);
  const [a] = await stack.svc.sql.query<{ n: string }>('select count(*) n from webhooks.attempts');
  t.equal(Number(a!.n), 40, 'one attempt each');
});
