// The operator's own webhook tools (API 1.2.0): recent events with the state of their latest
// delivery, the attempts of one event, and a redelivery. Every query is scoped to the caller's
// operator, environment and brand; another operator's event id answers 404 like an unknown one.
import { AppError, type OperatorScope, type RedeliveryResult, type WebhookAttempt, type WebhookEventSummary, webhookOperations } from '@bo/contracts';
import { isoTime, listCursor, operatorScopeOf, requestKeyOf, runOnce, sqlTransactor, type HandlerOf, type SqlRunner } from '@bo/service-kit';
import { scheduleRedelivery } from '../store/delivery-queue.ts';
import { ListFilters } from '../store/list-filters.ts';
import type { WebhooksRuntime } from '../runtime.ts';

/** Attempts listed for one event (7 per delivery; redeliveries add more). */
const MAX_ATTEMPTS_LISTED = 200;

interface EventRow {
  id: string;
  type: WebhookEventSummary['type'];
  environment: WebhookEventSummary['environment'];
  created_at: Date;
  received_key: string;
  status: WebhookEventSummary['deliveryStatus'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  completed_at: Date | null;
}

function summary(r: EventRow): WebhookEventSummary {
  return {
    id: r.id,
    type: r.type,
    environment: r.environment,
    createdAt: isoTime(r.created_at),
    deliveryStatus: r.status,
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' && r.next_attempt_at ? isoTime(r.next_attempt_at) : null,
    deliveredAt: r.status === 'delivered' && r.completed_at ? isoTime(r.completed_at) : null,
  };
}

export function listWebhookEvents(rt: WebhooksRuntime): HandlerOf<typeof webhookOperations.listWebhookEvents> {
  // The position after a page is its last event's receipt time (microseconds, UTC) and id, bound
  // to the caller's operator, environment and brand.
  const cursors = listCursor(rt.config.LIST_CURSOR_SECRET, 'webhooks.events');
  return async (req) => {
    const scope = operatorScopeOf(req);
    const owner = [scope.operatorId, scope.environment, scope.brandId];
    const q = req.query;
    const limit = q.limit ?? 20;
    const filters = new ListFilters().add('e.operator_id = ? and e.environment = ? and e.brand_id = ?', ...owner);
    if (q.cursor) {
      const after = cursors.decode(owner, q.cursor);
      filters.add(`(e.received_at, e.id) < (?::timestamp at time zone 'utc', ?)`, after.at, after.id);
    }
    filters.given(q.type, 'e.type = ?').given(q.deliveryStatus, 'd.status = ?');
    const rows = await rt.deps.sql.query<EventRow>(
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
      [...filters.params, limit + 1],
    );
    return { status: 200, body: cursors.page(owner, rows, limit, summary, (r) => ({ at: r.received_key, id: r.id })) };
  };
}

/** The event if it belongs to the caller, else 404 (the same answer as an unknown id). */
async function ownEvent(sql: SqlRunner, scope: OperatorScope, eventId: string, lock = false): Promise<void> {
  const [event] = await sql.query<{ id: string }>(
    `select id from webhooks.events where id = ? and operator_id = ? and environment = ? and brand_id = ?${lock ? ' for share' : ''}`,
    [eventId, scope.operatorId, scope.environment, scope.brandId],
  );
  if (!event) throw new AppError('WEBHOOK_EVENT_NOT_FOUND');
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  url: string;
  outcome: WebhookAttempt['outcome'];
  status_code: number | null;
  error: string | null;
  started_at: Date;
  duration_ms: number | null;
}

export function listWebhookEventAttempts(rt: WebhooksRuntime): HandlerOf<typeof webhookOperations.listWebhookEventAttempts> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    await ownEvent(rt.deps.sql, scope, req.params.eventId);
    const rows = await rt.deps.sql.query<AttemptRow>(
      `select a.delivery_id, a.attempt, a.url, a.outcome, a.status_code, a.error, a.started_at, a.duration_ms
       from webhooks.attempts a join webhooks.deliveries d on d.id = a.delivery_id
       where a.event_id = ? and a.operator_id = ?
       order by d.created_at, d.id, a.attempt
       limit ${MAX_ATTEMPTS_LISTED}`,
      [req.params.eventId, scope.operatorId],
    );
    const data: WebhookAttempt[] = rows.map((r) => ({
      deliveryId: r.delivery_id,
      attempt: r.attempt,
      url: r.url,
      outcome: r.outcome,
      statusCode: r.status_code,
      error: r.error,
      startedAt: isoTime(r.started_at),
      durationMs: r.duration_ms,
    }));
    return { status: 200, body: { data } };
  };
}

/**
 * A new delivery of a stored event (same event id and bytes, a full set of attempts, due now).
 * Idempotent on the request's key: a retry answers the first redelivery instead of adding one.
 * Without a URL for the environment there is nothing to deliver to: 409, stored by the kit like
 * every 4xx (decisions.md), so a retry with the same key answers the same 409. The answer is kept
 * under the operation's subject, the name the kit keeps its refusals under.
 */
export function redeliverWebhookEvent(rt: WebhooksRuntime): HandlerOf<typeof webhookOperations.redeliverWebhookEvent> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { eventId } = req.params;
    const result = await runOnce(sqlTransactor(rt.deps.sql), 'webhooks', requestKeyOf(req.ctx), webhookOperations.redeliverWebhookEvent.subject, async (tx) => {
      await ownEvent(tx, scope, eventId, true);
      const [endpoint] = await tx.query<{ url: string | null }>('select url from webhooks.endpoints where operator_id = ? and environment = ?', [
        scope.operatorId,
        scope.environment,
      ]);
      if (!endpoint?.url) throw new AppError('WEBHOOK_NOT_CONFIGURED');
      const deliveryId = await scheduleRedelivery(tx, {
        eventId,
        operatorId: scope.operatorId,
        environment: scope.environment,
        maxAttempts: rt.maxAttempts,
        leaseMs: rt.leaseMs,
      });
      const body: RedeliveryResult = { eventId, deliveryId, deliveryStatus: 'pending' };
      return { status: 202, body };
    });
    rt.pokeWorker();
    return result;
  };
}
