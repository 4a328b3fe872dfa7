// A player's risk level and its history (compliance.player_risk, compliance.player_risk_history), as
// our team reads them. The watch raises the level in SQL (watch.ts, raiseRisk). Entities only.
import type { RiskLevel } from '@bo/contracts';
import { ormInOneSnapshot } from '@bo/service-kit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { PlayerRiskEntity, PlayerRiskHistoryEntity } from './entities.ts';

export interface PlayerRiskRecord {
  /** Null: never raised (low). */
  level: RiskLevel | null;
  history: Array<{ level: RiskLevel; reason: string; by: string; at: Date }>;
}

/** The level and its history in one snapshot: a raise committed meanwhile shows in both or in neither. */
export function playerRiskOf(orm: MikroORM, playerId: string): Promise<PlayerRiskRecord> {
  return ormInOneSnapshot(orm, async (em) => {
    const row = await em.findOne(PlayerRiskEntity, { playerId });
    const history = await em.find(PlayerRiskHistoryEntity, { playerId }, { orderBy: { id: 'asc' } });
    return { level: row?.level ?? null, history };
  });
}
