// The delivery queue lives in Postgres (JetStream is never the only copy). An attempt starts with
// a lease (a token and a lease end stored in next_attempt_at), a slot of its endpoint
// (endpoint-slots.ts) and an `in_flight` attempt row: taken by the intake's own statement for a
// first attempt (event-intake.ts), handed over by the record of the endpoint's previous attempt
// while deliveries wait (recordAttemptResult), otherwise claimed by a worker with FOR UPDATE SKIP
// LOCKED in a short transaction. It is sent outside any transaction, then recorded under the same token. A
// worker that dies leaves the lease to expire: the delivery becomes due again, its unfinished
// attempt is marked `interrupted`, and the next attempt goes out with the same event id
// (at-least-once).
//
// An event can have several deliveries (a redelivery by the operator or our team beside the
// original's retries). The record of a 2xx from any of them ends the others' schedules in the same
// statement (END_OTHER_SCHEDULES): a pending one is closed `delivered` at once; one with an attempt
// in flight is marked (`acknowledged_by`) and that attempt's record ends it `delivered`, whatever its
// result. So no attempt of the event starts after the 2xx is recorded; one already leased may still
// go out (it was under way before the acknowledgement: at-least-once, receivers dedupe on the id).
// A redelivery takes the turn of a retry of its event that is due (scheduleRedelivery): the two
// never go out together.
import { randomUUID } from 'node:crypto';
import { onlyRow, type Sql, type SqlRunner } from '@bo/service-kit';
import { newId, type Environment } from '@bo/contracts';
import type { AttemptResult, NextStep } from '../domain/retry-schedule.ts';
import { LEASE_END, SLOT_IS_FREE } from './endpoint-slots.ts';

const S = 'webhooks';

/** Why a delivery exists: an event's own, a redelivery asked for, or a test webhook. */
export type DeliveryKind = 'event' | 'redelivery' | 'test';
const INTERRUPTED = 'no result recorded: the worker stopped during the attempt';

export interface EventToStore {
  id: string;
  type: string;
  environment: Environment;
  operatorId: string;
  brandId: string;
  body: Buffer;
  createdAt: string;
  source: 'stream' | 'test';
}

/** Inserts the event unless already stored (dedupe on its id); true when it is new. */
export async function insertEvent(tx: SqlRunner, e: EventToStore): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `insert into ${S}.events (id, type, environment, operator_id, brand_id, body, created_at, source)
     values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing returning id`,
    [e.id, e.type, e.environment, e.operatorId, e.brandId, e.body, e.createdAt, e.source],
  );
  return rows.length === 1;
}

/** A delivery due now. */
export async function scheduleDelivery(
  tx: SqlRunner,
  d: {
    eventId: string;
    operatorId: string;
    environment: Environment;
    kind: DeliveryKind;
    maxAttempts: number;
  },
): Promise<string> {
  const id = newId('delivery');
  await tx.query(
    `insert into ${S}.deliveries (id, event_id, operator_id, environment, kind, status, max_attempts, next_attempt_at)
     values (?, ?, ?, ?, ?, 'pending', ?, now())`,
    [id, d.eventId, d.operatorId, d.environment, d.kind, d.maxAttempts],
  );
  return id;
}

/**
 * A redelivery: a delivery due now, which takes the turn of a retry of the same event coming due
 * before its first attempt can have been recorded (due within `leaseMs`: one attempt's lease), or
 * of one whose lease lapsed. That retry is moved to the end of that window; by then this delivery's
 * attempt is recorded: a 2xx ends the retry's schedule (END_OTHER_SCHEDULES), a failure leaves it to
 * go out then. So a redelivery asked while a retry is due sends the event once, not twice at the
 * same moment. The update waits for a claim or hand-over holding the retry's row: if that leased it,
 * the retry is in flight and is left alone (docs/webhooks.md, "Acknowledgement ends the event's
 * schedules"); a claim that comes after finds the retry no longer due.
 */
