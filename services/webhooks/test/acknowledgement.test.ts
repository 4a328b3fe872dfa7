// A 2xx from any delivery of an event (its scheduled retries, the operator's redelivery, our team's)
// ends the schedules of the event's other deliveries (issue 24): against the real service, Postgres,
// JetStream and an HTTP receiver, then the records and the claim on their own.
//
// Retries are scheduled a minute out and made due by the test (`makeDue`) once the redelivery's 2xx
// is recorded, together with a marker event's retry due just after: when the marker's retry has
// been delivered, the worker has passed the moment the old schedule would have fired.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import t from 'tap';
import {
  newId,
  requestOperation,
  webhookAdminOperations,
  webhookOperations,
  type DeliveryLogItem,
  type OperationReply,
  type RedeliveryResult,
} from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { createRecordBatcher } from '../src/delivery/record-batcher.ts';
import type { AttemptResult } from '../src/domain/retry-schedule.ts';
import { claimDueAttempts, recordAttemptResult, scheduleDelivery, type ClaimedAttempt } from '../src/store/delivery-queue.ts';
import { ingestEvent } from '../src/store/event-intake.ts';
import {
  adminScope,
  call,
  configure,
  eventFor,
  newWebhookSecret,
  operatorScope,
  ownSql,
  publishEvent,
  startReceiver,
  startStack,
  depositData as deposit,
  type Receiver,
  type Reply,
  type Stack,
} from './helpers.ts';

const MINUTE_STEPS = Array.from({ length: 7 }, () => '60000').join(',');
const OPERATOR = 'op_ack';

