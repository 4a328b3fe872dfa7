// players.get (GET /players/{playerId}): one player, always within the caller's brand (another
// brand's player is indistinguishable from an unknown one), with its marketing permission and, under
// br-spa, what its registration still lacks.
import type { playerOperations } from '@bo/contracts';
import { operatorScopeOf, ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { requirePlayer } from '../../store/index.ts';
import { toPlayer } from '../domain/player-views.ts';
import { registrationMissingOf } from './registration.ts';

export function getPlayer(deps: ServiceDeps): HandlerOf<typeof playerOperations.getPlayer> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const em = deps.orm.em.fork();
    const player = await requirePlayer(em, { id: req.params.playerId, brandId: scope.brandId });
    const now = ruleClock.now();
    return { status: 200, body: toPlayer(player, now, await registrationMissingOf(em, player, now)) };
  };
}