export async function scheduleRedelivery(
  tx: SqlRunner,
  d: { eventId: string; operatorId: string; environment: Environment; maxAttempts: number; leaseMs: number },
): Promise<string> {
  await tx.query(
    `update ${S}.deliveries set next_attempt_at = now() + (?::double precision * interval '1 millisecond'), updated_at = now()
      where event_id = ? and operator_id = ? and environment = ? and status = 'pending'
        and next_attempt_at < now() + (?::double precision * interval '1 millisecond')
        and (lease_token is null or next_attempt_at <= now())`,
    [d.leaseMs, d.eventId, d.operatorId, d.environment, d.leaseMs],
  );
  return scheduleDelivery(tx, { ...d, kind: 'redelivery' });
}

/** One attempt a worker holds the lease for. */
export interface ClaimedAttempt {
  deliveryId: string;
  eventId: string;
  operatorId: string;
  environment: Environment;
  attempt: number;
  maxAttempts: number;
  attemptId: string;
  leaseToken: string;
  /** The endpoint slot the attempt holds (endpoint-slots.ts); null for a `webhooks.test` attempt, which takes none. */
  slot: number | null;
  url: string;
  secretSealed: string;
  /** The secret before a rotation, while its overlap runs: deliveries are signed with both. */
  previousSecretSealed: string | null;
  body: Buffer;
}

interface DueRow {
  operator_id: string;
  environment: Environment;
  /** The endpoint has a URL and a secret. */
  usable: boolean;
  /** Free slots of the endpoint as this statement's snapshot saw them (taking one re-checks). */
  free: number;
  /** Null when no due delivery of the endpoint was locked: it is full, or another replica holds them. */
  id: string | null;
  event_id: string;
  attempts: number;
  max_attempts: number;
  /** Another delivery's 2xx ended this one's schedule while its attempt was in flight; the lease has lapsed since. */
  acknowledged_by: string | null;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
  body: Buffer;
}

export interface ClaimResult {
  attempts: ClaimedAttempt[];
  /** A due delivery was left for want of room (this replica's pool or its endpoint's slots): worth another pass when room frees. */
  heldBack: boolean;
}

/**
 * The claim loop's path (retries, deliveries the intake could not start, lapsed leases): claims
 * up to `room` due deliveries, each taking a free slot of its endpoint, oldest endpoints first and
 * round-robin among them, so one slow endpoint cannot take the whole pool. Deliveries that cannot
 * be attempted are closed here: `delivered` when the event was acknowledged by another delivery
 * while this one's attempt was in flight (its lease lapsed without a record), `no_endpoint` when the
 * operator has no URL or secret for the environment (a redelivery, or one removed after the
 * intake), `failed` when an interrupted attempt used the last one.
 */
