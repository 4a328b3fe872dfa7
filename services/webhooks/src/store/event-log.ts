// The reads of the event log for the operator's webhook tools and our team's attempt log, and the
// rows a redelivery checks first. Every operator read is scoped to the caller's operator,
// environment and brand: another operator's event answers as an unknown one.
import type { AttemptOutcome, OperatorScope, WebhookEventSummary } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import { ListFilters } from './list-filters.ts';

export interface AttemptLogRow {
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string | null;
  started_at: Date;
  duration_ms: number | null;
  delivery_id: string;
  outcome: AttemptOutcome;
}

/** Our team's attempt log, newest first, of one event and/or one operator (all when neither is given). */
export function attemptLog(sql: SqlRunner, by: { eventId?: string; operatorId?: string }, limit: number): Promise<AttemptLogRow[]> {
  const filters = new ListFilters().given(by.eventId, 'a.event_id = ?').given(by.operatorId, 'a.operator_id = ?');
  return sql.query<AttemptLogRow>(
    `select a.event_id, e.type as event_type, a.attempt, a.url, a.status_code, a.error, a.started_at, a.duration_ms, a.delivery_id, a.outcome
     from webhooks.attempts a join webhooks.events e on e.id = a.event_id ${filters.where()}
     order by a.id desc limit ?`,
    [...filters.params, limit],
  );
}

export interface EventRow {
  id: string;
  type: WebhookEventSummary['type'];
  environment: WebhookEventSummary['environment'];
  created_at: Date;
  /** The receipt time (microseconds, UTC): the list's position. */
  received_key: string;
  status: WebhookEventSummary['deliveryStatus'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  completed_at: Date | null;
}

export interface EventListFilter {
  /** The position after the last page's last event. */
  after?: { at: string; id: string };
  type?: string;
  deliveryStatus?: string;
}

/** The caller's events, newest received first, each with the state of its latest delivery. */
export function operatorEvents(sql: SqlRunner, scope: OperatorScope, filter: EventListFilter, limit: number): Promise<EventRow[]> {
  const filters = new ListFilters().add('e.operator_id = ? and e.environment = ? and e.brand_id = ?', scope.operatorId, scope.environment, scope.brandId);
  if (filter.after) filters.add(`(e.received_at, e.id) < (?::timestamp at time zone 'utc', ?)`, filter.after.at, filter.after.id);
  filters.given(filter.type, 'e.type = ?').given(filter.deliveryStatus, 'd.status = ?');
  return sql.query<EventRow>(
    `select e.id, e.type, e.environment, e.created_at,
            to_char(e.received_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US') as received_key,
            d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at, d.completed_at
     from webhooks.events e
     join lateral (
       select status, attempts, last_status_code, last_error, next_attempt_at, completed_at from webhooks.deliveries x
       where x.event_id = e.id order by x.created_at desc, x.id desc limit 1
     ) d on true
     ${filters.where()}
     order by e.received_at desc, e.id desc
     limit ?`,
    [...filters.params, limit],
  );
}

/** Whether the event belongs to the caller; `lock` holds it (for share) for the transaction. */
export async function isOwnEvent(sql: SqlRunner, scope: OperatorScope, eventId: string, lock = false): Promise<boolean> {
  const [event] = await sql.query<{ id: string }>(
    `select id from webhooks.events where id = ? and operator_id = ? and environment = ? and brand_id = ?${lock ? ' for share' : ''}`,
    [eventId, scope.operatorId, scope.environment, scope.brandId],
  );
  return event !== undefined;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  url: string;
  outcome: AttemptOutcome;
  status_code: number | null;
  error: string | null;
  started_at: Date;
  duration_ms: number | null;
}

/** The attempts of one of the operator's events, delivery by delivery, oldest first. */
export function eventAttempts(sql: SqlRunner, operatorId: string, eventId: string, limit: number): Promise<AttemptRow[]> {
  return sql.query<AttemptRow>(
    `select a.delivery_id, a.attempt, a.url, a.outcome, a.status_code, a.error, a.started_at, a.duration_ms
     from webhooks.attempts a join webhooks.deliveries d on d.id = a.delivery_id
     where a.event_id = ? and a.operator_id = ?
     order by d.created_at, d.id, a.attempt
     limit ?`,
    [eventId, operatorId, limit],
  );
}

export interface StoredEvent {
  id: string;
  operator_id: string;
  environment: 'sandbox' | 'production';
}

/** Any stored event, held (for share) for the transaction: our team's redelivery. */
export async function lockedEvent(tx: SqlRunner, eventId: string): Promise<StoredEvent | undefined> {
  const [event] = await tx.query<StoredEvent>('select id, operator_id, environment from webhooks.events where id = ? for share', [eventId]);
  return event;
}

export interface DeliveryState {
  id: string;
  status: string;
  attempts: number;
}

/** The deliveries of an event, oldest first. */
export function deliveriesOf(sql: SqlRunner, eventId: string): Promise<DeliveryState[]> {
  return sql.query<DeliveryState>('select id, status, attempts from webhooks.deliveries where event_id = ? order by created_at, id', [eventId]);
}
