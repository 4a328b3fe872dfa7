// How an operator's webhook endpoint reaches the webhooks service (which delivers with it):
// every change is an internal event `webhook.endpoint_changed` written to the operators outbox in
// the transaction of the change and published to the internal stream by the kit's outbox relay;
// the webhooks service applies it (endpoint-sync there). A change made while that service is down
// reaches it when it runs again: nothing polls, nothing is dropped. Each change carries the
// endpoint's next version, so the event and the request that validated a new URL may arrive in
// any order.
import { WEBHOOK_ENDPOINT_CHANGED, type WebhookEndpointChanged } from '@bo/contracts';
import { writeInternalEvent, type SqlRunner } from '@bo/service-kit';

export async function recordEndpointChange(tx: SqlRunner, change: WebhookEndpointChanged): Promise<void> {
  await writeInternalEvent(tx, 'operators', change, WEBHOOK_ENDPOINT_CHANGED, change);
}
