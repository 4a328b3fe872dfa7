// A br-spa player's registration data as the rule reads it (docs/players.md, "Registration data"):
// what is missing (fields, and the loss and time limits in force), and its announcement to the
// operator: `player.registration_incomplete` when what is missing changes (what it said is kept on the
// row, `registration_announced`), `player.registration_completed` once nothing is (Portaria SPA/MF
// 1.231/2024 art. 34 sole paragraph: the player is restricted until then). In the caller's transaction,
// on the player's locked row; PATCH /players/{playerId} and the announcing loop (registration-notices.ts) both use it.
import { limitsInForce, type RegistrationItem } from '@bo/contracts';
import { sqlIn, writeEvent, type ServiceDeps } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayerRow } from '../../store/index.ts';
import { complianceOf, limitRows, rgRules } from '../../rg/index.ts';
import { missingItems, sameValue } from '../domain/registration.ts';

/** Under br-spa, what the player's registration lacks; undefined under `off` (nothing is required). */
export async function registrationMissingOf(em: EntityManager, player: PlayerRow, now: Date): Promise<RegistrationItem[] | undefined> {
  const compliance = await complianceOf(em, player.operatorId);
  if (compliance.profile !== 'br-spa') return undefined;
  const rules = rgRules(player, compliance, await limitRows(em, player.id), now);
  const inForce = new Set((['loss', 'time'] as const).filter((t) => limitsInForce(rules, t, now).length > 0));
  return missingItems(player, inForce);
}

/**
 * Tells the operator what changed since the last announcement, if anything: returns whether it wrote
 * an event. `missing` as registrationMissingOf answered on this locked row.
 */
export async function announceRegistration(
  tx: EntityManager,
  deps: Pick<ServiceDeps, 'schema'>,
  player: PlayerRow,
  missing: readonly RegistrationItem[],
): Promise<boolean> {
  const routing = { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment };
  if (missing.length > 0) {
    if (sameValue(player.registrationAnnounced, missing)) return false;
    player.registrationAnnounced = [...missing];
    await tx.flush();
    await writeEvent(sqlIn(tx), deps.schema, routing, 'player.registration_incomplete', {
      playerId: player.id,
      externalId: player.externalId,
      missing: [...missing],
    });
    return true;
  }
  if (player.registrationAnnounced == null) return false;
  player.registrationAnnounced = null;
  await tx.flush();
  await writeEvent(sqlIn(tx), deps.schema, routing, 'player.registration_completed', { playerId: player.id, externalId: player.externalId });
  return true;
}
