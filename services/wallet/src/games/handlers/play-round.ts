// games.play.round (gateway launch page, POST /play/:token/rounds): plays one round of a built-in
// game. The outcome is drawn here (crypto random), never by the page. Demo rounds move only the
// session's fictitious balance (demo-round.ts); real rounds move the player's money through the
// ledger (real-round.ts). Both record the round in one transaction holding the session row lock,
// so concurrent clicks on one session are serialised and a clientRoundId is played at most once.
import { PlayRoundInputSchema, validationError, type PlayParams } from '@bo/contracts';
import { type Handler, internalScopeOf, parseInput } from '@bo/service-kit';
import { checkRoundInput } from '../domain/rounds.ts';
import type { GamesContext } from './context.ts';
import { openSessionByToken, verifyLaunchToken } from './play-session.ts';
import { builtInKindOf, findPriorRound, roundReply } from './round-records.ts';
import { playDemoRound } from './demo-round.ts';
import { playRealRound } from './real-round.ts';

export function playRound(ctx: GamesContext): Handler {
  return async (req) => {
    internalScopeOf(req);
    const token = (req.params as Partial<PlayParams>)?.token;
    // A forged or expired link is refused before the body is even looked at.
    verifyLaunchToken(ctx, token);
    const input = parseInput(PlayRoundInputSchema, req.body, 'body');

    // A first look, without locks: which game and mode, and whether this click was played already.
    // The round's own transaction looks again under the session lock.
    const em = ctx.deps.orm.em.fork();
    const { session, game } = await openSessionByToken(ctx, em, token);
    const kind = builtInKindOf(game);
    const prior = await findPriorRound(em, session.id, input);
    if (prior) return roundReply(prior, game);
    const issues = checkRoundInput(kind, input);
    if (issues.length > 0) throw validationError('body', issues);

    return session.mode === 'real'
      ? playRealRound(ctx, { token, kind, input, session, requestId: req.ctx.requestId })
      : playDemoRound(ctx, { token, kind, input });
  };
}
