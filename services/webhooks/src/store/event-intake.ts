// The intake of the events that arrived together, in ONE statement (atomic without a
// transaction): each event, deduped on its id, and its delivery; and, in the usual case, the
// delivery's first attempt already leased to this replica (a free slot of its endpoint, the lease,
// the `in_flight` attempt row), so the consumer starts the attempt right after the commit and no
// claim transaction is needed. A delivery is left `pending`, due now, when this replica's pool
// (`room`) or its endpoint's slots are full: the next record of the endpoint hands its slot to the
// oldest such delivery (delivery-queue.ts), or the claim loop takes it. It ends `no_endpoint` at
// once when the endpoint has no URL or secret. A lone event has a leaner statement of its own.
import { randomUUID } from 'node:crypto';
import { newId } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import type { ClaimedAttempt, EventToStore } from './delivery-queue.ts';
import { LEASE_END, SLOT_IS_FREE } from './endpoint-slots.ts';

const S = 'webhooks';

export interface IntakeOptions {
  maxAttempts: number;
  /** Attempts this replica's pool has places for (reserved by the caller): at most this many are leased. */
  room: number;
  perEndpoint: number;
  leaseMs: number;
}

/** `duplicate`: stored before; `waiting`: stored, due for a hand-over or the claim loop; `closed`: no endpoint to deliver to. */
export type IntakeOutcome = { stored: 'duplicate' | 'waiting' | 'closed' } | { stored: 'started'; attempt: ClaimedAttempt };

interface Row {
  usable: boolean;
  slot: number | null;
  attempt_id: string | null;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
}

interface OneRow extends Omit<Row, 'usable'> {
  status: 'pending' | 'no_endpoint';
}

/** Outcomes in the order of `events`, whose ids must be distinct. */
export async function ingestEvents(sql: SqlRunner, events: readonly EventToStore[], o: IntakeOptions): Promise<IntakeOutcome[]> {
  // A lone event (the usual case below a burst) takes the leaner statement: measured, the batch
  // statement's extra joins and window functions cost more than they save for one row.
  if (events.length === 1) return [await ingestOne(sql, events[0]!, o)];
  const input = events.map((e) => ({ e, deliveryId: newId('delivery'), leaseToken: randomUUID() }));
  // The rows travel as one array per column: one statement text whatever the batch's size, so each
  // connection prepares and plans it once (a VALUES list per size was a statement, and custom
  // plans, per size).
  const column = (f: (x: (typeof input)[number], n: number) => unknown) => input.map(f);
  const rows = await sql.query<Row & { n: number }>(
    `with input(n, id, type, environment, operator_id, brand_id, body, created_at, source, delivery_id, token) as (
       select * from unnest(?::int[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::timestamptz[], ?::text[], ?::text[], ?::text[])
     ),
     ev as (
       insert into ${S}.events (id, type, environment, operator_id, brand_id, body, created_at, source)
       select id, type, environment, operator_id, brand_id, body, created_at, source from input order by n
       on conflict (id) do nothing
       returning id
     ), fresh as (
       select i.n, i.id, i.operator_id, i.environment, i.delivery_id, i.token, e.url, e.secret_sealed,
              coalesce(e.url is not null and e.secret_sealed is not null, false) as usable,
              case when e.previous_secret_expires_at > now() then e.previous_secret_sealed end as previous_secret_sealed,
              row_number() over (partition by i.operator_id, i.environment order by i.n) as k
       from input i join ev on ev.id = i.id
       left join ${S}.endpoints e on e.operator_id = i.operator_id and e.environment = i.environment
     ), need as (
       select operator_id, environment, count(*)::int as k from fresh where usable group by operator_id, environment
     ), got as (
       select need.operator_id, need.environment, f.slot,
              row_number() over (partition by need.operator_id, need.environment order by f.slot) as k
       from need cross join lateral (
         select s.slot from ${S}.endpoint_slots s
         where s.operator_id = need.operator_id and s.environment = need.environment and s.slot <= ? and ${SLOT_IS_FREE}
         order by s.slot limit least(need.k, ?::int)
         for update skip locked
       ) f
     ), pair as (
       select * from (
         select f.n, f.delivery_id, f.token, f.operator_id, f.environment, g.slot, row_number() over (order by f.n) as r
         from fresh f join got g on g.operator_id = f.operator_id and g.environment = f.environment and g.k = f.k
       ) p where p.r <= ?::int
     ), taken as (
       update ${S}.endpoint_slots s set delivery_id = p.delivery_id, lease_token = p.token, lease_until = ${LEASE_END}
       from pair p where s.operator_id = p.operator_id and s.environment = p.environment and s.slot = p.slot
     ), d as (
       insert into ${S}.deliveries (id, event_id, operator_id, environment, kind, status, attempts, max_attempts, next_attempt_at,
                                    lease_token, last_error, completed_at)
       select f.delivery_id, f.id, f.operator_id, f.environment, 'event',
              case when f.usable then 'pending' else 'no_endpoint' end,
              case when p.slot is null then 0 else 1 end, ?::int,
              case when p.slot is not null then ${LEASE_END} when f.usable then now() end,
              p.token,
              case when f.url is null then 'no webhook URL configured' when f.secret_sealed is null then 'no webhook secret configured' end,
              case when f.usable then null else now() end
       from fresh f left join pair p on p.n = f.n
     ), a as (
       insert into ${S}.attempts (delivery_id, event_id, operator_id, attempt, url, outcome)
       select p.delivery_id, f.id, f.operator_id, 1, f.url, 'in_flight' from pair p join fresh f on f.n = p.n
       returning id, delivery_id
     )
     select f.n, f.usable, p.slot, a.id as attempt_id, f.url, f.secret_sealed, f.previous_secret_sealed
     from fresh f left join pair p on p.n = f.n left join a on a.delivery_id = f.delivery_id`,
    [
      column((_, n) => n),
      ...eventValues.map((value) => column(({ e }) => value(e))),
      column((x) => x.deliveryId),
      column((x) => x.leaseToken),
      o.perEndpoint,
      o.room,
      o.room,
      o.leaseMs,
      o.maxAttempts,
      o.leaseMs,
    ],
  );
  const byN = new Map(rows.map((r) => [Number(r.n), r]));
  return input.map(({ e, deliveryId, leaseToken }, n) => outcomeOf(byN.get(n), e, deliveryId, leaseToken, o.maxAttempts));
}

