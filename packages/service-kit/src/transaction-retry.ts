// A database connection lost under a statement (the primary switched to its standby, a node lost,
// a backend terminated) is retried here when that cannot double an effect, and left to the serve
// loop's 503 otherwise (docs/operations.md, "Postgres: a switch of primary"):
// - a connection that could not be had sent nothing: taking one is tried again, for every
//   statement and transaction;
// - a transaction whose connection died under it, COMMIT included, is run again WHOLE on a new
//   connection when it is declared idempotent (TransactionOptions); Postgres rolled back what it
//   had not committed, so nothing is ever half-written either way;
// - a statement sent on its own (autocommit) is never sent again: whether it committed is unknown.
import type { Pool, PoolClient } from 'pg';
import { isDependencyUnavailable, isUnavailable as isNatsUnavailable } from '@bo/contracts';

export interface TransactionOptions {
  /**
   * Running the whole function again after its connection was lost cannot double an effect: its
   * only effects are its statements, and a run after a commit whose acknowledgement was lost finds
   * what the first run committed (the answer stored under the request's key, a row keyed by the
   * move it makes) instead of writing it again. Such a transaction is run again on a new
   * connection; any other fails as unavailable (503, the caller retries with its key).
   */
  idempotent?: boolean;
}

/** Waits between attempts: about 2 s in all, inside the gateway's RPC timeout, long enough for a switch of primary. */
const RETRY_DELAYS_MS = [50, 100, 200, 400, 600, 800];

/** Whether `err` is the database being unreachable or going away (not NATS). */
export function isDatabaseUnavailable(err: unknown): boolean {
  return !isNatsUnavailable(err) && isDependencyUnavailable(err);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `run` until it succeeds, fails otherwise than with the database unavailable, or `retry(err)` says no; bounded. */
export async function retryWhileUnavailable<T>(run: () => Promise<T>, retry: (err: unknown) => boolean = () => true): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isDatabaseUnavailable(err) || !retry(err)) throw err;
      await sleep(delay);
    }
  }
}

/** A connection from the pool; taking one is retried while the database is away (nothing was sent yet). */
export function acquire(pool: Pool): Promise<PoolClient> {
  return retryWhileUnavailable(() => pool.connect());
}

/** Runs `once` (one whole transaction on a fresh connection), again on a lost connection when `opts.idempotent`. */
export function retryTransaction<T>(once: () => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
  return opts.idempotent ? retryWhileUnavailable(once) : once();
}
