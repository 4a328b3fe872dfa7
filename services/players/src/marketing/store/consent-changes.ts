// A marketing consent's changes (players.registration_changes, field `marketingConsent`, append-only):
// who changed it and when, written at the caller's flush, in its transaction with the change itself.
import type { EntityManager } from '@mikro-orm/postgresql';
import { RegistrationChangeEntity, type RgChangeBy } from '../../store/index.ts';

export function recordConsentChange(
  tx: EntityManager,
  change: { playerId: string; oldValue: boolean; newValue: boolean; by: RgChangeBy; actor: string | null; requestId: string | null; at: Date },
): void {
  tx.create(RegistrationChangeEntity, { ...change, field: 'marketingConsent' });
}
