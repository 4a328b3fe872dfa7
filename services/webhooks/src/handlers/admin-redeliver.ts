// `webhooks.admin.redeliver`: a fresh delivery (a full set of attempts, due now) of a stored
// event, with the same event id and body. Deliveries already under way are left alone.
import { AppError, type webhookAdminOperations } from '@bo/contracts';
import type { HandlerOf } from '@bo/service-kit';
import { scheduleRedelivery } from '../store/delivery-queue.ts';
import { deliveriesOf, lockedEvent } from '../store/event-log.ts';
import type { WebhooksRuntime } from '../runtime.ts';
import { teamScopeOf } from '@bo/service-kit';

export function adminRedeliver(rt: WebhooksRuntime): HandlerOf<typeof webhookAdminOperations.adminRedeliver> {
  return async (req) => {
    teamScopeOf(req);
    const { eventId } = req.params;
    const out = await rt.deps.sql.transaction(async (tx) => {
      const event = await lockedEvent(tx, eventId);
      if (!event) throw new AppError('NOT_FOUND', 'Event not found.');
      const before = await deliveriesOf(tx, eventId);
      const deliveryId = await scheduleRedelivery(tx, {
        eventId,
        operatorId: event.operator_id,
        environment: event.environment,
        maxAttempts: rt.maxAttempts,
        leaseMs: rt.leaseMs,
      });
      return { deliveryId, before };
    });
    rt.pokeWorker();
    return {
      status: 200,
      body: { eventId, scheduled: true, deliveryId: out.deliveryId },
      audit: {
        target: `webhook_event:${eventId}`,
        before: { deliveries: out.before },
        after: { deliveries: [...out.before, { id: out.deliveryId, status: 'pending', attempts: 0 }] },
      },
    };
  };
}
