// Intake of domain events: a durable JetStream pull consumer over every event subject. Each event
// is stored with its delivery in one Postgres statement (atomic), and only then acked; a crash between
// the two redelivers the message, and the insert dedupes on the event id. The same statement
// usually leases the delivery's first attempt (persistence/event-intake.ts), which starts right
// after the commit, in a place of the delivery pool reserved before the statement. A message that
// can never be stored (not an event, no routing headers) is logged and terminated, not retried.
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { ENVIRONMENTS, EVENT_HEADERS, eventsStreamName, eventsWildcard, type Environment } from '@bo/contracts';
import { crashPoint, ensureEventsStream, type Logger, type Sql } from '@bo/service-kit';
import type { EventToStore } from '../persistence/delivery-queue.ts';
import { ingestEvent, type IntakeOutcome } from '../persistence/event-intake.ts';
import type { DeliveryWorker } from './delivery-worker.ts';

export function webhooksConsumerName(prefix: string): string {
  return `${prefix}_webhooks`;
}

export interface EventConsumerOptions {
  nc: NatsConnection;
  prefix: string;
  /** JetStream replicas of the events stream, should intake be the first to create it. */
  replicas: number;
  sql: Sql;
  log: Logger;
  maxAttempts: number;
  perEndpoint: number;
  leaseMs: number;
  /** Runs the first attempts the intake leases, and the claim loop for the others. */
  worker: Pick<DeliveryWorker, 'reserve' | 'startReserved' | 'noteWaiting'>;
  /** Events stored concurrently. */
  parallel?: number;
}

const ACK_WAIT_NS = 30_000_000_000;

/** Reads the routing and identity of an event message; a string when it is not a usable event. */
export function parseEventMessage(m: { data: Uint8Array; headers?: { get(k: string): string } }): EventToStore | string {
  const body = Buffer.from(m.data);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 'body is not JSON';
  }
  const e = parsed as { id?: unknown; type?: unknown; createdAt?: unknown; environment?: unknown };
  if (typeof e !== 'object' || e === null) return 'body is not a JSON object';
  if (typeof e.id !== 'string' || e.id.length === 0 || e.id.length > 64) return 'event id missing';
  if (typeof e.type !== 'string' || e.type.length === 0) return 'event type missing';
  if (!ENVIRONMENTS.includes(e.environment as Environment)) return 'event environment missing';
  const createdAt = typeof e.createdAt === 'string' && !Number.isNaN(Date.parse(e.createdAt)) ? e.createdAt : new Date().toISOString();
  const operatorId = m.headers?.get(EVENT_HEADERS.operatorId) ?? '';
  const brandId = m.headers?.get(EVENT_HEADERS.brandId) ?? '';
  if (!operatorId || !brandId) return 'routing headers missing';
  return { id: e.id, type: e.type, environment: e.environment as Environment, operatorId, brandId, body, createdAt, source: 'stream' };
}

export async function ensureWebhooksConsumer(nc: NatsConnection, prefix: string, replicas = 1): Promise<void> {
  await ensureEventsStream(nc, prefix, replicas);
  const jsm = await jetstreamManager(nc);
  const stream = eventsStreamName(prefix);
  const name = webhooksConsumerName(prefix);
  const config = {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: eventsWildcard(prefix),
    ack_wait: ACK_WAIT_NS,
    max_deliver: -1,
    max_ack_pending: 1000,
  };
  try {
    await jsm.consumers.add(stream, config);
  } catch (e) {
    // Another replica created it first (or it exists from an earlier run).
    await jsm.consumers.info(stream, name).catch(() => {
      throw e;
    });
  }
}

export function startEventConsumer(o: EventConsumerOptions): () => Promise<void> {
  const js = jetstream(o.nc);
  const parallel = o.parallel ?? 16;
  const handling = new Set<Promise<void>>();
  let stopped = false;
  let messages: ConsumerMessages | undefined;
  let wake: (() => void) | undefined;

  async function store(m: JsMsg): Promise<void> {
    const event = parseEventMessage(m);
    if (typeof event === 'string') {
      o.log.error({ subject: m.subject, seq: m.seq, problem: event }, 'unusable event message dropped');
      m.term(event);
      return;
    }
    const startNow = o.worker.reserve();
    let outcome: IntakeOutcome;
    try {
      outcome = await ingestEvent(o.sql, event, { maxAttempts: o.maxAttempts, startNow, perEndpoint: o.perEndpoint, leaseMs: o.leaseMs });
    } catch (err) {
      if (startNow) o.worker.startReserved(undefined);
      o.log.warn({ err, eventId: event.id }, 'could not store event; it will be redelivered');
      m.nak(1000);
      return;
    }
    crashPoint('webhooks.ingest.after-commit');
    // The reserved place is handed over before anything here can throw.
    if (startNow) o.worker.startReserved(outcome.stored === 'started' ? outcome.attempt : undefined);
    if (outcome.stored === 'waiting') o.worker.noteWaiting();
    m.ack();
  }

  async function consumeOnce(): Promise<void> {
    await ensureWebhooksConsumer(o.nc, o.prefix, o.replicas);
    const consumer = await js.consumers.get(eventsStreamName(o.prefix), webhooksConsumerName(o.prefix));
    messages = await consumer.consume({ max_messages: 64 });
    const current = messages;
    // stop() may have run while the consumer was being set up.
    if (stopped) current.stop();
    void (async () => {
      for await (const s of await current.status()) {
        if (s.type === 'consumer_deleted' || s.type === 'consumer_not_found' || s.type === 'stream_not_found') {
          o.log.warn({ status: s.type }, 'events consumer lost; recreating');
          current.stop();
          return;
        }
      }
    })().catch(() => undefined);
    for await (const m of current) {
      if (handling.size >= parallel) await Promise.race(handling);
      const p: Promise<void> = store(m).finally(() => handling.delete(p));
      handling.add(p);
    }
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        await consumeOnce();
      } catch (err) {
        if (!stopped) o.log.warn({ err }, 'events consumer failed; restarting');
      }
      if (!stopped)
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 1000);
        });
    }
  })();

  return async () => {
    stopped = true;
    messages?.stop();
    wake?.();
    await loop;
    await Promise.allSettled([...handling]);
  };
}
