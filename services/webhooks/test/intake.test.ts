// The intake takes the first delivery attempt in its own statement (no claim transaction), and
// the per-endpoint and per-replica limits stay exact: concurrent intakes racing for an endpoint's
// slots and for its last one, claims racing intakes, a lapsed lease, records handing their slot to
// waiting deliveries, two replicas with a hanging endpoint, a small pool.
import t from 'tap';
import pino from 'pino';
import type { Sql } from '@bo/service-kit';
import { startDeliveryWorker } from '../src/delivery/delivery-worker.ts';
import { waitFor } from '@bo/service-kit/testing';
import { claimDueAttempts, recordAttemptResult } from '../src/store/delivery-queue.ts';
import { ingestEvent, ingestEvents, type IntakeOutcome } from '../src/store/event-intake.ts';
import { configure, count, eventFor, newWebhookSecret, ownSql, publishEvent, startReceiver, startStack, depositData as deposit } from './helpers.ts';

const LIVE_SLOTS = `select count(*) n from webhooks.endpoint_slots where operator_id = ? and lease_until > now()`;
const LIVE_LEASES = `select count(*) n from webhooks.deliveries where operator_id = ? and status = 'pending' and lease_token is not null and next_attempt_at > now()`;
const delivered = { delivered: true, statusCode: 200, error: null, durationMs: 1 };
const intakeOpts = { maxAttempts: 8, startNow: true, perEndpoint: 3, leaseMs: 60_000 };
const startedOf = (outcomes: IntakeOutcome[]) => outcomes.flatMap((o) => (o.stored === 'started' ? [o.attempt] : []));

t.test('the intake leases the first attempt in its own statement; the claim loop is not needed', async (t) => {
  // No claim pass after the first one at start: only the intake can start these attempts.
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  t.teardown(() => rx.close());
  await configure(stack, 'op_in', rx.url, secret);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(
      (await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_in', environment: 'sandbox' }, 'deposit.confirmed', deposit(`dep_i${i}`))).event.id,
    );
  }
  await rx.waitForRequests(5);
  t.same(new Set(rx.requests.map((r) => r.webhookId)), new Set(ids), 'every event sent once');
  t.ok(
    rx.requests.every((r) => r.contractSignatureOk && r.standardSignatureOk),
    'signed as ever',
  );
  await waitFor(async () => (await count(stack, `select count(*) n from webhooks.deliveries where status = 'delivered'`)) === 5, { what: 'recorded' });
  // now() is the transaction's start: the attempt row was written by the statement that stored the delivery.
  t.equal(
    await count(
      stack,
      `select count(*) n from webhooks.attempts a join webhooks.deliveries d on d.id = a.delivery_id where a.attempt = 1 and a.started_at = d.created_at`,
    ),
    5,
    'each first attempt started in the intake transaction',
  );
  t.equal(await count(stack, LIVE_SLOTS, ['op_in']), 0, 'every slot freed by its record');
});

t.test('intakes racing for the slots of an endpoint, then claims and intakes racing: never more than the limit', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_race', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const sql = ownSql(t, stack);
  const race = (n: number) => Promise.all(Array.from({ length: n }, () => ingestEvent(sql, eventFor('op_race'), intakeOpts)));

  const first = await race(24);
  const started = startedOf(first);
  t.equal(started.length, 3, '24 concurrent intakes: 3 started');
  t.equal(first.filter((o) => o.stored === 'waiting').length, 21, 'the others left due for the claim loop');
  t.same(started.map((a) => a.slot).sort(), [1, 2, 3], 'each in its own slot');
  t.equal(await count(stack, LIVE_LEASES, ['op_race']), 3, 'three live leases');

  // Two slots free; two replicas' claims and new intakes race for them.
  for (const a of started.slice(0, 2)) t.ok((await recordAttemptResult(sql, a, delivered, { status: 'delivered' })).kept, 'recorded');
  const sql2 = ownSql(t, stack);
  const [claimA, claimB, intakes] = await Promise.all([
    claimDueAttempts(sql, { room: 10, perEndpoint: 3, leaseMs: 60_000 }),
    claimDueAttempts(sql2, { room: 10, perEndpoint: 3, leaseMs: 60_000 }),
    race(6),
  ]);
  t.equal(claimA.attempts.length + claimB.attempts.length + startedOf(intakes).length, 2, 'claims and intakes together took the two free slots');
  t.equal(await count(stack, LIVE_LEASES, ['op_race']), 3, 'still three live leases');
  t.equal(await count(stack, LIVE_SLOTS, ['op_race']), 3, 'three slots held');
});