export async function claimDueAttempts(sql: Sql, opts: { room: number; perEndpoint: number; leaseMs: number }): Promise<ClaimResult> {
  if (opts.room <= 0) return { attempts: [], heldBack: true };
  return sql.transaction(async (tx) => {
    const rows = await tx.query<DueRow>(
      `with due as (
         select d.operator_id, d.environment, min(d.next_attempt_at) as first_due
         from ${S}.deliveries d
         where d.status = 'pending' and d.next_attempt_at <= now()
         group by d.operator_id, d.environment
       ), due_endpoints as (
         select due.operator_id, due.environment, due.first_due,
                coalesce(ep.url is not null and ep.secret_sealed is not null, false) as usable,
                (select count(*) from ${S}.endpoint_slots s
                 where s.operator_id = due.operator_id and s.environment = due.environment and s.slot <= ? and ${SLOT_IS_FREE})::int as free
         from due left join ${S}.endpoints ep on ep.operator_id = due.operator_id and ep.environment = due.environment
       ), picked as (
         select * from due_endpoints order by usable and free = 0, first_due limit ?
       )
       select p.operator_id, p.environment, p.usable, p.free, x.id, x.event_id, x.attempts, x.max_attempts, x.acknowledged_by,
              ep.url, ep.secret_sealed, ev.body,
              case when ep.previous_secret_expires_at > now() then ep.previous_secret_sealed end as previous_secret_sealed
       from picked p
       left join lateral (
         select x.id, x.event_id, x.attempts, x.max_attempts, x.acknowledged_by, x.next_attempt_at from ${S}.deliveries x
         where x.operator_id = p.operator_id and x.environment = p.environment
           and x.status = 'pending' and x.next_attempt_at <= now()
         order by x.next_attempt_at
         limit case when p.usable then least(p.free, ?) else ? end
         for update skip locked
       ) x on true
       left join ${S}.events ev on ev.id = x.event_id
       left join ${S}.endpoints ep on ep.operator_id = p.operator_id and ep.environment = p.environment
       order by p.usable and p.free = 0, p.first_due, x.next_attempt_at`,
      [opts.perEndpoint, opts.room, opts.room, opts.room],
    );

    // More endpoints may be due than were looked at; a full endpoint's deliveries wait for a slot.
    let heldBack = new Set(rows.map((r) => `${r.operator_id}\u0000${r.environment}`)).size >= opts.room;
    const toClose: DueRow[] = [];
    const byEndpoint = new Map<string, DueRow[]>();
    for (const r of rows) {
      if (r.usable && r.free === 0) heldBack = true;
      if (r.id === null) continue;
      if (r.acknowledged_by !== null || r.attempts >= r.max_attempts || !r.usable) {
        toClose.push(r);
        continue;
      }
      const key = `${r.operator_id}\u0000${r.environment}`;
      byEndpoint.set(key, [...(byEndpoint.get(key) ?? []), r]);
    }
    // Round-robin across endpoints within this replica's room.
    const chosen: Array<DueRow & { n: number }> = [];
    for (let round = 0; chosen.length < opts.room; round++) {
      let took = false;
      for (const group of byEndpoint.values()) {
        if (round < group.length && chosen.length < opts.room) {
          chosen.push({ ...group[round]!, n: round + 1 });
          took = true;
        }
      }
      if (!took) break;
    }
    if (chosen.length < [...byEndpoint.values()].reduce((n, g) => n + g.length, 0)) heldBack = true;

    // Attempts left in flight by a worker whose lease ran out (only re-claimed deliveries have any);
    // those of the deliveries leased below are marked by the lease statement.
    const reclaimed = toClose.filter((r) => r.attempts > 0).map((r) => r.id);
    if (reclaimed.length > 0) {
      await tx.query(
        `update ${S}.attempts set outcome = 'interrupted', error = ?, finished_at = now()
         where outcome = 'in_flight' and delivery_id = any(?::text[])`,
        [INTERRUPTED, reclaimed],
      );
    }
    for (const r of toClose) {
      if (r.acknowledged_by !== null) await closeDelivery(tx, r.id!, 'delivered', null, INTERRUPTED);
      else if (r.attempts >= r.max_attempts) await closeDelivery(tx, r.id!, 'failed', null, INTERRUPTED);
      else await closeDelivery(tx, r.id!, 'no_endpoint', null, r.url ? 'no webhook secret configured' : 'no webhook URL configured');
    }
    if (chosen.length === 0) return { attempts: [], heldBack };

    // One statement for the batch: the n-th chosen delivery of an endpoint gets the n-th free slot
    // it can lock (skip locked: an intake may take one meanwhile; a delivery left without one stays
    // due), then the slots, the leases, the attempt a lapsed lease left in flight (`interrupted`)
    // and the new in-flight attempt rows.
    const leases = chosen.map((r) => ({ ...r, leaseToken: randomUUID() }));
    // One array per column: one statement text whatever the batch's size (event-intake.ts).
    const column = (f: (r: (typeof leases)[number]) => unknown) => leases.map(f);
    const started = await tx.query<{ attempt_id: string; delivery_id: string; attempt: number; slot: number }>(
      `with want(id, token, url, operator_id, environment, n) as (
         select * from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[])
       ),
       need as (select operator_id, environment, count(*)::int as k from want group by operator_id, environment),
       got as (
         select need.operator_id, need.environment, f.slot,
                row_number() over (partition by need.operator_id, need.environment order by f.slot)::int as n
         from need cross join lateral (
           select s.slot from ${S}.endpoint_slots s
           where s.operator_id = need.operator_id and s.environment = need.environment and s.slot <= ? and ${SLOT_IS_FREE}
           order by s.slot limit need.k
           for update skip locked
         ) f
       ),
       pair as (
         select w.id, w.token, w.url, w.operator_id, w.environment, g.slot from want w
         join got g on g.operator_id = w.operator_id and g.environment = w.environment and g.n = w.n
       ),
       i as (
         update ${S}.attempts t set outcome = 'interrupted', error = ?, finished_at = now()
         from pair p where t.delivery_id = p.id and t.outcome = 'in_flight'
       ),
       sl as (
         update ${S}.endpoint_slots s set delivery_id = p.id, lease_token = p.token, lease_until = ${LEASE_END}
         from pair p where s.operator_id = p.operator_id and s.environment = p.environment and s.slot = p.slot
       ),
       d as (
         update ${S}.deliveries x set attempts = x.attempts + 1, lease_token = p.token, next_attempt_at = ${LEASE_END}, updated_at = now()
         from pair p where x.id = p.id
         returning x.id, x.event_id, x.operator_id, x.attempts, p.url, p.slot
       ),
       a as (
         insert into ${S}.attempts (delivery_id, event_id, operator_id, attempt, url, outcome)
         select d.id, d.event_id, d.operator_id, d.attempts, d.url, 'in_flight' from d
         returning id, delivery_id, attempt
       )
       select a.id as attempt_id, a.delivery_id, a.attempt, d.slot from a join d on d.id = a.delivery_id`,
      [
        column((r) => r.id),
        column((r) => r.leaseToken),
        column((r) => r.url),
        column((r) => r.operator_id),
        column((r) => r.environment),
        column((r) => r.n),
        opts.perEndpoint,
        INTERRUPTED,
        opts.leaseMs,
        opts.leaseMs,
      ],
    );
    if (started.length < leases.length) heldBack = true;
    const byDelivery = new Map(started.map((x) => [x.delivery_id, x]));

    const attempts: ClaimedAttempt[] = [];
    for (const r of leases) {
      const a = byDelivery.get(r.id!);
      if (!a) continue;
      attempts.push({
        deliveryId: r.id!,
        eventId: r.event_id,
        operatorId: r.operator_id,
        environment: r.environment,
        attempt: Number(a.attempt),
        maxAttempts: r.max_attempts,
        attemptId: String(a.attempt_id),
        leaseToken: r.leaseToken,
        slot: Number(a.slot),
        url: r.url!,
        secretSealed: r.secret_sealed!,
        previousSecretSealed: r.previous_secret_sealed,
        body: r.body,
      });
    }
    return { attempts, heldBack };
  });
}

