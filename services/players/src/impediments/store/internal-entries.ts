// Our internal impediments list's entries through the entities (the ORM): our team's list and a put.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListPosition } from '@bo/service-kit';
import { InternalImpedimentEntity, type InternalImpedimentRow } from '../../store/index.ts';

/** A page of the list (one CPF with `cpf`), newest first, after `after`; `limit + 1` rows (the extra says more follow). */
export async function listEntries(em: EntityManager, cpf: string | undefined, limit: number, after?: ListPosition): Promise<InternalImpedimentRow[]> {
  const at = after ? new Date(after.at) : undefined;
  return em.find(
    InternalImpedimentEntity,
    {
      ...(cpf ? { cpf } : {}),
      ...(after ? { $or: [{ addedAt: { $lt: at } }, { addedAt: at, cpf: { $lt: after.id } }] } : {}),
    },
    { orderBy: [{ addedAt: 'desc' }, { cpf: 'desc' }], limit: limit + 1 },
  );
}

export async function findEntry(tx: EntityManager, cpf: string): Promise<InternalImpedimentRow | null> {
  return tx.findOne(InternalImpedimentEntity, { cpf });
}

/** The entry filed: `existing` replaced, or a new one; written at the caller's flush. */
export function fileEntry(
  tx: EntityManager,
  existing: InternalImpedimentRow | null,
  cpf: string,
  filed: Pick<InternalImpedimentRow, 'category' | 'note' | 'addedBy' | 'addedAt'>,
): InternalImpedimentRow {
  return existing ? Object.assign(existing, filed) : tx.create(InternalImpedimentEntity, { cpf, ...filed });
}
