// Intake of domain events: a durable JetStream pull consumer over every event subject. The events
// that arrived together are stored with their deliveries in one Postgres statement (atomic), and
// only then acked; a crash between the two redelivers the messages, and the insert dedupes on the
// event id. The same statement usually leases each delivery's first attempt
// (store/event-intake.ts), which starts right after the commit, in a place of the delivery
// pool reserved before the statement. A message that can never be stored (not an event, no
// routing headers) is logged and terminated, not retried.
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsMsg } from '@nats-io/jetstream';
import { ENVIRONMENTS, EVENT_HEADERS, eventsStreamName, eventsWildcard, type Environment } from '@bo/contracts';
import { crashPoint, ensureEventsStream, startDurableConsumer, type BackgroundTask, type Logger, type Sql } from '@bo/service-kit';
import type { EventToStore } from '../store/delivery-queue.ts';
import { ingestEvents, type IntakeOutcome } from '../store/event-intake.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { noteEventOrigin } from './delivery-origins.ts';
import { IntakeBatches } from './intake-batches.ts';

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
  /** Batches stored concurrently. */
  parallel?: number;
}

const ACK_WAIT_MS = 30_000;
/** Events stored by one statement at most. */
const MAX_BATCH = 32;

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

export function startEventConsumer(o: EventConsumerOptions): BackgroundTask {
  const parallel = o.parallel ?? 4;

  type Taken = { m: JsMsg; event: EventToStore };

  /** Stores a batch in one statement, starts the attempts it leased, then acks every message. */
  async function store(batch: Taken[]): Promise<void> {
    const room = await o.worker.reserve(batch.length);
    let outcomes: IntakeOutcome[];
    try {
      outcomes = await ingestEvents(
        o.sql,
        batch.map((b) => b.event),
        { maxAttempts: o.maxAttempts, room, perEndpoint: o.perEndpoint, leaseMs: o.leaseMs },
      );
    } catch (err) {
      for (let i = 0; i < room; i++) o.worker.startReserved(undefined);
      // One event that cannot be stored must not hold up the others: each again on its own.
      if (batch.length > 1) {
        for (const b of batch) await store([b]);
        return;
      }
      o.log.warn({ err, eventId: batch[0]!.event.id }, 'could not store event; it will be redelivered');
      batch[0]!.m.nak(1000);
      return;
    }
    crashPoint('webhooks.ingest.after-commit');
    // The reserved places are handed over before anything here can throw.
    let started = 0;
    for (const outcome of outcomes) {
      if (outcome.stored !== 'started') continue;
      o.worker.startReserved(outcome.attempt);
      started++;
    }
    for (let i = started; i < room; i++) o.worker.startReserved(undefined);
    if (outcomes.some((x) => x.stored === 'waiting')) o.worker.noteWaiting();
    for (const b of batch) b.m.ack();
  }

  const batches = new IntakeBatches<Taken>({
    store,
    idOf: (b) => b.event.id,
    parallel,
    maxBatch: MAX_BATCH,
    onError: (err) => o.log.warn({ err }, 'an intake batch failed; its messages not acknowledged come again (the insert dedupes)'),
  });

  const intake = startDurableConsumer({
    name: 'events consumer',
    nc: o.nc,
    consumer: {
      stream: eventsStreamName(o.prefix),
      name: webhooksConsumerName(o.prefix),
      filterSubject: eventsWildcard(o.prefix),
      ackWaitMs: ACK_WAIT_MS,
      maxAckPending: 1000,
      replicas: o.replicas,
    },
    ensureStream: () => ensureEventsStream(o.nc, o.prefix, o.replicas),
    maxMessages: 64,
    onMessage: async (m) => {
      const event = parseEventMessage(m);
      if (typeof event === 'string') {
        o.log.error({ subject: m.subject, seq: m.seq, problem: event }, 'unusable event message dropped');
        m.term(event);
        return;
      }
      noteEventOrigin(event.id);
      batches.add({ m, event });
      await batches.room();
    },
    log: o.log,
  });

  return {
    name: 'events consumer',
    problem: intake.problem,
    async stop() {
      await intake.stop();
      // Everything taken is stored and acknowledged while the connection is still open.
      await batches.settle();
    },
  };
}