t.test('batches racing for the slots of an endpoint: never more than the limit', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_batch', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const sql = ownSql(t, stack);
  const batches = await Promise.all(
    Array.from({ length: 4 }, () =>
      ingestEvents(
        sql,
        Array.from({ length: 6 }, () => eventFor('op_batch')),
        { ...intakeOpts, room: 6 },
      ),
    ),
  );
  t.equal(startedOf(batches.flat()).length, 3, 'four batches of six, three slots: three started');
  t.equal(batches.flat().filter((o) => o.stored === 'waiting').length, 21, 'the others wait');
  t.equal(await count(stack, LIVE_LEASES, ['op_batch']), 3);
  t.equal(await count(stack, LIVE_SLOTS, ['op_batch']), 3);
});

t.test("intakes racing for an endpoint's last slot: exactly one takes it", async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_last', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const sql = ownSql(t, stack);
  for (let i = 0; i < 2; i++) t.equal((await ingestEvent(sql, eventFor('op_last'), intakeOpts)).stored, 'started');
  const last = await Promise.all(Array.from({ length: 10 }, () => ingestEvent(sql, eventFor('op_last'), intakeOpts)));
  t.equal(startedOf(last).length, 1, 'ten intakes, one slot: one started');
  t.equal(last.filter((o) => o.stored === 'waiting').length, 9, 'nine wait');
  t.equal(await count(stack, LIVE_LEASES, ['op_last']), 3);
  t.equal(await count(stack, LIVE_SLOTS, ['op_last']), 3);
});

t.test('a lapsed lease: its slot is free, the delivery is handed the next slot, the late record changes nothing', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_lapse', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const sql = ownSql(t, stack);
  const opts = { ...intakeOpts, perEndpoint: 1 };
  const a = await ingestEvent(sql, eventFor('op_lapse'), { ...opts, leaseMs: 1 });
  t.equal(a.stored, 'started');
  await waitFor(async () => (await count(stack, LIVE_SLOTS, ['op_lapse'])) === 0, { what: 'lease lapsed' });
  const b = await ingestEvent(sql, eventFor('op_lapse'), opts);
  t.equal(b.stored, 'started', 'the lapsed slot was free');
  if (a.stored !== 'started' || b.stored !== 'started') return;
  t.equal(b.attempt.slot, a.attempt.slot, 'the same slot');
  const handed = await recordAttemptResult(sql, b.attempt, delivered, { status: 'delivered' }, { perEndpoint: 1, leaseMs: 60_000 });
  const c = handed.next;
  t.same(
    [c?.deliveryId, c?.attempt, c?.slot],
    [a.attempt.deliveryId, 2, a.attempt.slot],
    "b's record handed the slot to the lapsed delivery: its second attempt",
  );
  t.notOk((await recordAttemptResult(sql, a.attempt, delivered, { status: 'delivered' })).kept, 'the late worker finds its lease lost');
  const [slot] = await stack.svc.sql.query<{ lease_token: string }>('select lease_token from webhooks.endpoint_slots where operator_id = ? and slot = ?', [
    'op_lapse',
    a.attempt.slot,
  ]);
  t.equal(slot!.lease_token, c?.leaseToken, 'the slot still holds the new lease');
  const attempts = await stack.svc.sql.query('select attempt, outcome from webhooks.attempts where delivery_id = ? order by attempt', [a.attempt.deliveryId]);
  t.same(attempts, [
    { attempt: 1, outcome: 'interrupted' },
    { attempt: 2, outcome: 'in_flight' },
  ]);
});

