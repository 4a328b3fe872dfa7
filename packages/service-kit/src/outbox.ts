// Transactional outbox: a service writes its domain event in the same transaction as the change;
// the relay publishes pending rows to JetStream with msgID = event id (so a re-send after a crash
// between publish and mark is dropped by JetStream's duplicate window) and marks them published.
// When tracing is on, the trace context (and request id) of the handling that wrote an event goes
// with its message as headers, from this process's memory (TraceOrigins): an event published by
// another process (after a crash, by another replica's relay) starts a trace of its own.
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import {
  EVENT_HEADERS,
  eventSubject,
  eventsStreamName,
  eventsWildcard,
  internalEventSubject,
  internalEventsWildcard,
  isEventType,
  internalStreamName,
  newId,
  type DomainEvent,
  type Environment,
  type EventDataByType,
  type EventType,
} from '@bo/contracts';
import { crashPoint } from './crash.ts';
import { ensureStreamReplicas } from './nats.ts';
import { startLoop } from './loop.ts';
import type { Logger } from './log.ts';
import { REQUEST_ID_HEADER, TraceOrigins, traceHeaders, withSpanFrom } from './telemetry.ts';
import { SpanKind } from '@opentelemetry/api';
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

/** An outbox row as the relay publishes it. */
export interface OutboxRow {
  event_id: string;
  subject_type: string;
  environment: string;
  operator_id: string;
  brand_id: string;
  payload: string;
}

const OUTBOX_COLUMNS = 'event_id, subject_type, environment, operator_id, brand_id, payload';

/** Where each event written in this process came from (trace context, request id), until it is published. */
const origins = new TraceOrigins();

/** A new event and its outbox row. */
function newOutboxRow<T extends EventType>(routing: EventRouting, type: T, data: EventDataByType[T]): { event: DomainEvent<T>; row: OutboxRow } {
  const event: DomainEvent<T> = { id: newId('event'), type, createdAt: new Date().toISOString(), environment: routing.environment, data };
  return { event, row: outboxRowOf(routing, type, event) };
}

/** The outbox row of an event (its id and type are the row's); notes where the event came from. */
function outboxRowOf(routing: EventRouting, type: string, event: { id: string }): OutboxRow {
  origins.note(event.id);
  return {
    event_id: event.id,
    subject_type: type,
    environment: routing.environment,
    operator_id: routing.operatorId,
    brand_id: routing.brandId,
    payload: JSON.stringify(event),
  };
}

const valuesOf = (row: OutboxRow): unknown[] => [row.event_id, row.subject_type, row.environment, row.operator_id, row.brand_id, row.payload];

/** Writes an event into the outbox inside the caller's transaction; returns the event. */
export async function writeEvent<T extends EventType>(
  tx: SqlRunner,
  schema: string,
  routing: EventRouting,
  type: T,
  data: EventDataByType[T],
): Promise<DomainEvent<T>> {
  const { event, row } = newOutboxRow(routing, type, data);
  await tx.query(`insert into "${schema}".outbox (${OUTBOX_COLUMNS}) values (?, ?, ?, ?, ?, ?)`, valuesOf(row));
  return event;
}

/**
 * Writes an internal event (between our services, never sent to operators: `{ id, type, createdAt,
 * data }`) into the outbox inside the caller's transaction; the relay publishes it to the
 * internal stream (`<prefix>.internal.<type>`).
 */
export async function writeInternalEvent(tx: SqlRunner, schema: string, routing: EventRouting, type: string, data: unknown): Promise<void> {
  const event = { id: newId('event'), type, createdAt: new Date().toISOString(), data };
  await tx.query(`insert into "${schema}".outbox (${OUTBOX_COLUMNS}) values (?, ?, ?, ?, ?, ?)`, valuesOf(outboxRowOf(routing, type, event)));
}

/**
 * `writeEvent` inside a caller's single statement (a CTE, `o as (${insert.text})`): the event's
 * outbox row is inserted once per row of `from` (a CTE of that statement), so not at all when the
 * change matched nothing. `row` is what to hand to `publishCommitted` once the statement committed.
 */
