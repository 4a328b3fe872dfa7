// Transactional outbox: a service writes its domain event in the same transaction as the change;
// the relay publishes pending rows to JetStream with msgID = event id (so a re-send after a crash
// between publish and mark is dropped by JetStream's duplicate window) and marks them published.
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import {
  EVENT_HEADERS,
  eventSubject,
  eventsStreamName,
  eventsWildcard,
  internalEventsWildcard,
  internalStreamName,
  newId,
  type DomainEvent,
  type Environment,
  type EventDataByType,
  type EventType,
} from '@bo/contracts';
import { crashPoint } from './crash.ts';
import { startLoop } from './loop.ts';
import type { Logger } from './log.ts';
import type { Sql, SqlRunner } from './sql.ts';

export function outboxTableSql(schema: string): string {
  return `create table if not exists "${schema}".outbox (
    seq bigserial primary key,
    event_id text not null unique,
    subject_type text not null,
    environment text not null,
    operator_id text not null,
    brand_id text not null,
    payload text not null,
    created_at timestamptz not null default now(),
    published_at timestamptz
  );
  create index if not exists outbox_pending on "${schema}".outbox (seq) where published_at is null`;
}

export interface EventRouting {
  operatorId: string;
  brandId: string;
  environment: Environment;
}

/** A new event and its outbox row's values, for a caller that inserts it within its own statement. */
export function newOutboxEvent<T extends EventType>(
  routing: EventRouting,
  type: T,
  data: EventDataByType[T],
): { event: DomainEvent<T>; columns: string; values: unknown[] } {
  const event: DomainEvent<T> = { id: newId('event'), type, createdAt: new Date().toISOString(), environment: routing.environment, data };
  return {
    event,
    columns: 'event_id, subject_type, environment, operator_id, brand_id, payload',
    values: [event.id, type, routing.environment, routing.operatorId, routing.brandId, JSON.stringify(event)],
  };
}

/** Writes an event into the outbox inside the caller's transaction; returns the event. */
export async function writeEvent<T extends EventType>(
  tx: SqlRunner,
  schema: string,
  routing: EventRouting,
  type: T,
  data: EventDataByType[T],
): Promise<DomainEvent<T>> {
  const row = newOutboxEvent(routing, type, data);
  await tx.query(`insert into "${schema}".outbox (${row.columns}) values (?, ?, ?, ?, ?, ?)`, row.values);
  return row.event;
}

/** The events stream (what operators are sent): file storage, a 2-minute duplicate window for msgID dedupe. */
export function ensureEventsStream(nc: NatsConnection, prefix: string, replicas = 1): Promise<void> {
  return ensureStream(nc, eventsStreamName(prefix), eventsWildcard(prefix), replicas);
}

/** The internal events stream (between our services, never sent to operators), kept like the events stream. */
export function ensureInternalStream(nc: NatsConnection, prefix: string, replicas = 1): Promise<void> {
  return ensureStream(nc, internalStreamName(prefix), internalEventsWildcard(prefix), replicas);
}

async function ensureStream(nc: NatsConnection, name: string, subjects: string, replicas: number): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name,
    subjects: [subjects],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    duplicate_window: 120_000_000_000,
    max_age: 7 * 24 * 3600 * 1_000_000_000,
    num_replicas: replicas,
  };
  try {
    await jsm.streams.info(name);
  } catch {
    try {
      await jsm.streams.add(config);
    } catch (e) {
      // Another replica may have created it in the meantime.
      await jsm.streams.info(name).catch(() => {
        throw e;
      });
    }
  }
}

export interface OutboxRelay {
  poke(): void;
  stop(): Promise<void>;
  drainOnce(): Promise<number>;
}

const BATCH = 100;

interface OutboxRow {
  seq: string;
  event_id: string;
  subject_type: string;
  environment: string;
  operator_id: string;
  brand_id: string;
  payload: string;
}

export function startOutboxRelay(opts: {
  sql: Sql;
  schema: string;
  nc: NatsConnection;
  prefix: string;
  log: Logger;
  pollMs?: number;
  service: string;
  /** Where a row is published: the operators' events stream by default (`<prefix>.events.<env>.<type>`). */
  subjectOf?: (row: { environment: string; subject_type: string }) => string;
}): OutboxRelay {
  const subjectOf = opts.subjectOf ?? ((row) => eventSubject(opts.prefix, row.environment, row.subject_type));
  const js: JetStreamClient = jetstream(opts.nc);

  async function publishBatch(): Promise<number> {
    // Two statements, no transaction (begin, lock and commit were half of the relay's round trips).
    // Nothing is locked: two relays that read the same rows publish them twice, and JetStream's
    // duplicate window (msgID = event id) keeps one; the consumer dedupes by event id as well.
    const rows = await opts.sql.query<OutboxRow>(
      `select seq, event_id, subject_type, environment, operator_id, brand_id, payload from "${opts.schema}".outbox
       where published_at is null order by seq limit ${BATCH}`,
    );
    if (rows.length === 0) return 0;
    // Published together (JetStream keeps their order on this connection), acknowledged, then marked.
    await Promise.all(
      rows.map((row) => {
        const h = natsHeaders();
        h.set(EVENT_HEADERS.operatorId, row.operator_id);
        h.set(EVENT_HEADERS.brandId, row.brand_id);
        return js.publish(subjectOf(row), row.payload, { msgID: row.event_id, headers: h });
      }),
    );
    crashPoint(`${opts.service}.outbox.after-publish`);
    await opts.sql.query(`update "${opts.schema}".outbox set published_at = now() where seq = any(?::bigint[])`, [rows.map((r) => r.seq)]);
    return rows.length;
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await publishBatch();
      total += n;
      if (n < BATCH) return total;
    }
  }

  // Woken after each commit that wrote an event, and polling as the safety net.
  const loop = startLoop({
    name: `${opts.service} outbox relay`,
    intervalMs: opts.pollMs ?? 250,
    log: opts.log,
    run: async () => (await publishBatch()) === BATCH,
  });
  return { poke: loop.poke, drainOnce: drain, stop: loop.stop };
}