t.test('events that arrived together: one statement, slots and room shared out in arrival order', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_a', 'http://127.0.0.1:9/a', newWebhookSecret());
  await configure(stack, 'op_b', 'http://127.0.0.1:9/b', newWebhookSecret());
  const sql = ownSql(t, stack);
  const before = eventFor('op_a');
  await ingestEvent(sql, before, { ...intakeOpts, startNow: false });
  const [a0, b0, a1, b1, a2, a3, x0, a4] = ['op_a', 'op_b', 'op_a', 'op_b', 'op_a', 'op_a', 'op_x', 'op_a'].map(eventFor);
  const outcomes = await ingestEvents(sql, [a0!, b0!, a1!, b1!, a2!, a3!, x0!, a4!, before], { ...intakeOpts, room: 4 });
  t.same(
    outcomes.map((o) => o.stored),
    ['started', 'started', 'started', 'started', 'waiting', 'waiting', 'closed', 'waiting', 'duplicate'],
    "the pool's four places to the first four; op_x has no endpoint; the repeat is dropped",
  );
  const started = startedOf(outcomes);
  t.same(
    started.map((a) => [a.eventId, a.operatorId, a.slot, a.attempt]),
    [
      [a0!.id, 'op_a', 1, 1],
      [b0!.id, 'op_b', 1, 1],
      [a1!.id, 'op_a', 2, 1],
      [b1!.id, 'op_b', 2, 1],
    ],
    'each with a slot of its own endpoint',
  );
  t.ok(
    started.every((a, i) => a.body.equals([a0, b0, a1, b1][i]!.body)),
    'with its bytes',
  );
  const stored = await sql.query<{ id: string; type: string; brand_id: string; body: Buffer; created_at: string; source: string }>(
    `select id, type, brand_id, body, to_json(created_at)#>>'{}' as created_at, source from webhooks.events where id = any(?::text[])`,
    [[a0, b0, a1, b1, a2, a3, x0, a4].map((e) => e!.id)],
  );
  const byId = new Map(stored.map((r) => [r.id, r]));
  t.ok(
    [a0, b0, a1, b1, a2, a3, x0, a4].every((e) => {
      const r = byId.get(e!.id);
      return (
        r?.body.equals(e!.body) &&
        r.type === e!.type &&
        r.brand_id === e!.brandId &&
        r.source === 'stream' &&
        Date.parse(r.created_at) === Date.parse(e!.createdAt)
      );
    }),
    'every event of the batch stored with its own bytes, type, brand, source and time',
  );
  // The waiting ones: two of op_a's three slots are taken, and the one that waited longest goes first.
  const more = await ingestEvents(sql, [eventFor('op_a'), eventFor('op_a')], { ...intakeOpts, room: 2 });
  t.same(
    more.map((o) => o.stored),
    ['started', 'waiting'],
    "op_a's last slot",
  );
  t.equal(await count(stack, LIVE_LEASES, ['op_a']), 3);
  t.equal(await count(stack, 'select count(*) n from webhooks.events'), 11, 'every event stored once');
  t.equal(await count(stack, `select count(*) n from webhooks.deliveries where status = 'no_endpoint'`), 1);
});

t.test('while deliveries wait, each record hands its slot to the oldest of them', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_hand', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const sql = ownSql(t, stack);
  const opts = { ...intakeOpts, perEndpoint: 1 };
  const handOver = { perEndpoint: 1, leaseMs: 60_000 };
  const first = await ingestEvent(sql, eventFor('op_hand'), opts);
  const later = [eventFor('op_hand'), eventFor('op_hand')];
  const stored = [first.stored];
  for (const e of later) stored.push((await ingestEvent(sql, e, opts)).stored);
  t.same(stored, ['started', 'waiting', 'waiting'], 'one slot: the later two wait');
  if (first.stored !== 'started') return;

  const r1 = await recordAttemptResult(sql, first.attempt, delivered, { status: 'delivered' }, handOver);
  t.ok(r1.kept, 'recorded');
  t.same(
    [r1.next?.eventId, r1.next?.attempt, r1.next?.slot, r1.next?.body.equals(later[0]!.body)],
    [later[0]!.id, 1, first.attempt.slot, true],
    'handed to the oldest waiting delivery: its first attempt, the same slot, its bytes',
  );
  const failed = { delivered: false, statusCode: 500, error: 'HTTP 500', durationMs: 1 };
  const r2 = await recordAttemptResult(sql, r1.next!, failed, { status: 'pending', delayMs: 60_000 }, handOver);
  t.equal(r2.next?.eventId, later[1]!.id, 'a failed attempt hands over too (its own retry is not due yet)');
  const r3 = await recordAttemptResult(sql, r2.next!, delivered, { status: 'delivered' }, handOver);
  t.equal(r3.next, undefined, 'nothing waits: the slot is freed');
  t.equal(await count(stack, LIVE_SLOTS, ['op_hand']), 0);
  t.equal(await count(stack, `select count(*) n from webhooks.attempts where operator_id = 'op_hand' and outcome = 'in_flight'`), 0, 'every attempt recorded');
  t.equal((await ingestEvent(sql, eventFor('op_hand'), opts)).stored, 'started', 'the next event starts at intake again');
});

