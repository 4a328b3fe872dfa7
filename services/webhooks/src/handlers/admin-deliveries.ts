// `webhooks.admin.deliveries`: the attempt log of one event and/or one operator, newest first.
// Without a filter, the most recent attempts overall.
import type { DeliveryLogItem, AttemptOutcome, webhookAdminOperations } from '@bo/contracts';
import type { HandlerOf } from '@bo/service-kit';
import type { WebhooksRuntime } from '../runtime.ts';
import { teamScopeOf } from '@bo/service-kit';
import { ListFilters } from '../store/list-filters.ts';

const LIMIT = 500;

interface AttemptLogRow {
  event_id: string;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string | null;
  started_at: Date;
  duration_ms: number | null;
  delivery_id: string;
  outcome: AttemptOutcome;
}

export function adminListDeliveries(rt: WebhooksRuntime): HandlerOf<typeof webhookAdminOperations.adminListDeliveries> {
  return async (req) => {
    teamScopeOf(req);
    const q = req.query;
    const filters = new ListFilters().given(q.eventId, 'event_id = ?').given(q.operatorId, 'operator_id = ?');
    const rows = await rt.deps.sql.query<AttemptLogRow>(
      `select event_id, attempt, url, status_code, error, started_at, duration_ms, delivery_id, outcome
       from webhooks.attempts ${filters.where()}
       order by id desc limit ?`,
      [...filters.params, LIMIT],
    );
    const data: DeliveryLogItem[] = rows.map((r) => ({
      eventId: r.event_id,
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
