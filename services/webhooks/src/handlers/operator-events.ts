// The operator's own webhook tools (API 1.2.0): recent events with the state of their latest
// delivery, the attempts of one event, and a redelivery. Every query is scoped to the caller's
// operator, environment and brand; another operator's event id answers 404 like an unknown one.
import { AppError, type OperatorScope, type RedeliveryResult, type WebhookAttempt, type WebhookEventSummary, webhookOperations } from '@bo/contracts';
import { isoTime, listCursor, operatorScopeOf, requestKeyOf, runOnce, sqlTransactor, type HandlerOf, type SqlRunner } from '@bo/service-kit';
import { scheduleRedelivery } from '../store/delivery-queue.ts';
import { endpointUrl } from '../store/endpoint-store.ts';
import { eventAttempts, isOwnEvent, operatorEvents, type EventRow } from '../store/event-log.ts';
import type { WebhooksRuntime } from '../runtime.ts';

/** Attempts listed for one event (7 per delivery; redeliveries add more). */
const MAX_ATTEMPTS_LISTED = 200;

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
    const after = q.cursor ? cursors.decode(owner, q.cursor) : undefined;
    const rows = await operatorEvents(rt.deps.sql, scope, { after, type: q.type, deliveryStatus: q.deliveryStatus }, limit + 1);
    return { status: 200, body: cursors.page(owner, rows, limit, summary, (r) => ({ at: r.received_key, id: r.id })) };
  };
}

/** The event if it belongs to the caller, else 404 (the same answer as an unknown id). */
async function ownEvent(sql: SqlRunner, scope: OperatorScope, eventId: string, lock = false): Promise<void> {
  if (!(await isOwnEvent(sql, scope, eventId, lock))) throw new AppError('WEBHOOK_EVENT_NOT_FOUND');
}

export function listWebhookEventAttempts(rt: WebhooksRuntime): HandlerOf<typeof webhookOperations.listWebhookEventAttempts> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    await ownEvent(rt.deps.sql, scope, req.params.eventId);
    const rows = await eventAttempts(rt.deps.sql, scope.operatorId, req.params.eventId, MAX_ATTEMPTS_LISTED);
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
      if (!(await endpointUrl(tx, scope.operatorId, scope.environment))) throw new AppError('WEBHOOK_NOT_CONFIGURED');
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