/** The statement was Postgres' deadlock victim (40P01): nothing of it was written. */
export function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '40P01';
}

async function closeDelivery(
  tx: SqlRunner,
  id: string,
  status: 'delivered' | 'failed' | 'no_endpoint',
  statusCode: number | null,
  error: string,
): Promise<void> {
  await tx.query(
    `update ${S}.deliveries set status = ?, next_attempt_at = null, lease_token = null, last_status_code = ?, last_error = ?,
       completed_at = now(), updated_at = now() where id = ?`,
    [status, statusCode, error, id],
  );
}

/**
 * The single attempt of a `webhooks.test` delivery, claimed at once by the caller (not by the
 * worker): the event, its delivery (max 1 attempt) and the in-flight attempt in one transaction.
 */
export async function startTestAttempt(
  sql: Sql,
  event: EventToStore,
  endpoint: { url: string; secretSealed: string; previousSecretSealed: string | null },
  leaseMs: number,
): Promise<ClaimedAttempt> {
  return sql.transaction(async (tx) => {
    await insertEvent(tx, event);
    const deliveryId = newId('delivery');
    const leaseToken = randomUUID();
    await tx.query(
      `insert into ${S}.deliveries (id, event_id, operator_id, environment, kind, status, attempts, max_attempts, next_attempt_at, lease_token)
       values (?, ?, ?, ?, 'test', 'pending', 1, 1, now() + (?::double precision * interval '1 millisecond'), ?)`,
      [deliveryId, event.id, event.operatorId, event.environment, leaseMs, leaseToken],
    );
    const a = onlyRow(
      await tx.query<{ id: string }>(
        `insert into ${S}.attempts (delivery_id, event_id, operator_id, attempt, url, outcome)
       values (?, ?, ?, 1, ?, 'in_flight') returning id`,
        [deliveryId, event.id, event.operatorId, endpoint.url],
      ),
    );
    return {
      deliveryId,
      eventId: event.id,
      operatorId: event.operatorId,
      environment: event.environment,
      attempt: 1,
      maxAttempts: 1,
      attemptId: String(a.id),
      leaseToken,
      slot: null,
      url: endpoint.url,
      secretSealed: endpoint.secretSealed,
      previousSecretSealed: endpoint.previousSecretSealed,
      body: event.body,
    };
  });
}

