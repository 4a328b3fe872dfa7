// A player's registration data changes and marketing consent changes: each kept (append-only), and
// read newest first (our team's file).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RegistrationChange } from '@bo/contracts';
import { RegistrationChangeEntity, type RgChangeBy } from '../../store/index.ts';

/** One field's change: its value before and after, who (with the request id) and when. */
export interface RegistrationChangeInput {
  playerId: string;
  field: string;
  oldValue: unknown;
  newValue: unknown;
  by: RgChangeBy;
  actor: string | null;
  requestId: string | null;
  at: Date;
}

/** The change's row, written at the caller's flush (in its transaction, with the change itself). */
export function recordRegistrationChange(tx: EntityManager, change: RegistrationChangeInput): void {
  tx.create(RegistrationChangeEntity, change);
}

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
