// players.find (GET /players?externalId=): at most one player, always within the caller's brand.
import type { playerOperations } from '@bo/contracts';
import type { HandlerOf, ServiceDeps } from '@bo/service-kit';
import { PlayerEntity } from '../store/entities.ts';
import { toPlayer } from '../domain/player-views.ts';
import { operatorScopeOf } from '@bo/service-kit';

export function findPlayers(deps: ServiceDeps): HandlerOf<typeof playerOperations.findPlayers> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const rows = await deps.orm.em.fork().find(PlayerEntity, { brandId: scope.brandId, externalId: req.query.externalId });
    return { status: 200, body: { data: rows.map(toPlayer) } };
  };
}
