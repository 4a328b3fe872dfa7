// games.sessions.endForPlayer: the end of a self-excluded player's open game sessions, asked by
// the players service before the self-exclusion is answered.
import type { endPlayerSessionsMessages } from '@bo/contracts';
import { internalScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { endOpenSessions } from '../store/round-records.ts';
import type { GamesContext } from './context.ts';

export function endPlayerSessions(ctx: GamesContext): HandlerOf<typeof endPlayerSessionsMessages.end> {
  return async (req) => {
    internalScopeOf(req);
    return { status: 200, body: { ended: await endOpenSessions(ctx.deps.sql, req.body.brandId, req.body.playerId, ruleClock.now()) } };
  };
}
