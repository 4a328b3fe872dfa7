// Idempotency keys are kept 24 h (docs/decisions.md), in the services as at the gateway: a
// service forgets its stored answers (processed_requests) and the keys it remembers on its own
// rows once they are older than IDEMPOTENCY_TTL_SECONDS. After that a reused key is a new
// request everywhere, as Stripe does; money stays safe through the domain's own uniqueness (a
// deposit's externalReference, a move's rows), which is never forgotten.
import type { Logger } from './log.ts';
import { startLoop } from './loop.ts';
import type { SqlRunner } from './sql.ts';

/** The index the expiry walks, oldest first (an append-mostly btree: cheap beside the key's own). */
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

export interface KeyExpiryOptions {
  sql: SqlRunner;
  schema: string;
  ttlSeconds: number;
  intervalMs: number;
  log: Pick<Logger, 'warn'>;
  /** Keys the service remembers on its own rows, forgotten on the same clock; true when more are waiting. */
  forgetRowKeys?(olderThanSeconds: number, batch: number): Promise<boolean>;
  batch?: number;
}

/** The loop that forgets expired keys, in batches so that one pass never holds many rows. */
export function startKeyExpiry(o: KeyExpiryOptions): () => Promise<void> {
  const batch = o.batch ?? 1000;
  const loop = startLoop({
    name: 'forgetting expired idempotency keys',
    intervalMs: o.intervalMs,
    log: o.log,
    startNow: false,
    run: async () => {
      // Row keys first: a key whose answer were gone but whose row still named it would be
      // answered from the row, neither a replay nor a new request.
      if (await o.forgetRowKeys?.(o.ttlSeconds, batch)) return true;
      return (await deleteExpiredStoredAnswers(o.sql, o.schema, o.ttlSeconds, batch)) === batch;
    },
  });
  return () => loop.stop();
}