t.test('two replicas and a hanging endpoint: the endpoint limit holds, the rest waits for the claim loop', async (t) => {
  const stack = await startStack(t, { WEBHOOK_TIMEOUT_MS: 30_000, WEBHOOK_ENDPOINT_CONCURRENCY: 3 });
  const { startService } = await import('@bo/service-kit');
  const { webhooksService } = await import('../src/index.ts');
  const replica = await startService(webhooksService, stack.config);
  t.teardown(() => replica.stop());
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, () => 'hang');
  t.teardown(() => rx.close());
  await configure(stack, 'op_hang', rx.url, secret);
  const ids = new Set<string>();
  for (let i = 0; i < 12; i++) {
    ids.add(
      (await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_hang', environment: 'sandbox' }, 'deposit.confirmed', deposit(`dep_h${i}`))).event.id,
    );
  }
  await waitFor(async () => (await count(stack, 'select count(*) n from webhooks.deliveries')) === 12, { what: 'all 12 stored' });
  await waitFor(async () => rx.held() === 3, { what: 'three requests hanging' });
  t.equal(await count(stack, LIVE_LEASES, ['op_hang']), 3, 'three live leases, across both replicas');
  t.equal(
    await count(stack, `select count(*) n from webhooks.attempts a join webhooks.deliveries d on d.id = a.delivery_id where a.started_at = d.created_at`),
    3,
    'the intakes started three; the other nine wait',
  );
  await waitFor(
    async () => {
      rx.releaseAll(200);
      return (await count(stack, `select count(*) n from webhooks.deliveries where status = 'delivered'`)) === 12;
    },
    { what: 'all delivered', timeoutMs: 60_000 },
  );
  t.ok(rx.maxConcurrent() <= 3, 'never more than three in flight');
  t.equal(rx.requests.length, 12, 'each event sent once');
  t.same(new Set(rx.requests.map((r) => r.webhookId)), ids);
});

t.test('an event that cannot be stored does not hold up the others that arrived with it', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  t.teardown(() => rx.close());
  await configure(stack, 'op_poison', rx.url, secret);
  const routing = { operatorId: 'op_poison', environment: 'sandbox' as const };
  const good1 = await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_g1'));
  // A NUL in the id: JSON allows it, Postgres text does not.
  await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_bad'), { id: 'evt_\u0000bad', msgId: 'poison' });
  const good2 = await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_g2'));
  await rx.waitForRequests(2);
  t.same(new Set(rx.requests.map((r) => r.webhookId)), new Set([good1.event.id, good2.event.id]), 'both good events delivered');
  t.equal(await count(stack, 'select count(*) n from webhooks.events'), 2, 'the bad one is not stored (it is redelivered, as before)');
});

t.test("a replica's pool limit holds for the attempts its intake starts", async (t) => {
  const stack = await startStack(t, { WEBHOOK_TIMEOUT_MS: 30_000, WEBHOOK_CONCURRENCY: 2 });
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, () => 'hang');
  t.teardown(() => rx.close());
  await configure(stack, 'op_pool', rx.url, secret);
  for (let i = 0; i < 6; i++) {
    await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_pool', environment: 'sandbox' }, 'deposit.confirmed', deposit(`dep_p${i}`));
  }
  await waitFor(async () => (await count(stack, 'select count(*) n from webhooks.deliveries')) === 6, { what: 'all 6 stored' });
  await waitFor(async () => rx.held() === 2, { what: 'two requests hanging' });
  t.equal(await count(stack, LIVE_LEASES, ['op_pool']), 2, 'two live leases: the pool is full');
  await waitFor(
    async () => {
      rx.releaseAll(200);
      return (await count(stack, `select count(*) n from webhooks.deliveries where status = 'delivered'`)) === 6;
    },
    { what: 'all delivered', timeoutMs: 60_000 },
  );
  t.ok(rx.maxConcurrent() <= 2, 'never more than the pool');
  t.equal(rx.requests.length, 6, 'each event sent once');
});

