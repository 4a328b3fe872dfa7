// The delivery queue lives in Postgres (JetStream is never the only copy). A worker claims due
// deliveries with FOR UPDATE SKIP LOCKED in a short transaction, giving each a lease (a token and
// a lease end stored in next_attempt_at) and an `in_flight` attempt row; it sends outside any
// transaction, then records the result under the same token. A worker that dies leaves the lease
// to expire: the delivery becomes due again, its unfinished attempt is marked `interrupted`, and
// the next attempt goes out with the same event id (at-least-once).
import { randomUUID } from 'node:crypto';
import { onlyRow, type Sql, type SqlRunner } from '@bo/service-kit';
import { newId, type Environment } from '@bo/contracts';
import type { AttemptResult, NextStep } from '../domain/retry-schedule.ts';
import type { DeliveryKind } from './entities.ts';

const S = 'webhooks';
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

/**
 * The intake of one event in ONE statement (atomic without a transaction): the event, deduped on
 * its id, and its delivery due now. True when the event is new.
 */
export async function storeEventWithDelivery(sql: SqlRunner, e: EventToStore, maxAttempts: number): Promise<boolean> {
  const rows = await sql.query<{ id: string }>(
    `with ev as (insert into ${S}.events (id, type, environment, operator_id, brand_id, body, created_at, source)
                 values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing returning id, operator_id, environment)
     insert into ${S}.deliveries (id, event_id, operator_id, environment, kind, status, max_attempts, next_attempt_at)
     select ?, ev.id, ev.operator_id, ev.environment, 'event', 'pending', ?, now() from ev returning id`,
    [e.id, e.type, e.environment, e.operatorId, e.brandId, e.body, e.createdAt, e.source, newId('delivery'), maxAttempts],
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
  url: string;
  secretSealed: string;
  /** The secret before a rotation, while its overlap runs: deliveries are signed with both. */
  previousSecretSealed: string | null;
  body: Buffer;
}

interface DueRow {
  id: string;
  event_id: string;
  operator_id: string;
  environment: Environment;
  attempts: number;
  max_attempts: number;
  busy: number;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
  body: Buffer;
}

/**
 * Claims up to `slots` due deliveries, at most `perEndpoint` in flight per operator+environment
 * (counting leases held by every replica), oldest endpoints first, so one slow endpoint cannot
 * take the whole pool. Deliveries that cannot be attempted are closed here: `no_endpoint` when
 * the operator has no URL or secret for the environment, `failed` when an interrupted attempt used
 * the last one.
 */
export async function claimDueAttempts(sql: Sql, opts: { slots: number; perEndpoint: number; leaseMs: number }): Promise<ClaimedAttempt[]> {
  if (opts.slots <= 0) return [];
  return sql.transaction(async (tx) => {
    const rows = await tx.query<DueRow>(
      `with busy as (
         select operator_id, environment, count(*)::int as n from ${S}.deliveries
         where status = 'pending' and lease_token is not null and next_attempt_at > now()
         group by operator_id, environment
       ), due as (
         select d.operator_id, d.environment, min(d.next_attempt_at) as first_due, coalesce(max(b.n), 0) as busy
         from ${S}.deliveries d
         left join busy b on b.operator_id = d.operator_id and b.environment = d.environment
         where d.status = 'pending' and d.next_attempt_at <= now()
         group by d.operator_id, d.environment
         having coalesce(max(b.n), 0) < ?
         order by first_due
         limit ?
       )
       select x.id, x.event_id, x.operator_id, x.environment, x.attempts, x.max_attempts, due.busy,
              ep.url, ep.secret_sealed, ev.body,
              case when ep.previous_secret_expires_at > now() then ep.previous_secret_sealed end as previous_secret_sealed
       from due cross join lateral (
         select id, event_id, operator_id, environment, attempts, max_attempts, next_attempt_at from ${S}.deliveries x
         where x.operator_id = due.operator_id and x.environment = due.environment
           and x.status = 'pending' and x.next_attempt_at <= now()
         order by x.next_attempt_at
         limit ?
         for update skip locked
       ) x
       join ${S}.events ev on ev.id = x.event_id
       left join ${S}.endpoints ep on ep.operator_id = x.operator_id and ep.environment = x.environment
       order by due.first_due, x.next_attempt_at`,
      [opts.perEndpoint, opts.slots, opts.perEndpoint],
    );

    // Round-robin across endpoints within the free slots and each endpoint's remaining room.
    const byEndpoint = new Map<string, DueRow[]>();
    for (const r of rows) {
      const key = `${r.operator_id}\u0000${r.environment}`;
      const group = byEndpoint.get(key) ?? [];
      if (group.length < opts.perEndpoint - r.busy) group.push(r);
      byEndpoint.set(key, group);
    }
    const chosen: DueRow[] = [];
    for (let round = 0; chosen.length < opts.slots; round++) {
      let took = false;
      for (const group of byEndpoint.values()) {
        if (round < group.length && chosen.length < opts.slots) {
          chosen.push(group[round]!);
          took = true;
        }
      }
      if (!took) break;
    }
    if (chosen.length === 0) return [];

    // Attempts left in flight by a worker whose lease ran out (only re-claimed deliveries have any).
    const reclaimed = chosen.filter((r) => r.attempts > 0).map((r) => r.id);
    if (reclaimed.length > 0) {
      await tx.query(
        `update ${S}.attempts set outcome = 'interrupted', error = ?, finished_at = now()
         where outcome = 'in_flight' and delivery_id = any(?::text[])`,
        [INTERRUPTED, reclaimed],
      );
    }

    const leased: Array<DueRow & { leaseToken: string }> = [];
    for (const r of chosen) {
      if (r.attempts >= r.max_attempts) {
        await closeDelivery(tx, r.id, 'failed', null, INTERRUPTED);
        continue;
      }
      if (!r.url || !r.secret_sealed) {
        await closeDelivery(tx, r.id, 'no_endpoint', null, r.url ? 'no webhook secret configured' : 'no webhook URL configured');
        continue;
      }
      leased.push({ ...r, leaseToken: randomUUID() });
    }
    if (leased.length === 0) return [];
    // Every lease and its in-flight attempt row: one statement for the whole batch.
    const rowsOf = leased.map(() => '(?::text, ?::text, ?::text)').join(', ');
    const started = await tx.query<{ attempt_id: string; delivery_id: string; attempts: number }>(
      `with v(id, token, url) as (values ${rowsOf}),
       d as (update ${S}.deliveries x set attempts = x.attempts + 1, lease_token = v.token,
               next_attempt_at = now() + (?::double precision * interval '1 millisecond'), updated_at = now()
             from v where x.id = v.id returning x.id, x.event_id, x.operator_id, x.attempts, v.url),
       a as (insert into ${S}.attempts (delivery_id, event_id, operator_id, attempt, url, outcome)
             select d.id, d.event_id, d.operator_id, d.attempts, d.url, 'in_flight' from d returning id, delivery_id, attempt)
       select a.id as attempt_id, a.delivery_id, a.attempt as attempts from a`,
      [...leased.flatMap((r) => [r.id, r.leaseToken, r.url]), opts.leaseMs],
    );
    const byDelivery = new Map(started.map((x) => [x.delivery_id, x]));

    const claimed: ClaimedAttempt[] = [];
    for (const r of leased) {
      const a = byDelivery.get(r.id)!;
      claimed.push({
        deliveryId: r.id,
        eventId: r.event_id,
        operatorId: r.operator_id,
        environment: r.environment,
        attempt: Number(a.attempts),
        maxAttempts: r.max_attempts,
        attemptId: String(a.attempt_id),
        leaseToken: r.leaseToken,
        url: r.url!,
        secretSealed: r.secret_sealed!,
        previousSecretSealed: r.previous_secret_sealed,
        body: r.body,
      });
    }
    return claimed;
  });
}

async function closeDelivery(tx: SqlRunner, id: string, status: 'failed' | 'no_endpoint', statusCode: number | null, error: string): Promise<void> {
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
      url: endpoint.url,
      secretSealed: endpoint.secretSealed,
      previousSecretSealed: endpoint.previousSecretSealed,
      body: event.body,
    };
  });
}

