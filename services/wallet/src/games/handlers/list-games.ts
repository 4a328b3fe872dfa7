// games.list (GET /games): the enabled catalogue, in its display order. The catalogue is the same
// for every brand and environment.
import type { gameOperations } from '@bo/contracts';
import type { HandlerOf } from '@bo/service-kit';
import { toGame } from '../domain/views.ts';
import { enabledGames } from '../store/session-rows.ts';
import type { GamesContext } from './context.ts';

export function listGames(ctx: GamesContext): HandlerOf<typeof gameOperations.listGames> {
  return async () => {
    const rows = await enabledGames(ctx.deps.orm.em.fork());
    return { status: 200, body: { data: rows.map(toGame) } };
  };
}
