// What the money flows need from the running service, and payments' stored answers.
import { answersIn, type ServiceDeps, type SqlRunner } from '@bo/service-kit';

/**
 * The kit's effect-kept answers and intent rule bound to the schema `payments` (the kit's
 * idempotency/): `findStored`, `storeResponse`, `runOnce` (plain SQL), `recordIntent`.
 */
export const answers = answersIn('payments');

export type FlowDeps = Pick<ServiceDeps, 'sql' | 'call' | 'outbox' | 'log'>;

/** Runs `fn` in a transaction and wakes the outbox relay after the commit. */
export async function inTransaction<T>(deps: FlowDeps, fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
  const out = await deps.sql.transaction(fn);
  deps.outbox.poke();
  return out;
}
