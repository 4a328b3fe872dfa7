// What the money flows need from the running service.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceDeps } from '@bo/service-kit';

export type FlowDeps = Pick<ServiceDeps, 'orm' | 'call' | 'outbox' | 'log'>;

/** Runs `fn` in a transaction and wakes the outbox relay after the commit. */
export async function inTransaction<T>(deps: FlowDeps, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
  const out = await deps.orm.em.fork().transactional(fn);
  deps.outbox.poke();
  return out;
}
