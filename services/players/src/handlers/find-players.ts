// players.find (GET /players?externalId=): at most one player, always within the caller's brand.
import { FindPlayersQuery } from '@bo/contracts';
import type { Handler, ServiceDeps } from '@bo/service-kit';
import { PlayerEntity } from '../persistence/entities.ts';
import { toPlayer } from '../domain/player-views.ts';
import { operatorScopeOf, parseInput } from '@bo/service-kit';

export function findPlayers(deps: ServiceDeps): Handler {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const query = parseInput(FindPlayersQuery, req.query, 'query');
    const rows = await deps.orm.em.fork().find(PlayerEntity, { brandId: scope.brandId, externalId: query.externalId });
    return { status: 200, body: { data: rows.map(toPlayer) } };
  };
}