/**
 * The CTE that ends the schedules of an acknowledged event's other deliveries, placed after a CTE
 * `d` that recorded attempts and returns `id, event_id, operator_id, environment, delivered` (the
 * attempt was a 2xx). For each 2xx, the event's other pending deliveries to the same endpoint: one
 * with no attempt in flight is closed `delivered` at once; one with an attempt in flight (leased,
 * even if the lease lapsed) keeps its lease and is marked, and its record ends it `delivered`
 * whatever the result (recordAttemptResult), or the claim does once its lease lapses.
 * The update waits for a row another statement holds (a claim leasing it, its own record
 * rescheduling it) and then applies to the row as that statement left it: a lease taken or a retry
 * scheduled just before the 2xx is recorded is still caught. `d`'s own rows are never touched here
 * (a row is updated once per statement), hence one record per event in a statement.
 */
const END_OTHER_SCHEDULES = `update ${S}.deliveries o set acknowledged_by = d.id,
         status = case when o.lease_token is null then 'delivered' else 'pending' end,
         next_attempt_at = case when o.lease_token is null then null else o.next_attempt_at end,
         completed_at = case when o.lease_token is null then now() end, updated_at = now()
       from d
       where d.delivered and o.event_id = d.event_id and o.operator_id = d.operator_id and o.environment = d.environment
         and o.status = 'pending' and o.id <> d.id`;

export interface RecordOutcome {
  /** False when the lease was lost meanwhile (another worker took the delivery over); then nothing was written. */
  kept: boolean;
  /**
   * Set when another delivery's 2xx had ended this delivery's schedule while the attempt was in
   * flight (that delivery's id): the delivery ended `delivered` whatever this attempt's result.
   */
  acknowledgedBy?: string;
  /** The attempt the freed slot was handed to: the endpoint's oldest due delivery, leased in the same statement. */
  next?: ClaimedAttempt;
}

interface RecordRow {
  n: number;
  acknowledged_by: string | null;
  next_id: string | null;
  next_event_id: string;
  next_attempt: number;
  next_max_attempts: number;
  next_attempt_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  body: Buffer;
}

/**
 * Records how an attempt ended and what comes next, in one statement: the delivery under our
 * lease, its attempt only if the lease was still ours, and the endpoint slot if it still holds
 * our lease (a lapsed one may have been taken since). With `handOver`, a slot freed while other
 * deliveries of the endpoint are due is not freed but handed to the oldest of them (lease, attempt
 * row, a lapsed attempt marked interrupted), which this worker then runs in the same place of its
 * pool: a backlog drains at one statement per attempt, oldest first, without claim transactions,
 * and new events cannot starve it (while it lasts, no slot of the endpoint comes free for them).
 * A 2xx ends the schedules of the event's other deliveries (END_OTHER_SCHEDULES); a delivery whose
 * schedule another's 2xx ended ends `delivered` here, whatever the result.
 */
