// `webhooks.admin.redeliver`: a fresh delivery (a full set of attempts, due now) of a stored
// event, with the same event id and body. Deliveries already under way are left alone. Audited in
// the delivery's transaction (the kit's writeDecisionAudit, relayed to the audit log once).
import { AppError, type webhookAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, writeDecisionAudit, type HandlerOf } from '@bo/service-kit';
import { scheduleRedelivery } from '../store/delivery-queue.ts';
import { deliveriesOf, lockedEvent } from '../store/event-log.ts';
import type { WebhooksRuntime } from '../runtime.ts';

export function adminRedeliver(rt: WebhooksRuntime): HandlerOf<typeof webhookAdminOperations.adminRedeliver> {
  return async (req) => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const { eventId } = req.params;
    const deliveryId = await rt.deps.sql.transaction(async (tx) => {
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
      await writeDecisionAudit(tx, rt.deps.schema, by, {
        action: 'adminRedeliver',
        target: `webhook_event:${eventId}`,
        before: { deliveries: before },
        after: { deliveries: [...before, { id: deliveryId, status: 'pending', attempts: 0 }] },
      });
      return deliveryId;
    });
    rt.deps.outbox.poke();
    rt.pokeWorker();
    return { status: 200, body: { eventId, scheduled: true, deliveryId } };
  };
}
