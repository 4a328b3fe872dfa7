// players.find (GET /players?externalId=): at most one player, always within the caller's brand.
import type { playerOperations } from '@bo/contracts';
import type { HandlerOf, ServiceDeps } from '@bo/service-kit';
import { playersByExternalId } from '../store/player-search.ts';
import { toPlayer } from '../domain/player-views.ts';
import { operatorScopeOf } from '@bo/service-kit';

export function findPlayers(deps: ServiceDeps): HandlerOf<typeof playerOperations.findPlayers> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const rows = await playersByExternalId(deps.orm.em.fork(), scope.brandId, req.query.externalId);
    return { status: 200, body: { data: rows.map(toPlayer) } };
  };
}