export async function recordAttemptResult(
  sql: SqlRunner,
  c: ClaimedAttempt,
  result: AttemptResult,
  next: NextStep,
  handOver?: { perEndpoint: number; leaseMs: number },
): Promise<RecordOutcome> {
  const leaseToken = randomUUID();
  const mayHandOver = handOver !== undefined && c.slot !== null && c.slot <= handOver.perEndpoint;
  const row = onlyRow(
    await sql.query<RecordRow>(
      `with d as (update ${S}.deliveries x set status = case when x.acknowledged_by is null then ?::text else 'delivered' end,
         next_attempt_at = case when x.acknowledged_by is null and ? = 'pending' then now() + (?::double precision * interval '1 millisecond') end,
         lease_token = null, last_status_code = ?, last_error = ?,
         completed_at = case when x.acknowledged_by is null and ? = 'pending' then null else now() end, updated_at = now()
       where x.id = ? and x.lease_token = ?
       returning x.id, x.event_id, x.operator_id, x.environment, x.acknowledged_by, ?::boolean as delivered),
     ack as (${END_OTHER_SCHEDULES}),
     a as (update ${S}.attempts set outcome = ?, status_code = ?, error = ?, duration_ms = ?, finished_at = now()
       where id = ? and outcome = 'in_flight' and exists (select 1 from d) returning 1),
     ep as (
       select url, secret_sealed, case when previous_secret_expires_at > now() then previous_secret_sealed end as previous_secret_sealed
       from ${S}.endpoints where ?::boolean and operator_id = ? and environment = ? and url is not null and secret_sealed is not null
     ),
     waiting as (
       select x.id from ${S}.deliveries x
       where exists (select 1 from ep) and x.operator_id = ? and x.environment = ? and x.status = 'pending'
         and x.next_attempt_at <= now() and x.attempts < x.max_attempts and x.id <> ?
         and x.event_id <> ? and x.acknowledged_by is null
       order by x.next_attempt_at limit 1
       for update skip locked
     ),
     s as (
       update ${S}.endpoint_slots sl set delivery_id = w.id,
         lease_token = case when w.id is null then null else ?::text end,
         lease_until = case when w.id is null then null else ${LEASE_END} end
       from (select (select id from waiting) as id) w
       where sl.operator_id = ? and sl.environment = ? and sl.slot = ? and sl.lease_token = ?
       returning w.id
     ),
     nd as (
       update ${S}.deliveries x set attempts = x.attempts + 1, lease_token = ?, next_attempt_at = ${LEASE_END}, updated_at = now()
       from s where x.id = s.id
       returning x.id, x.event_id, x.operator_id, x.attempts, x.max_attempts
     ),
     ni as (
       update ${S}.attempts t set outcome = 'interrupted', error = ?, finished_at = now()
       from s where t.delivery_id = s.id and t.outcome = 'in_flight'
     ),
     na as (
       insert into ${S}.attempts (delivery_id, event_id, operator_id, attempt, url, outcome)
       select nd.id, nd.event_id, nd.operator_id, nd.attempts, ep.url, 'in_flight' from nd cross join ep
       returning id
     )
     select (select count(*) from d)::int as n, (select acknowledged_by from d) as acknowledged_by, nd.id as next_id, nd.event_id as next_event_id, nd.attempts as next_attempt,
            nd.max_attempts as next_max_attempts, na.id as next_attempt_id, ep.url, ep.secret_sealed, ep.previous_secret_sealed, ev.body
     from (select 1) one
     left join nd on true left join na on true left join ep on nd.id is not null
     left join ${S}.events ev on ev.id = nd.event_id`,
      [
        next.status,
        next.status,
        next.status === 'pending' ? next.delayMs : 0,
        result.statusCode,
        result.error,
        next.status,
        c.deliveryId,
        c.leaseToken,
        result.delivered,
        result.delivered ? 'delivered' : 'failed',
        result.statusCode,
        result.error,
        result.durationMs,
        c.attemptId,
        mayHandOver,
        c.operatorId,
        c.environment,
        c.operatorId,
        c.environment,
        c.deliveryId,
        c.eventId,
        leaseToken,
        handOver?.leaseMs ?? 0,
        c.operatorId,
        c.environment,
        c.slot,
        c.leaseToken,
        leaseToken,
        handOver?.leaseMs ?? 0,
        INTERRUPTED,
      ],
    ),
  );
  const kept = row.n === 1;
  const acknowledgedBy = row.acknowledged_by ?? undefined;
  if (row.next_id === null) return { kept, acknowledgedBy };
  return {
    kept,
    acknowledgedBy,
    next: {
      deliveryId: row.next_id,
      eventId: row.next_event_id,
      operatorId: c.operatorId,
      environment: c.environment,
      attempt: Number(row.next_attempt),
      maxAttempts: row.next_max_attempts,
      attemptId: String(row.next_attempt_id),
      leaseToken,
      slot: c.slot,
      url: row.url,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      body: row.body,
    },
  };
}

