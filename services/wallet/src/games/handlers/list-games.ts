// games.list (GET /games): the catalogue offered to the calling operator, in its display order: the
// built-in games and the enabled providers' enabled games (store/catalogue.ts).
import type { gameOperations } from '@bo/contracts';
import { operatorScopeOf, type HandlerOf } from '@bo/service-kit';
import { offeredGames } from '../store/catalogue.ts';
import type { GamesContext } from './context.ts';

export function listGames(ctx: GamesContext): HandlerOf<typeof gameOperations.listGames> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const rows = await offeredGames(ctx.deps.sql, scope.operatorId, scope.environment);
    return { status: 200, body: { data: rows } };
  };
}
