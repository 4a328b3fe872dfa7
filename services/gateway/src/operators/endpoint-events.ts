// How an operator's webhook endpoint reaches the webhooks service (which delivers with it):
// every change is an internal event `webhook.endpoint_changed` written to the gateway's outbox in
// the transaction of the change and published to the internal stream by the outbox relay; the
// webhooks service applies it (endpoint-sync there). A change made while that service is down
// reaches it when it runs again: nothing polls, nothing is dropped. Each change carries the
// endpoint's next version, so the event and the request that validated a new URL may arrive in
// any order.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, WEBHOOK_ENDPOINT_CHANGED, type WebhookEndpointChanged } from '@bo/contracts';

/** The body of an internal event (its type says what `data` is). */
export interface InternalEvent<T> {
  id: string;
  type: string;
  createdAt: string;
  data: T;
}

export async function recordEndpointChange(tx: EntityManager, change: WebhookEndpointChanged): Promise<void> {
  const event: InternalEvent<WebhookEndpointChanged> = {
    id: newId('event'),
    type: WEBHOOK_ENDPOINT_CHANGED,
    createdAt: new Date().toISOString(),
    data: change,
  };
  await tx.execute(`insert into gateway.outbox (event_id, subject_type, environment, operator_id, brand_id, payload) values (?, ?, ?, ?, ?, ?)`, [
    event.id,
    WEBHOOK_ENDPOINT_CHANGED,
    change.environment,
    change.operatorId,
    change.brandId,
    JSON.stringify(event),
  ]);
}
