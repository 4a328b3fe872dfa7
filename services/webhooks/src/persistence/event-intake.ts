// The intake of one event in ONE statement (atomic without a transaction): the event, deduped on
// its id, and its delivery; and, in the usual case, the delivery's first attempt already leased to
// this replica (a free slot of its endpoint, the lease, the `in_flight` attempt row), so the
// consumer starts the attempt right after the commit and no claim transaction is needed. The
// delivery is left `pending`, due now, when this replica's pool or the endpoint's slots are full:
// the next record of the endpoint hands its slot to the oldest such delivery (delivery-queue.ts),
// or the claim loop takes it. It ends `no_endpoint` at once when the endpoint has no URL or secret.
import { randomUUID } from 'node:crypto';
import { newId } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import type { ClaimedAttempt, EventToStore } from './delivery-queue.ts';
import { LEASE_END, SLOT_IS_FREE } from './endpoint-slots.ts';

const S = 'webhooks';

export interface IntakeOptions {
  maxAttempts: number;
  /** Take the first attempt when a slot is free (this replica has a place for it in its pool). */
  startNow: boolean;
  perEndpoint: number;
  leaseMs: number;
}

/** `duplicate`: stored before; `waiting`: stored, due for the claim loop; `closed`: no endpoint to deliver to. */
export type IntakeOutcome = { stored: 'duplicate' | 'waiting' | 'closed' } | { stored: 'started'; attempt: ClaimedAttempt };

interface Row {
  status: 'pending' | 'no_endpoint';
  slot: number | null;
  attempt_id: string | null;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
}

export async function ingestEvent(sql: SqlRunner, e: EventToStore, o: IntakeOptions): Promise<IntakeOutcome> {
  const deliveryId = newId('delivery');
  const leaseToken = randomUUID();
  const [row] = await sql.query<Row>(
    `with ev as (
       insert into ${S}.events (id, type, environment, operator_id, brand_id, body, created_at, source)
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing
       returning id, operator_id, environment
     ), ep as (
       select e.url, e.secret_sealed, e.url is not null and e.secret_sealed is not null as usable,
              case when e.previous_secret_expires_at > now() then e.previous_secret_sealed end as previous_secret_sealed
       from ev join ${S}.endpoints e on e.operator_id = ev.operator_id and e.environment = ev.environment
     ), free_slot as (
       select s.slot from ${S}.endpoint_slots s
       where ?::boolean and s.operator_id = ? and s.environment = ? and s.slot <= ? and ${SLOT_IS_FREE}
         and exists (select 1 from ep where ep.usable)
       order by s.slot limit 1
       for update skip locked
     ), taken as (
       update ${S}.endpoint_slots s set delivery_id = ?, lease_token = ?, lease_until = ${LEASE_END}
       where s.operator_id = ? and s.environment = ? and s.slot = (select slot from free_slot)
       returning s.slot, s.lease_until
     ), d as (
       insert into ${S}.deliveries (id, event_id, operator_id, environment, kind, status, attempts, max_attempts, next_attempt_at,
                                    lease_token, last_error, completed_at)
       select ?, ev.id, ev.operator_id, ev.environment, 'event',
              case when ep.usable then 'pending' else 'no_endpoint' end,
              case when t.slot is null then 0 else 1 end, ?,
              case when t.slot is not null then t.lease_until when ep.usable then now() end,
              case when t.slot is not null then ?::text end,
              case when ep.url is null then 'no webhook URL configured' when ep.secret_sealed is null then 'no webhook secret configured' end,
              case when ep.usable then null else now() end
       from ev left join ep on true left join taken t on true
       returning id, event_id, operator_id, status, lease_token
     ), a as (
       insert into ${S}.attempts (delivery_id, event_id, operator_id, attempt, url, outcome)
       select d.id, d.event_id, d.operator_id, 1, ep.url, 'in_flight' from d cross join ep where d.lease_token is not null
       returning id
     )
     select d.status, t.slot, a.id as attempt_id, ep.url, ep.secret_sealed, ep.previous_secret_sealed
     from d left join taken t on true left join a on true left join ep on true`,
    [
      e.id,
      e.type,
      e.environment,
      e.operatorId,
      e.brandId,
      e.body,
      e.createdAt,
      e.source,
      o.startNow,
      e.operatorId,
      e.environment,
      o.perEndpoint,
      deliveryId,
      leaseToken,
      o.leaseMs,
      e.operatorId,
      e.environment,
      deliveryId,
      o.maxAttempts,
      leaseToken,
    ],
  );
  if (!row) return { stored: 'duplicate' };
  if (row.status === 'no_endpoint') return { stored: 'closed' };
  if (row.slot === null || row.attempt_id === null) return { stored: 'waiting' };
  return {
    stored: 'started',
    attempt: {
      deliveryId,
      eventId: e.id,
      operatorId: e.operatorId,
      environment: e.environment,
      attempt: 1,
      maxAttempts: o.maxAttempts,
      attemptId: String(row.attempt_id),
      leaseToken,
      slot: row.slot,
      url: row.url!,
      secretSealed: row.secret_sealed!,
      previousSecretSealed: row.previous_secret_sealed,
      body: e.body,
    },
  };
}
