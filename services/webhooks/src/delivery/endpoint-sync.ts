// Intake of the gateway's endpoint changes: a durable JetStream consumer of the internal stream's
// `webhook.endpoint_changed` events (written by the gateway in the transaction of each change).
// Each is applied like the gateway's request (store/endpoint-store.ts, version-guarded, so
// repeats and late arrivals change nothing) and acked after its commit. A message that can never
// be applied is logged and terminated, not retried.
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsMsg } from '@nats-io/jetstream';
import { Value } from '@sinclair/typebox/value';
import { internalEventSubject, internalStreamName, WEBHOOK_ENDPOINT_CHANGED, WebhookEndpointChangedSchema } from '@bo/contracts';
import { ensureInternalStream, startDurableConsumer, type BackgroundTask, type Logger, type Sql } from '@bo/service-kit';
import { applyEndpointChange } from '../store/endpoint-store.ts';

export function endpointSyncConsumerName(prefix: string): string {
  return `${prefix}_webhooks_endpoints`;
}

export interface EndpointSyncOptions {
  nc: NatsConnection;
  prefix: string;
  replicas: number;
  sql: Sql;
  log: Logger;
}

async function apply(o: EndpointSyncOptions, m: JsMsg): Promise<void> {
  let data: unknown;
  try {
    data = m.json<{ data?: unknown }>().data;
  } catch {
    data = undefined;
  }
  if (!Value.Check(WebhookEndpointChangedSchema, data)) {
    o.log.error({ subject: m.subject, seq: m.seq }, 'unusable endpoint event dropped');
    m.term('not a webhook.endpoint_changed event');
    return;
  }
  try {
    await o.sql.transaction((tx) => applyEndpointChange(tx, data));
  } catch (err) {
    o.log.warn({ err, operatorId: data.operatorId }, 'could not apply an endpoint change; it will be redelivered');
    m.nak(1000);
    return;
  }
  m.ack();
}

/** Starts the consumer (the kit's durable consumer: recreated if it disappears); unready while it is not consuming. */
export function startEndpointSync(o: EndpointSyncOptions): BackgroundTask {
  return startDurableConsumer({
    name: 'endpoint changes consumer',
    nc: o.nc,
    consumer: {
      stream: internalStreamName(o.prefix),
      name: endpointSyncConsumerName(o.prefix),
      filterSubject: internalEventSubject(o.prefix, WEBHOOK_ENDPOINT_CHANGED),
      ackWaitMs: 30_000,
      replicas: o.replicas,
    },
    ensureStream: () => ensureInternalStream(o.nc, o.prefix, o.replicas),
    maxMessages: 16,
    // In order, one at a time: changes of one endpoint must not overtake each other here.
    onMessage: (m) => apply(o, m),
    log: o.log,
  });
}
