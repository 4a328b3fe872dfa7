// games.play.owner (gateway launch page): the operator whose session a launch token names.
// Operators and their suspension live in the gateway, which checks the operator's status itself
// before every page and round; the token and the session row live here. The answer never changes
// for a token, so the gateway asks once per token.
import { AppError, type gamePlayMessages } from '@bo/contracts';
import { type HandlerOf, internalScopeOf } from '@bo/service-kit';
import type { GamesContext } from './context.ts';
import { sessionOperatorId } from '../store/round-records.ts';
import { verifyLaunchToken } from './play-session.ts';

export function playOwner(ctx: GamesContext): HandlerOf<typeof gamePlayMessages.owner> {
  return async (req) => {
    internalScopeOf(req);
    const sessionId = verifyLaunchToken(ctx, req.params.token);
    const operatorId = await sessionOperatorId(ctx.deps.sql, sessionId);
    if (!operatorId) throw new AppError('LAUNCH_TOKEN_INVALID');
    return { status: 200, body: { sessionId, operatorId } };
  };
}
