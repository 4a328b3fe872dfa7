// Intake of the gateway's endpoint changes: a durable JetStream consumer of the internal stream's
// `webhook.endpoint_changed` events (written by the gateway in the transaction of each change).
// Each is applied like the gateway's request (persistence/endpoint-store.ts, version-guarded, so
// repeats and late arrivals change nothing) and acked after its commit. A message that can never
// be applied is logged and terminated, not retried.
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { Value } from '@sinclair/typebox/value';
import { internalEventSubject, internalStreamName, WEBHOOK_ENDPOINT_CHANGED, WebhookEndpointChangedSchema } from '@bo/contracts';
import { ensureInternalStream, type BackgroundTask, type Logger, type Sql } from '@bo/service-kit';
import { applyEndpointChange } from '../persistence/endpoint-store.ts';

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

async function ensureConsumer(o: EndpointSyncOptions): Promise<void> {
  await ensureInternalStream(o.nc, o.prefix, o.replicas);
  const jsm = await jetstreamManager(o.nc);
  const name = endpointSyncConsumerName(o.prefix);
  try {
    await jsm.consumers.add(internalStreamName(o.prefix), {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: internalEventSubject(o.prefix, WEBHOOK_ENDPOINT_CHANGED),
      ack_wait: 30_000_000_000,
      max_deliver: -1,
      num_replicas: o.replicas,
    });
  } catch (e) {
    // Another replica created it first (or it exists from an earlier run).
    await jsm.consumers.info(internalStreamName(o.prefix), name).catch(() => {
      throw e;
    });
  }
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

/** Starts the consumer (recreated if it disappears); unready while it is not consuming. */
export function startEndpointSync(o: EndpointSyncOptions): BackgroundTask {
  const js = jetstream(o.nc);
  let stopped = false;
  let problem: string | undefined = 'not consuming yet';
  let messages: ConsumerMessages | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        await ensureConsumer(o);
        const consumer = await js.consumers.get(internalStreamName(o.prefix), endpointSyncConsumerName(o.prefix));
        messages = await consumer.consume({ max_messages: 16 });
        if (stopped) messages.stop();
        problem = undefined;
        // In order, one at a time: changes of one endpoint must not overtake each other here.
        for await (const m of messages) await apply(o, m);
        problem = 'consumer lost; recreating it';
      } catch (err) {
        problem = `consumer failed: ${(err as Error).message}; restarting`;
        if (!stopped) o.log.warn({ err }, 'endpoint changes consumer failed; restarting');
      }
      if (!stopped)
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 1000);
        });
    }
  })();
  return {
    name: 'endpoint changes consumer',
    problem: () => problem,
    async stop() {
      stopped = true;
      messages?.stop();
      wake?.();
      await loop;
    },
  };
}