/** A finished attempt, as `recordAttemptResults` takes it. */
export interface FinishedAttempt {
  claimed: ClaimedAttempt;
  result: AttemptResult;
  next: NextStep;
}

/**
 * Records several finished attempts in one statement, each as `recordAttemptResult` would without
 * a hand-over: the delivery and its attempt only under the attempt's lease, and its endpoint slot
 * freed if it still holds that lease; a 2xx ends the schedules of its event's other deliveries. The
 * worker batches the records of attempts that finish while no delivery is known to wait for a slot
 * (delivery-worker.ts), never two of one event (a 2xx could not end the schedule of a delivery the
 * same statement records). Returns the deliveries whose lease was still ours, each with the delivery
 * whose 2xx had ended its schedule, if any; for the others nothing of theirs was written but their slot.
 */
export async function recordAttemptResults(sql: SqlRunner, done: readonly FinishedAttempt[]): Promise<Map<string, string | null>> {
  if (new Set(done.map((d) => d.claimed.eventId)).size < done.length) throw new Error('two attempt records of one event in one statement');
  const column = <T>(f: (d: FinishedAttempt) => T): T[] => done.map(f);
  const rows = await sql.query<{ id: string; acknowledged_by: string | null }>(
    `with r as (
       select * from unnest(?::text[], ?::text[], ?::text[], ?::double precision[], ?::int[], ?::text[], ?::text[], ?::int[], ?::bigint[], ?::text[], ?::text[], ?::int[])
         as r(delivery_id, lease_token, status, delay_ms, status_code, error, outcome, duration_ms, attempt_id, operator_id, environment, slot)
     ),
     d as (
       update ${S}.deliveries x set status = case when x.acknowledged_by is null then r.status else 'delivered' end,
         next_attempt_at = case when x.acknowledged_by is null and r.status = 'pending' then now() + (r.delay_ms * interval '1 millisecond') end,
         lease_token = null, last_status_code = r.status_code, last_error = r.error,
         completed_at = case when x.acknowledged_by is null and r.status = 'pending' then null else now() end, updated_at = now()
       from r where x.id = r.delivery_id and x.lease_token = r.lease_token
       returning x.id, x.event_id, x.operator_id, x.environment, x.acknowledged_by, r.outcome = 'delivered' as delivered
     ),
     ack as (${END_OTHER_SCHEDULES}),
     a as (
       update ${S}.attempts t set outcome = r.outcome, status_code = r.status_code, error = r.error, duration_ms = r.duration_ms, finished_at = now()
       from r join d on d.id = r.delivery_id
       where t.id = r.attempt_id and t.outcome = 'in_flight'
     ),
     s as (
       update ${S}.endpoint_slots sl set delivery_id = null, lease_token = null, lease_until = null
       from r where sl.operator_id = r.operator_id and sl.environment = r.environment and sl.slot = r.slot and sl.lease_token = r.lease_token
     )
     select id, acknowledged_by from d`,
    [
      column((d) => d.claimed.deliveryId),
      column((d) => d.claimed.leaseToken),
      column((d) => d.next.status),
      column((d) => (d.next.status === 'pending' ? d.next.delayMs : 0)),
      column((d) => d.result.statusCode),
      column((d) => d.result.error),
      column((d) => (d.result.delivered ? 'delivered' : 'failed')),
      column((d) => d.result.durationMs),
      column((d) => d.claimed.attemptId),
      column((d) => d.claimed.operatorId),
      column((d) => d.claimed.environment),
      column((d) => d.claimed.slot),
    ],
  );
  return new Map(rows.map((r) => [r.id, r.acknowledged_by]));
}

/** The pending deliveries as the metrics read them: all, those due, and how late the oldest due one is (seconds). */
export interface QueueState {
  pending: string;
  due: string;
  lag: number | null;
}

export async function queueState(sql: SqlRunner): Promise<QueueState | undefined> {
  const [row] = await sql.query<QueueState>(
    `select count(*) as pending, count(*) filter (where next_attempt_at <= now()) as due,
            extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now()))::float as lag
       from webhooks.deliveries where status = 'pending'`,
  );
  return row;
}