export function eventInsertFrom<T extends EventType>(
  schema: string,
  from: string,
  routing: EventRouting,
  type: T,
  data: EventDataByType[T],
): { event: DomainEvent<T>; row: OutboxRow; text: string; params: unknown[] } {
  const { event, row } = newOutboxRow(routing, type, data);
  return {
    event,
    row,
    text: `insert into "${schema}".outbox (${OUTBOX_COLUMNS}) select ?, ?, ?, ?, ?, ? from ${from} returning 1`,
    params: valuesOf(row),
  };
}

/** The events stream (what operators are sent): file storage, a 2-minute duplicate window for msgID dedupe. */
export function ensureEventsStream(nc: NatsConnection, prefix: string, replicas: number): Promise<void> {
  return ensureStream(nc, eventsStreamName(prefix), eventsWildcard(prefix), replicas);
}

/** The internal events stream (between our services, never sent to operators), kept like the events stream. */
export function ensureInternalStream(nc: NatsConnection, prefix: string, replicas: number): Promise<void> {
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
  const exists = await jsm.streams.info(name).then(
    () => true,
    () => false,
  );
  if (exists) return ensureStreamReplicas(nc, name, replicas);
  try {
    await jsm.streams.add(config);
  } catch (e) {
    // Another replica may have created it in the meantime.
    await jsm.streams.info(name).catch(() => {
      throw streamCreateError(name, e);
    });
  }
}

/**
 * The server's refusal to create a stream with everything it said: a clean-clone run once failed here
 * with a JetStream API error whose message was empty. The error stays the cause, so a "not now"
 * (isUnavailable) is still waited out.
 */
function streamCreateError(name: string, e: unknown): Error {
  const api = e as { message?: string; code?: unknown; status?: unknown; apiError?: () => unknown };
  const said = typeof api.apiError === 'function' ? JSON.stringify(api.apiError()) : String(api.message ?? e);
  return new Error(`creating the stream ${name} was refused: ${api.message || '(no description)'}; the server said ${said}`, { cause: e });
}

export interface OutboxRelay {
  /** Wake the relay: rows were committed that it should publish. */
  poke(): void;
  /**
   * Publish rows the caller has just committed, now, instead of waking the relay to read them
   * back: marked published in batches once acknowledged. A row that fails to publish is left to
   * the relay (poked), so the outbox is still the only source of truth.
   */
  publishCommitted(rows: OutboxRow[]): void;
  stop(): Promise<void>;
  drainOnce(): Promise<number>;
  /** For readiness: why its last pass failed, until one succeeds again. */
  problem(): string | undefined;
}

const BATCH = 100;

