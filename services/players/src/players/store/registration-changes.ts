// A player's registration data changes and marketing consent changes, newest first (our team's file).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RegistrationChange } from '@bo/contracts';
import { RegistrationChangeEntity } from '../../store/index.ts';

export async function registrationChangesOf(em: EntityManager, playerId: string): Promise<RegistrationChange[]> {
  const rows = await em.find(RegistrationChangeEntity, { playerId }, { orderBy: { at: 'desc', id: 'desc' }, limit: 200 });
  return rows.map((r) => ({
    field: r.field,
    oldValue: r.oldValue ?? null,
    newValue: r.newValue ?? null,
    by: r.by,
    actor: r.actor ?? null,
    requestId: r.requestId ?? null,
    at: r.at.toISOString(),
  }));
}