/** An event's columns, in the order both intake statements insert them. */
const eventValues: readonly ((e: EventToStore) => unknown)[] = [
  (e) => e.id,
  (e) => e.type,
  (e) => e.environment,
  (e) => e.operatorId,
  (e) => e.brandId,
  (e) => e.body,
  (e) => e.createdAt,
  (e) => e.source,
];

/** The same for one event. */
async function ingestOne(sql: SqlRunner, e: EventToStore, o: IntakeOptions): Promise<IntakeOutcome> {
  const deliveryId = newId('delivery');
  const leaseToken = randomUUID();
  const [row] = await sql.query<OneRow>(
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
      ...eventValues.map((value) => value(e)),
      o.room > 0,
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
  return outcomeOf(row && { ...row, usable: row.status === 'pending' }, e, deliveryId, leaseToken, o.maxAttempts);
}

function outcomeOf(row: Row | undefined, e: EventToStore, deliveryId: string, leaseToken: string, maxAttempts: number): IntakeOutcome {
  if (!row) return { stored: 'duplicate' };
  if (!row.usable) return { stored: 'closed' };
  if (row.slot === null || row.attempt_id === null) return { stored: 'waiting' };
  return {
    stored: 'started',
    attempt: {
      deliveryId,
      eventId: e.id,
      operatorId: e.operatorId,
      environment: e.environment,
      attempt: 1,
      maxAttempts,
      attemptId: String(row.attempt_id),
      leaseToken,
      slot: Number(row.slot),
      url: row.url!,
      secretSealed: row.secret_sealed!,
      previousSecretSealed: row.previous_secret_sealed,
      body: e.body,
    },
  };
}

/** One event: `startNow` when this replica has a place for its attempt. */
export async function ingestEvent(sql: SqlRunner, e: EventToStore, o: Omit<IntakeOptions, 'room'> & { startNow: boolean }): Promise<IntakeOutcome> {
  return ingestOne(sql, e, { ...o, room: o.startNow ? 1 : 0 });
}