export function startOutboxRelay(opts: {
  sql: Sql;
  schema: string;
  nc: NatsConnection;
  prefix: string;
  log: Logger;
  pollMs?: number;
  /** While nothing is found, the polls slow down to one per this (a poke after each commit still publishes at once). */
  idleMaxMs?: number;
  service: string;
  /** Where a row is published: by default an event type to the operators' events stream (`<prefix>.events.<env>.<type>`), any other type to the internal stream. */
  subjectOf?: (row: { environment: string; subject_type: string }) => string;
}): OutboxRelay {
  const subjectOf =
    opts.subjectOf ??
    ((row) =>
      isEventType(row.subject_type) ? eventSubject(opts.prefix, row.environment, row.subject_type) : internalEventSubject(opts.prefix, row.subject_type));
  const js: JetStreamClient = jetstream(opts.nc);

  function publish(row: OutboxRow) {
    const h = natsHeaders();
    h.set(EVENT_HEADERS.operatorId, row.operator_id);
    h.set(EVENT_HEADERS.brandId, row.brand_id);
    const origin = origins.get(row.event_id);
    if (!origin) return js.publish(subjectOf(row), row.payload, { msgID: row.event_id, headers: h });
    // A producer span in the trace of the handling that wrote the event; its context rides along.
    const subject = subjectOf(row);
    return withSpanFrom(
      `publish ${subject}`,
      SpanKind.PRODUCER,
      origin,
      async () => {
        for (const [k, v] of Object.entries(traceHeaders())) h.set(k, v);
        if (origin[REQUEST_ID_HEADER]) h.set(REQUEST_ID_HEADER, origin[REQUEST_ID_HEADER]);
        const ack = await js.publish(subject, row.payload, { msgID: row.event_id, headers: h });
        origins.forget(row.event_id);
        return ack;
      },
      {
        'messaging.system': 'nats',
        'messaging.destination.name': subject,
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'publish',
        'messaging.message.id': row.event_id,
        'bo.event_id': row.event_id,
      },
    );
  }

  // Rows published directly, from publish until their mark commits: the relay leaves them alone.
  const direct = new Set<string>();
  let toMark: string[] = [];
  let marking: Promise<void> | undefined;

  /**
   * One statement marks every row acknowledged since the last one (a mark per event was a round trip per event).
   * The rows are found by their keys alone and `published_at` is checked on the locked rows, behind a
   * materialized CTE (a subquery let the planner push the check down): with `published_at is null` in
   * the scan's condition, a generic plan walked the `outbox_pending` partial index, which holds the
   * dead entries of every row published since the last vacuum (2,930 entries, 590 buffers for a mark
   * of 19 rows in the bench, against 34 for 3 rows by the keys).
   */
  function markSoon(): void {
    if (marking || toMark.length === 0) return;
    marking = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const ids = toMark;
      toMark = [];
      try {
        await opts.sql.query(
          `with l as materialized (select seq, published_at from "${opts.schema}".outbox where event_id = any(?::text[]) for update skip locked)
           update "${opts.schema}".outbox set published_at = now() where seq in (select seq from l where published_at is null)`,
          [ids],
        );
      } catch (err) {
        opts.log.warn({ err }, 'could not mark published events; the relay publishes them again (deduplicated)');
      } finally {
        for (const id of ids) direct.delete(id);
      }
    })().finally(() => {
      marking = undefined;
      markSoon();
    });
  }

  function publishCommitted(rows: OutboxRow[]): void {
    for (const row of rows) {
      direct.add(row.event_id);
      publish(row).then(
        () => {
          crashPoint(`${opts.service}.outbox.after-publish`);
          toMark.push(row.event_id);
          markSoon();
        },
        (err) => {
          direct.delete(row.event_id);
          opts.log.warn({ err, eventId: row.event_id }, 'direct publish failed; the relay takes the event');
          loop.poke();
        },
      );
    }
  }

  async function publishBatch(): Promise<number> {
    // Two statements, no transaction (begin, lock and commit were half of the relay's round trips).
    // Nothing is locked: two relays that read the same rows publish them twice, and JetStream's
    // duplicate window (msgID = event id) keeps one; the consumer dedupes by event id as well.
    const rows = await opts.sql.query<OutboxRow & { seq: string }>(
      `select seq, event_id, subject_type, environment, operator_id, brand_id, payload from "${opts.schema}".outbox
       where published_at is null and not (event_id = any(?::text[])) order by seq limit ${BATCH}`,
      [[...direct]],
    );
    if (rows.length === 0) return 0;
    // Published together (JetStream keeps their order on this connection), acknowledged, then marked.
    await Promise.all(rows.map(publish));
    crashPoint(`${opts.service}.outbox.after-publish`);
    // A row another mark holds (the same event published directly and by the relay) is skipped: that
    // mark sets it, and the two never wait on each other's rows (taken in different orders, they deadlocked).
    await opts.sql.query(
      `with l as materialized (select seq, published_at from "${opts.schema}".outbox where seq = any(?::bigint[]) for update skip locked)
       update "${opts.schema}".outbox set published_at = now() where seq in (select seq from l where published_at is null)`,
      [rows.map((r) => r.seq)],
    );
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

  // Woken after each commit that wrote an event, and polling as the safety net: for rows no poke
  // announced (a process that died between its commit and its publish, another replica's), slower
  // while it finds none.
  const loop = startLoop({
    name: `${opts.service} outbox relay`,
    intervalMs: opts.pollMs ?? 250,
    ...(opts.idleMaxMs ? { idleMaxMs: opts.idleMaxMs } : {}),
    log: opts.log,
    run: async () => {
      const n = await publishBatch();
      return n === BATCH ? true : n === 0 ? 'idle' : false;
    },
  });
  return {
    poke: loop.poke,
    publishCommitted,
    drainOnce: drain,
    problem: loop.problem,
    async stop() {
      await loop.stop();
      await marking;
    },
  };
}
