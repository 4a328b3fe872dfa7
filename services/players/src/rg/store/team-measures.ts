// The measures our team took from a player's harm case (issue #68), kept under the compliance
// service's measure id in the transaction that applies one: the same measure is applied once.
import type { EntityManager } from '@mikro-orm/postgresql';
import { TeamMeasureEntity } from '../../store/index.ts';

/**
 * Keeps the measure as applied now; false when it was kept before (asked again: nothing to do). Under
 * the player's row lock, which the caller holds: two askings of one measure do not both see it new.
 */
export async function claimTeamMeasure(tx: EntityManager, m: { measureId: string; playerId: string; caseId: string; measure: string }): Promise<boolean> {
  if (await tx.findOne(TeamMeasureEntity, { id: m.measureId })) return false;
  tx.create(TeamMeasureEntity, { id: m.measureId, playerId: m.playerId, caseId: m.caseId, measure: m.measure, appliedAt: new Date() });
  return true;
}