/** The admin delivery log of an event, oldest attempt first. */
async function attemptLog(stack: Stack, eventId: string): Promise<DeliveryLogItem[]> {
  const r = await call<{ data: DeliveryLogItem[] }>(stack.svc.nc, stack.prefix, webhookAdminOperations.adminListDeliveries.subject!, adminScope, {
    query: { eventId },
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return [...r.body.data].reverse();
}

/** Waits until the log shows an attempt matching `ok`; returns the log. */
function logShows(stack: Stack, eventId: string, ok: (l: DeliveryLogItem) => boolean, what: string): Promise<DeliveryLogItem[]> {
  return waitFor(
    async () => {
      const log = await attemptLog(stack, eventId);
      return log.some(ok) && log;
    },
    { what },
  );
}

interface DeliveryState {
  id: string;
  status: string;
  attempts: number;
  scheduled: boolean;
  leased: boolean;
}
async function deliveriesOf(stack: Stack, eventId: string): Promise<DeliveryState[]> {
  return stack.svc.sql.query<DeliveryState>(
    `select id, status, attempts, next_attempt_at is not null as scheduled, lease_token is not null as leased
       from webhooks.deliveries where event_id = ? order by created_at, id`,
    [eventId],
  );
}

/**
 * Makes the retries still scheduled for `eventIds` due now, and the marker's a millisecond later
 * (the claim takes an endpoint's due deliveries oldest first). Returns the events that had one.
 */
async function makeDue(stack: Stack, eventIds: string[], markerId: string): Promise<string[]> {
  const rows = await stack.svc.sql.query<{ event_id: string }>(
    `update webhooks.deliveries set next_attempt_at = now() - case when event_id = ? then interval '0' else interval '1 millisecond' end
     where event_id = any(?::text[]) and status = 'pending' and lease_token is null
     returning event_id`,
    [markerId, [...eventIds, markerId]],
  );
  return rows.map((r) => r.event_id).sort();
}

/** A receiver that answers each event id's first request 500 and its later ones (the nth of that id) as `later` says, 200 by default. */
async function firstFails(secret: string, later: (nth: number, eventId: string) => Reply = () => 200): Promise<Receiver & { of(eventId: string): number }> {
  const seen = new Map<string, number>();
  const rx = await startReceiver(secret, (_n, req) => {
    const nth = (seen.get(req.webhookId) ?? 0) + 1;
    seen.set(req.webhookId, nth);
    return nth === 1 ? 500 : later(nth, req.webhookId);
  });
  return { ...rx, of: (eventId) => rx.requests.filter((r) => r.webhookId === eventId).length };
}

const redeliverers: Record<string, (stack: Stack, eventId: string) => Promise<string>> = {
  "the operator's": async (stack, eventId) => {
    const r: OperationReply<RedeliveryResult> = await requestOperation<RedeliveryResult>(
      stack.svc.nc,
      webhookOperations.redeliverWebhookEvent.subject,
      {
        ctx: { requestId: newId('request'), scope: operatorScope(OPERATOR, 'sandbox'), idempotencyKey: newId('request') },
        params: { eventId },
        query: {},
        body: {},
      },
      { prefix: stack.prefix, timeoutMs: 20_000 },
    );
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r.body.deliveryId;
  },
  "our team's": async (stack, eventId) => {
    const r = await call<{ deliveryId: string }>(stack.svc.nc, stack.prefix, webhookAdminOperations.adminRedeliver.subject, adminScope, {
      params: { eventId },
    });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r.body.deliveryId;
  },
};

for (const [who, redeliver] of Object.entries(redeliverers)) {
  t.test(`${who} redelivery answered 2xx after a failed attempt ends the old retry schedule`, async (t) => {
    const stack = await startStack(t, { WEBHOOK_RETRY_SCHEDULE_MS: MINUTE_STEPS });
    const secret = newWebhookSecret();
    const rx = await firstFails(secret);
    t.teardown(() => rx.close());
    await configure(stack, OPERATOR, rx.url, secret);
    const routing = { operatorId: OPERATOR, environment: 'sandbox' as const };
    const { event } = await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_ack'));
    const { event: marker } = await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_marker'));
    await logShows(stack, event.id, (l) => l.outcome === 'failed', 'the first attempt failed');
    await logShows(stack, marker.id, (l) => l.outcome === 'failed', "the marker's first attempt failed");
    const [original] = await deliveriesOf(stack, event.id);
    t.match(original, { status: 'pending', attempts: 1, scheduled: true, leased: false }, 'its retry is scheduled');

    const redelivery = await redeliver(stack, event.id);
    await logShows(stack, event.id, (l) => l.deliveryId === redelivery && l.outcome === 'delivered', 'the redelivery acknowledged');
    t.same(await makeDue(stack, [event.id], marker.id), [marker.id], 'no retry of the event is left to make due: only the marker has one');
    await logShows(stack, marker.id, (l) => l.outcome === 'delivered', "the marker's retry delivered");
    await waitFor(async () => (await deliveriesOf(stack, event.id)).every((d) => d.status !== 'pending'), { what: "nothing of the event's pending" });

    t.equal(rx.of(event.id), 2, 'the receiver got the event twice: the failed attempt and the redelivery');
    t.equal(rx.of(marker.id), 2, 'and the marker twice');
    t.same(
      (await deliveriesOf(stack, event.id)).map((d) => [d.id, d.status, d.attempts, d.scheduled, d.leased]),
      [
        [original!.id, 'delivered', 1, false, false],
        [redelivery, 'delivered', 1, false, false],
      ],
      'both deliveries ended delivered, nothing scheduled',
    );
    t.same(
      (await attemptLog(stack, event.id)).map((l) => [l.deliveryId, l.attempt, l.statusCode, l.outcome]),
      [
        [original!.id, 1, 500, 'failed'],
        [redelivery, 1, 200, 'delivered'],
      ],
      'the log: the failed attempt and the redelivery, no attempt in flight',
    );
  });
}

t.test('a redelivery asked while a retry is due sends the event once: the redelivery takes its turn', async (t) => {
  // The worker claims only when woken (its poll is an hour): the retry made due and the redelivery
  // are both due when the redelivery's wake-up runs the claim. Without the turn taken, that claim
  // leased both and the receiver got the event twice in the same millisecond.
  const stack = await startStack(t, { WEBHOOK_RETRY_SCHEDULE_MS: MINUTE_STEPS, WEBHOOK_POLL_MS: 3_600_000 }, 'whdue');
  const secret = newWebhookSecret();
  const rx = await firstFails(secret);
  t.teardown(() => rx.close());
  await configure(stack, OPERATOR, rx.url, secret);
  const routing = { operatorId: OPERATOR, environment: 'sandbox' as const };
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_due'));
  await logShows(stack, event.id, (l) => l.outcome === 'failed', 'the first attempt failed');
  const [original] = await deliveriesOf(stack, event.id);
  t.same(await makeDue(stack, [event.id], 'evt_none'), [event.id], 'its retry is due (no claim runs until something wakes the worker)');

  const redelivery = await redeliverers["the operator's"]!(stack, event.id);
  await logShows(stack, event.id, (l) => l.deliveryId === redelivery && l.outcome === 'delivered', 'the redelivery acknowledged');
  await waitFor(async () => (await deliveriesOf(stack, event.id)).every((d) => d.status !== 'pending'), { what: "nothing of the event's pending" });

  t.equal(rx.of(event.id), 2, 'the receiver got the event twice: the failed attempt, then once for the due retry and the redelivery');
  t.same(
    (await deliveriesOf(stack, event.id)).map((d) => [d.id, d.status, d.attempts, d.scheduled, d.leased]),
    [
      [original!.id, 'delivered', 1, false, false],
      [redelivery, 'delivered', 1, false, false],
    ],
    "the retry's schedule ended with the redelivery's 2xx, never attempted again",
  );
  t.same(
    (await attemptLog(stack, event.id)).map((l) => [l.deliveryId, l.attempt, l.statusCode, l.outcome]),
    [
      [original!.id, 1, 500, 'failed'],
      [redelivery, 1, 200, 'delivered'],
    ],
    'the log: the failed attempt and the redelivery',
  );
});

t.test('a retry in flight while the redelivery is acknowledged still goes out, and its failure schedules nothing', async (t) => {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  // The held retry must not time out while the redelivery runs.
  const stack = await startStack(t, { WEBHOOK_RETRY_SCHEDULE_MS: MINUTE_STEPS, WEBHOOK_TIMEOUT_MS: 30_000 }, 'whack', {
    log: pino({ name: 'webhooks', level: 'info' }, sink),
  });
  const secret = newWebhookSecret();
  // The event: 500, then its second request is held (the retry in flight), then 200.
  let held = '';
  const rx = await firstFails(secret, (nth, eventId) => (nth === 2 && eventId === held ? 'hang' : 200));
  t.teardown(() => rx.close());
  await configure(stack, OPERATOR, rx.url, secret);
  const routing = { operatorId: OPERATOR, environment: 'sandbox' as const };
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_race'));
  held = event.id;
  await logShows(stack, event.id, (l) => l.outcome === 'failed', 'the first attempt failed');
  t.same(await makeDue(stack, [event.id], 'evt_none'), [event.id], 'its retry made due');
  await waitFor(async () => rx.held() === 1, { what: 'the retry held by the receiver' });
  const [original] = await deliveriesOf(stack, event.id);

  const redelivery = await redeliverers["the operator's"]!(stack, event.id);
  await logShows(stack, event.id, (l) => l.deliveryId === redelivery && l.outcome === 'delivered', 'the redelivery acknowledged');
  t.match((await deliveriesOf(stack, event.id))[0], { status: 'pending', leased: true }, 'the retry is still in flight under its lease');
  rx.releaseAll(500);
  await logShows(stack, event.id, (l) => l.deliveryId === original!.id && l.attempt === 2 && l.outcome !== 'in_flight', 'the retry recorded');

  const { event: marker } = await publishEvent(stack.svc.nc, stack.prefix, routing, 'deposit.confirmed', deposit('dep_race_marker'));
  await logShows(stack, marker.id, (l) => l.outcome === 'failed', "the marker's first attempt failed");
  t.same(await makeDue(stack, [event.id], marker.id), [marker.id], 'no retry of the event is left to make due');
  await logShows(stack, marker.id, (l) => l.outcome === 'delivered', "the marker's retry delivered");
  await waitFor(async () => (await deliveriesOf(stack, event.id)).every((d) => d.status !== 'pending'), { what: "nothing of the event's pending" });

  t.equal(rx.of(event.id), 3, 'the receiver got the event three times: the failed attempt, the retry under way, the redelivery');
  t.same(
    (await deliveriesOf(stack, event.id)).map((d) => [d.id, d.status, d.attempts, d.scheduled]),
    [
      [original!.id, 'delivered', 2, false],
      [redelivery, 'delivered', 1, false],
    ],
    'the retry ended its delivery: the event was acknowledged',
  );
  t.same(
    (await attemptLog(stack, event.id)).map((l) => [l.deliveryId, l.attempt, l.statusCode, l.outcome]),
    [
      [original!.id, 1, 500, 'failed'],
      [original!.id, 2, 500, 'failed'],
      [redelivery, 1, 200, 'delivered'],
    ],
    'every attempt recorded, in the order they started',
  );
  t.same(
    lines.filter((l) => l.eventId === event.id && l.attempt === 2).map((l) => [l.msg, l.acknowledgedBy]),
    [['webhook attempt failed; another delivery of the event was acknowledged, no retry', redelivery]],
    'the worker logs the failed retry as superseded, not as retrying',
  );
});

// The records and the claim on their own (no receiver; the service's claim loop is held off).
const ok: AttemptResult = { delivered: true, statusCode: 204, error: null, durationMs: 5 };
const refused: AttemptResult = { delivered: false, statusCode: 500, error: 'HTTP 500', durationMs: 5 };
const leased = (c: { attempts: ClaimedAttempt[] }): ClaimedAttempt => {
  const [a] = c.attempts;
  if (!a || c.attempts.length !== 1) throw new Error(`expected one claimed attempt, got ${c.attempts.length}`);
  return a;
};

/** An event with two deliveries (its own and a redelivery), each with an attempt in flight; the first leased for `firstLeaseMs`. */
async function twoInFlight(sql: ReturnType<typeof ownSql>, operatorId: string, firstLeaseMs = 60_000): Promise<[ClaimedAttempt, ClaimedAttempt]> {
  const e = eventFor(operatorId);
  const stored = await ingestEvent(sql, e, { maxAttempts: 8, startNow: false, perEndpoint: 10, leaseMs: 60_000 });
  if (stored.stored !== 'waiting') throw new Error(`expected a waiting delivery, got ${stored.stored}`);
  await scheduleDelivery(sql, { eventId: e.id, operatorId, environment: 'sandbox', kind: 'redelivery', maxAttempts: 8 });
  // Oldest due first: the event's own delivery, then the redelivery (due since before the first lease ends).
  const first = leased(await claimDueAttempts(sql, { room: 1, perEndpoint: 10, leaseMs: firstLeaseMs }));
  const second = leased(await claimDueAttempts(sql, { room: 1, perEndpoint: 10, leaseMs: 60_000 }));
  return [first, second];
}

async function stateOf(stack: Stack, deliveryId: string) {
  const [d] = await stack.svc.sql.query<{ status: string; attempts: number; scheduled: boolean; acknowledged_by: string | null }>(
    'select status, attempts, next_attempt_at is not null as scheduled, acknowledged_by from webhooks.deliveries where id = ?',
    [deliveryId],
  );
  const attempts = await stack.svc.sql.query<{ outcome: string }>('select outcome from webhooks.attempts where delivery_id = ? order by attempt', [deliveryId]);
  return { ...d, outcomes: attempts.map((a) => a.outcome) };
}

t.test('records of one event finishing together go in separate statements: the 2xx ends the other delivery, whichever is first', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_ackb', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const sql = ownSql(t, stack);
  const batcher = createRecordBatcher({ sql, windowMs: 50, maxBatch: 64 });
  const retry = { status: 'pending', delayMs: 60_000 } as const;

  // The failure first: its retry is scheduled, then the 2xx's record closes it.
  const [a1, a2] = await twoInFlight(sql, 'op_ackb');
  t.same(
    await Promise.all([
      batcher.record({ claimed: a1, result: refused, next: retry }),
      batcher.record({ claimed: a2, result: ok, next: { status: 'delivered' } }),
    ]),
    [
      { kept: true, acknowledgedBy: undefined },
      { kept: true, acknowledgedBy: undefined },
    ],
  );
  t.same(
    await stateOf(stack, a1.deliveryId),
    { status: 'delivered', attempts: 1, scheduled: false, acknowledged_by: a2.deliveryId, outcomes: ['failed'] },
    'the retry scheduled by the failure was closed by the 2xx',
  );

  // The 2xx first: the other's attempt is in flight then; its record ends the delivery, whatever its result.
  const [b1, b2] = await twoInFlight(sql, 'op_ackb');
  t.same(
    await Promise.all([
      batcher.record({ claimed: b2, result: ok, next: { status: 'delivered' } }),
      batcher.record({ claimed: b1, result: refused, next: retry }),
    ]),
    [
      { kept: true, acknowledgedBy: undefined },
      { kept: true, acknowledgedBy: b2.deliveryId },
    ],
    "the failure's record says the event was acknowledged",
  );
  t.same(
    await stateOf(stack, b1.deliveryId),
    { status: 'delivered', attempts: 1, scheduled: false, acknowledged_by: b2.deliveryId, outcomes: ['failed'] },
    'no retry scheduled after the acknowledgement',
  );
  t.match(await stateOf(stack, b2.deliveryId), { status: 'delivered', acknowledged_by: null, outcomes: ['delivered'] });
});

t.test('a delivery whose attempt was in flight at the acknowledgement and whose lease lapsed is closed, never attempted again', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_ackl', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const sql = ownSql(t, stack);
  // The first delivery's worker dies during its attempt: a lease of 1 ms lapses without a record.
  const [dead, acked] = await twoInFlight(sql, 'op_ackl', 1);
  t.ok((await recordAttemptResult(sql, acked, ok, { status: 'delivered' })).kept, 'the other delivery acknowledged');
  await waitFor(async () => (await sql.query('select 1 from webhooks.deliveries where id = ? and next_attempt_at <= now()', [dead.deliveryId])).length === 1, {
    what: 'the lease lapsed',
  });

  // An attempt of another event to the endpoint hands its slot to due deliveries, but not to this one.
  const other = await ingestEvent(sql, eventFor('op_ackl'), { maxAttempts: 8, startNow: true, perEndpoint: 10, leaseMs: 60_000 });
  if (other.stored !== 'started') throw new Error(`expected a started attempt, got ${other.stored}`);
  const handed = await recordAttemptResult(sql, other.attempt, ok, { status: 'delivered' }, { perEndpoint: 10, leaseMs: 60_000 });
  t.equal(handed.next, undefined, 'no hand-over to the acknowledged delivery');
  t.same(await claimDueAttempts(sql, { room: 10, perEndpoint: 10, leaseMs: 60_000 }), { attempts: [], heldBack: false }, 'the claim starts nothing');
  t.same(
    await stateOf(stack, dead.deliveryId),
    { status: 'delivered', attempts: 1, scheduled: false, acknowledged_by: acked.deliveryId, outcomes: ['interrupted'] },
    'the claim closed it delivered, its unfinished attempt interrupted',
  );
});