/**
 * Records how an attempt ended and what comes next. False when the lease was lost meanwhile
 * (another worker took the delivery over); then nothing is written.
 */
export async function recordAttemptResult(sql: SqlRunner, c: ClaimedAttempt, result: AttemptResult, next: NextStep): Promise<boolean> {
  // One statement: the delivery under our lease, and its attempt only if the lease was still ours.
  const { n } = onlyRow(
    await sql.query<{ n: number }>(
      `with d as (update ${S}.deliveries set status = ?,
         next_attempt_at = case when ? = 'pending' then now() + (?::double precision * interval '1 millisecond') else null end,
         lease_token = null, last_status_code = ?, last_error = ?,
         completed_at = case when ? = 'pending' then null else now() end, updated_at = now()
       where id = ? and lease_token = ? returning id),
     a as (update ${S}.attempts set outcome = ?, status_code = ?, error = ?, duration_ms = ?, finished_at = now()
       where id = ? and outcome = 'in_flight' and exists (select 1 from d) returning 1)
     select count(*)::int as n from d`,
      [
        next.status,
        next.status,
        next.status === 'pending' ? next.delayMs : 0,
        result.statusCode,
        result.error,
        next.status,
        c.deliveryId,
        c.leaseToken,
        result.delivered ? 'delivered' : 'failed',
        result.statusCode,
        result.error,
        result.durationMs,
        c.attemptId,
      ],
    ),
  );
  return n === 1;
}
