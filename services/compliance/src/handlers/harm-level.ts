// The operator's signed read of its player's level of risk of gambling harm (issue #68,
// docs/player-protection.md): the level with every marker behind it, never a bare score. Only the
// key's own brand's players exist here (players.state answers another brand's as unknown).
import {
  AppError,
  PLAYER_STATE_SUBJECT,
  type harmOperations,
  type OperatorScope,
  type PlayerHarmLevel,
  type PlayerState,
  type RequestContext,
} from '@bo/contracts';
import { isoTime, operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { harmLevelOf } from '../store/harm.ts';

/** Refuses a player the key's brand does not have (unknown, or another brand's) with 404. */
export async function requireBrandPlayer(deps: Pick<ServiceDeps, 'call'>, scope: OperatorScope, playerId: string, ctx: RequestContext): Promise<void> {
  const player = await deps.call<PlayerState>(PLAYER_STATE_SUBJECT, { brandId: scope.brandId, playerId }, ctx);
  if (!player.exists) throw new AppError('PLAYER_NOT_FOUND');
}

/** The player's kept level as the operator reads it: `none` with no markers for a player never assessed above it. */
export async function harmLevelView(deps: Pick<ServiceDeps, 'sql'>, scope: OperatorScope, playerId: string): Promise<PlayerHarmLevel> {
  const kept = await harmLevelOf(deps.sql, playerId, scope.environment);
  return kept
    ? { playerId, level: kept.level, score: kept.score, markers: kept.markers, assessedOn: kept.assessedOn, updatedAt: isoTime(kept.updatedAt) }
    : { playerId, level: 'none', score: 0, markers: [], assessedOn: null, updatedAt: null };
}

export function getPlayerHarmLevel(deps: ServiceDeps): HandlerOf<typeof harmOperations.getPlayerHarmLevel> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    await requireBrandPlayer(deps, scope, req.params.playerId, req.ctx);
    return { status: 200, body: await harmLevelView(deps, scope, req.params.playerId) };
  };
}
