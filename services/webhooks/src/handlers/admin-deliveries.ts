// `webhooks.admin.deliveries`: the attempt log of one event and/or one operator, newest first.
// Without a filter, the most recent attempts overall.
import type { DeliveryLogItem, webhookAdminOperations } from '@bo/contracts';
import type { HandlerOf } from '@bo/service-kit';
import type { WebhooksRuntime } from '../runtime.ts';
import { teamScopeOf } from '@bo/service-kit';
import { attemptLog } from '../store/event-log.ts';

const LIMIT = 500;

export function adminListDeliveries(rt: WebhooksRuntime): HandlerOf<typeof webhookAdminOperations.adminListDeliveries> {
  return async (req) => {
    teamScopeOf(req);
    const q = req.query;
    const rows = await attemptLog(rt.deps.sql, { eventId: q.eventId, operatorId: q.operatorId }, LIMIT);
    const data: DeliveryLogItem[] = rows.map((r) => ({
      eventId: r.event_id,
      eventType: r.event_type,
      attempt: r.attempt,
      url: r.url,
      statusCode: r.status_code,
      error: r.error,
      at: new Date(r.started_at).toISOString(),
      ...(r.duration_ms !== null ? { durationMs: r.duration_ms } : {}),
      deliveryId: r.delivery_id,
      outcome: r.outcome,
    }));
    return { status: 200, body: { data } };
  };
}
