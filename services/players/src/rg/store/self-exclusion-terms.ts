// The fixed self-exclusion terms that have run out, and the player row locked to end one: the entities (the ORM).
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { PlayerEntity, type PlayerRow } from '../../store/index.ts';

/**
 * The ids of at most `limit` players whose fixed term ran out by `now`, in id order, whatever their
 * status (one that a freeze, an impediment restriction or a closed account holds ends too, and leaves it).
 */
export async function runOutTerms(em: EntityManager, now: Date, limit: number): Promise<Array<Pick<PlayerRow, 'id'>>> {
  return em.find(PlayerEntity, { selfExcludedSince: { $ne: null }, selfExcludedUntil: { $lte: now } }, { fields: ['id'], limit, orderBy: { id: 'asc' } });
}

/** The player, locked (`select … for update`); null when absent. */
export async function lockedPlayerOrNull(tx: EntityManager, id: string): Promise<PlayerRow | null> {
  return tx.findOne(PlayerEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}
