// players.find (GET /players?externalId=): at most one player, always within the caller's brand.
import type { playerOperations } from '@bo/contracts';
import { ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { playersByExternalId } from '../store/player-search.ts';
import { toPlayer } from '../domain/player-views.ts';
import { registrationMissingOf } from './registration.ts';
import { operatorScopeOf } from '@bo/service-kit';

export function findPlayers(deps: ServiceDeps): HandlerOf<typeof playerOperations.findPlayers> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const em = deps.orm.em.fork();
    const rows = await playersByExternalId(em, scope.brandId, req.query.externalId);
    const now = ruleClock.now();
    return { status: 200, body: { data: await Promise.all(rows.map(async (r) => toPlayer(r, now, await registrationMissingOf(em, r, now)))) } };
  };
}
