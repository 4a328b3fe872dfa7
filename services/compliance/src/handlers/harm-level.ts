// The operator's signed read of its player's level of risk of gambling harm (issue #68,
// docs/player-protection.md): the level with every marker behind it, never a bare score. Only the
// key's own brand's players exist here (players.state answers another brand's as unknown).
import { AppError, PLAYER_STATE_SUBJECT, type harmOperations, type PlayerState } from '@bo/contracts';
import { isoTime, operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { harmLevelOf } from '../store/harm.ts';

export function getPlayerHarmLevel(deps: ServiceDeps): HandlerOf<typeof harmOperations.getPlayerHarmLevel> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { playerId } = req.params;
    const player = await deps.call<PlayerState>(PLAYER_STATE_SUBJECT, { brandId: scope.brandId, playerId }, req.ctx);
    if (!player.exists) throw new AppError('PLAYER_NOT_FOUND');
    const kept = await harmLevelOf(deps.sql, playerId, scope.environment);
    return {
      status: 200,
      body: kept
        ? { playerId, level: kept.level, score: kept.score, markers: kept.markers, assessedOn: kept.assessedOn, updatedAt: isoTime(kept.updatedAt) }
        : { playerId, level: 'none', score: 0, markers: [], assessedOn: null, updatedAt: null },
    };
  };
}
