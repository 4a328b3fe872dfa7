// Players found through the entities (the ORM): by externalId in a brand, our team's search, and
// the KYC queue.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment, KycStatus } from '@bo/contracts';
import type { ListPosition } from '@bo/service-kit';
import { PlayerEntity, type PlayerRow } from '../../store/index.ts';

export async function playersByExternalId(em: EntityManager, brandId: string, externalId: string): Promise<PlayerRow[]> {
  return em.find(PlayerEntity, { brandId, externalId });
}

/** What our team's search narrows to: one environment (the console shows production unless asked), one operator. */
export interface SearchScope {
  environment?: Environment;
  operatorId?: string;
}

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * An id, an externalId, a CPF (punctuation ignored) or an e-mail (any case) exactly; and, from three
 * characters, a name containing the words typed (any case, issue #61: a person picks a player by name);
 * newest first, at most 50.
 */
export async function searchPlayers(em: EntityManager, q: string, scope: SearchScope = {}): Promise<PlayerRow[]> {
  const digits = q.replace(/[.\-\s]/g, '');
  const or: object[] = [{ id: q }, { externalId: q }];
  if (/^[0-9]{11}$/.test(digits)) or.push({ cpf: digits });
  if (q.includes('@')) or.push({ email: { $ilike: escapeLike(q) } });
  else if (q.length >= 3) or.push({ name: { $ilike: `%${escapeLike(q).replace(/\s+/g, '%')}%` } });
  const where = {
    $or: or,
    ...(scope.environment ? { environment: scope.environment } : {}),
    ...(scope.operatorId ? { operatorId: scope.operatorId } : {}),
  };
  return em.find(PlayerEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 50 });
}

/** A page of the players in a KYC status, newest change first, after `after`; `limit + 1` rows (the extra says more follow). */
export async function kycQueuePage(em: EntityManager, status: KycStatus, limit: number, after?: ListPosition, environment?: Environment): Promise<PlayerRow[]> {
  const at = after ? new Date(after.at) : undefined;
  const base = { kycStatus: status, ...(environment ? { environment } : {}) };
  return em.find(PlayerEntity, after ? { ...base, $or: [{ kycUpdatedAt: { $lt: at } }, { kycUpdatedAt: at, id: { $lt: after.id } }] } : base, {
    orderBy: { kycUpdatedAt: 'desc', id: 'desc' },
    limit: limit + 1,
  });
}
