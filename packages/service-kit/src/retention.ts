// What a service keeps only for a while, and the loop that deletes it once its time is past (every
// RETENTION_INTERVAL_MS, in batches, so that one pass never holds many rows):
// - idempotency keys, kept 24 h (docs/decisions.md) by the owning services (the edge's key claims
//   expire in NATS KV on the same clock): the stored answers (processed_requests) and the keys a
//   service remembers on its own rows, older than IDEMPOTENCY_TTL_SECONDS. After that a reused key is a new request everywhere, as Stripe does;
//   what still dedupes is the domain's own uniqueness, never forgotten (a deposit's
//   externalReference, the wallet's effects keyed by the payment id; docs/architecture.md);
// - published outbox rows, older than OUTBOX_RETENTION_SECONDS: the events live on in JetStream
//   and in the webhooks service's log; the outbox only has to hold what is not published yet;
// - rows a service keeps for a while on its own clock (the webhooks' event log, 30 days).
import type { Logger } from './log.ts';
import { startLoop } from './loop.ts';
import type { SqlRunner } from './sql.ts';

/** The index the key expiry walks, oldest first (an append-mostly btree: cheap beside the key's own). */
export function processedRequestsExpiryIndexSql(schema: string): string {
  return `create index if not exists processed_requests_by_age on "${schema}".processed_requests (created_at)`;
}

/** Deletes at most `batch` stored answers older than `ttlSeconds`; returns how many it deleted. */
export async function deleteExpiredStoredAnswers(sql: SqlRunner, schema: string, ttlSeconds: number, batch: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with d as (delete from "${schema}".processed_requests where ctid = any(array(
       select ctid from "${schema}".processed_requests where created_at < now() - make_interval(secs => ?) order by created_at limit ?))
     returning 1)
     select count(*)::int as n from d`,
    [ttlSeconds, batch],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Deletes the published rows, written more than `retentionSeconds` ago, among the `batch` oldest
 * rows of the outbox; returns how many. No index of its own: rows are numbered in the order they
 * were written (`seq`, the key), so the oldest are the first entries of the key, and a pass reads
 * no more than `batch` of them however long the outbox is. An unpublished row is never deleted
 * (the relay has not published it yet) and is looked past.
 */
export async function deletePublishedOutboxRows(sql: SqlRunner, schema: string, retentionSeconds: number, batch: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with oldest as (select seq, created_at, published_at from "${schema}".outbox order by seq limit ?),
     d as (delete from "${schema}".outbox o using oldest where o.seq = oldest.seq
             and oldest.published_at is not null and oldest.created_at < now() - make_interval(secs => ?) returning 1)
     select count(*)::int as n from d`,
    [batch, retentionSeconds],
  );
  return rows[0]?.n ?? 0;
}

export interface RetentionOptions {
  sql: SqlRunner;
  schema: string;
  idempotencyTtlSeconds: number;
  outboxRetentionSeconds: number;
  intervalMs: number;
  log: Pick<Logger, 'warn'>;
  /** Keys the service remembers on its own rows, forgotten on the keys' clock; true when more are waiting. */
  forgetRowKeys?(olderThanSeconds: number, batch: number): Promise<boolean>;
  /** Rows of the service's own kept only for a while, on its own clock; true when more are waiting. */
  deleteExpiredRows?(batch: number): Promise<boolean>;
  batch?: number;
}

/** The loop that deletes what is past its time; returns its stop. */
export function startRetention(o: RetentionOptions): () => Promise<void> {
  const batch = o.batch ?? 1000;
  const loop = startLoop({
    name: 'deleting expired keys, published outbox rows and expired rows',
    intervalMs: o.intervalMs,
    log: o.log,
    startNow: false,
    run: async () => {
      // Row keys first: a key whose answer were gone but whose row still named it would be
      // answered from the row, neither a replay nor a new request.
      if (await o.forgetRowKeys?.(o.idempotencyTtlSeconds, batch)) return true;
      const answers = await deleteExpiredStoredAnswers(o.sql, o.schema, o.idempotencyTtlSeconds, batch);
      const published = await deletePublishedOutboxRows(o.sql, o.schema, o.outboxRetentionSeconds, batch);
      const ownRowsWaiting = (await o.deleteExpiredRows?.(batch)) ?? false;
      return answers === batch || published === batch || ownRowsWaiting;
    },
  });
  return () => loop.stop();
}
