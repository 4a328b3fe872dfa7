// Players found through the entities (the ORM): by externalId in a brand, our team's search, and
// the KYC queue.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { KycStatus } from '@bo/contracts';
import type { ListPosition } from '@bo/service-kit';
import { PlayerEntity, type PlayerRow } from '../../store/index.ts';

export async function playersByExternalId(em: EntityManager, brandId: string, externalId: string): Promise<PlayerRow[]> {
  return em.find(PlayerEntity, { brandId, externalId });
}

/** Exact matches only: an id, an externalId, a CPF (punctuation ignored) or an e-mail (any case); newest first, at most 50. */
export async function searchPlayers(em: EntityManager, q: string): Promise<PlayerRow[]> {
  const digits = q.replace(/[.\-\s]/g, '');
  const or: object[] = [{ id: q }, { externalId: q }];
  if (/^[0-9]{11}$/.test(digits)) or.push({ cpf: digits });
  if (q.includes('@')) or.push({ email: { $ilike: q.replace(/[\\%_]/g, (c) => `\\${c}`) } });
  return em.find(PlayerEntity, { $or: or }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 50 });
}

/** A page of the players in a KYC status, newest change first, after `after`; `limit + 1` rows (the extra says more follow). */
export async function kycQueuePage(em: EntityManager, status: KycStatus, limit: number, after?: ListPosition): Promise<PlayerRow[]> {
  const at = after ? new Date(after.at) : undefined;
  return em.find(
    PlayerEntity,
    after ? { kycStatus: status, $or: [{ kycUpdatedAt: { $lt: at } }, { kycUpdatedAt: at, id: { $lt: after.id } }] } : { kycStatus: status },
    { orderBy: { kycUpdatedAt: 'desc', id: 'desc' }, limit: limit + 1 },
  );
}
