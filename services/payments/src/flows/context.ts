// What the money flows need from the running service.
import type { ServiceDeps, SqlRunner } from '@bo/service-kit';

export type FlowDeps = Pick<ServiceDeps, 'sql' | 'call' | 'outbox' | 'log'>;

/** Runs `fn` in a transaction and wakes the outbox relay after the commit. */
export async function inTransaction<T>(deps: FlowDeps, fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
  const out = await deps.sql.transaction(fn);
  deps.outbox.poke();
  return out;
}