t.test('a claim pass and the intake never fill the same places of the pool', async (t) => {
  // The stack's own worker (one place) is kept busy by a hanging attempt of another operator and
  // polls rarely, so only the worker under test claims op_gate's deliveries.
  const stack = await startStack(t, { WEBHOOK_CONCURRENCY: 1, WEBHOOK_POLL_MS: 600_000 });
  const secret = newWebhookSecret();
  const busy = await startReceiver(secret, () => 'hang');
  t.teardown(() => busy.close());
  const rx = await startReceiver(secret, () => 'hang');
  t.teardown(() => rx.close());
  await configure(stack, 'op_busy', busy.url, secret);
  await configure(stack, 'op_gate', rx.url, secret);
  await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_busy', environment: 'sandbox' }, 'deposit.confirmed', deposit('dep_busy'));
  await waitFor(async () => busy.held() === 1, { what: "the stack's worker busy" });

  // The worker under test: its first claim pass is held at its transaction until the gate opens.
  const sql = ownSql(t, stack);
  let entered!: () => void;
  const claimEntered = new Promise<void>((resolve) => (entered = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let claimDone!: Promise<unknown>;
  let gated = false;
  const gatedSql: Sql = {
    query: (text, params) => sql.query(text, params),
    transaction(fn, opts) {
      if (gated) return sql.transaction(fn, opts);
      gated = true;
      entered();
      const done = gate.then(() => sql.transaction(fn, opts));
      claimDone = done.catch(() => undefined);
      return done;
    },
  };
  const c = stack.config;
  const leaseMs = 60_000;
  const worker = startDeliveryWorker({
    sql: gatedSql,
    log: pino({ level: 'silent' }),
    attempt: { masterKey: c.SECRETS_MASTER_KEY, timeoutMs: 50_000, policy: { allowHttp: c.WEBHOOK_ALLOW_HTTP, allowPrivate: c.WEBHOOK_ALLOW_PRIVATE } },
    schedule: [30],
    concurrency: 2,
    perEndpoint: 16,
    pollMs: 600_000,
    leaseMs,
  });
  t.teardown(() => worker.stop());
  await claimEntered;

  // While the pass looks, four deliveries come due (left waiting by another replica's intake, say),
  // and an intake asks for the pool's room: it is given what the pass leaves, once the pass is done.
  const events = [0, 1, 2, 3].map(() => eventFor('op_gate'));
  const waiting = await ingestEvents(sql, events, { maxAttempts: 8, room: 0, perEndpoint: 16, leaseMs });
  t.same(
    waiting.map((o) => o.stored),
    ['waiting', 'waiting', 'waiting', 'waiting'],
    'four deliveries due, none started',
  );
  let granted: number | undefined;
  const reserving = Promise.resolve(worker.reserve(2)).then((n) => (granted = n));
  await sql.query('select 1');
  t.equal(granted, undefined, 'the intake is not given the places of a claim pass under way');
  open();
  await claimDone;
  await reserving;
  t.equal(granted, 0, 'the pass filled the pool; the intake is given no place');
  // The intake's two events, stored with the room it was given, as the consumer does.
  const more = [0, 1].map(() => eventFor('op_gate'));
  const outcomes = await ingestEvents(sql, more, { maxAttempts: 8, room: granted!, perEndpoint: 16, leaseMs });
  const started = startedOf(outcomes);
  for (const a of started) worker.startReserved(a);
  for (let i = started.length; i < granted!; i++) worker.startReserved(undefined);
  if (outcomes.some((o) => o.stored === 'waiting')) worker.noteWaiting();
  await waitFor(async () => rx.held() === 2, { what: 'two requests hanging' });
  const [live] = await sql.query<{ n: string }>(LIVE_LEASES, ['op_gate']);
  t.equal(Number(live!.n), 2, 'two live leases: the pool of two is full, not twice over');
  await waitFor(
    async () => {
      rx.releaseAll(200);
      worker.poke(); // its poll, which would find the other two due
      const [r] = await sql.query<{ n: string }>(`select count(*) n from webhooks.deliveries where operator_id = 'op_gate' and status = 'delivered'`);
      return Number(r!.n) === 6;
    },
    { what: 'all delivered', timeoutMs: 60_000 },
  );
  busy.releaseAll(200);
  t.ok(rx.maxConcurrent() <= 2, 'never more than the pool');
  t.same(new Set(rx.requests.map((r) => r.webhookId)), new Set([...events, ...more].map((e) => e.id)), 'each event sent once');
  t.equal(rx.requests.length, 6);
});

t.test('a stopping worker gives the intake no place: what it still stores waits for the next claim loop', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  const c = stack.config;
  const worker = startDeliveryWorker({
    sql: ownSql(t, stack),
    log: pino({ level: 'silent' }),
    attempt: { masterKey: c.SECRETS_MASTER_KEY, timeoutMs: 50_000, policy: { allowHttp: c.WEBHOOK_ALLOW_HTTP, allowPrivate: c.WEBHOOK_ALLOW_PRIVATE } },
    schedule: [30],
    concurrency: 4,
    perEndpoint: 16,
    pollMs: 600_000,
    leaseMs: 60_000,
  });
  const granted = await worker.reserve(2);
  t.equal(granted, 2, 'running: the places asked for');
  for (let i = 0; i < granted; i++) worker.startReserved(undefined);
  const stopping = worker.stop();
  t.equal(await worker.reserve(2), 0, 'stopping: none, so no attempt starts after the stop');
  await stopping;
});
