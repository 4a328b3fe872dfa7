// players.get (GET /players/{playerId}): one player, always within the caller's brand (another
// brand's player is indistinguishable from an unknown one).
import type { playerOperations } from '@bo/contracts';
import { operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { requirePlayer } from '../../store/index.ts';
import { toPlayer } from '../domain/player-views.ts';

export function getPlayer(deps: ServiceDeps): HandlerOf<typeof playerOperations.getPlayer> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const player = await requirePlayer(deps.orm.em.fork(), { id: req.params.playerId, brandId: scope.brandId });
    return { status: 200, body: toPlayer(player) };
  };
}
