// games.play.round (gateway launch page, POST /play/:token/rounds): plays one round of a built-in
// game. The outcome is drawn here (crypto random), never by the page. Demo rounds move only the
// session's fictitious balance (demo-round.ts); real rounds move the player's money through the
// ledger (real-round.ts). Both record the round in one transaction holding the session row lock,
// so concurrent clicks on one session are serialised and a clientRoundId is played at most once.
import { AppError, gamePlayMessages, validationError } from '@bo/contracts';
import { type HandlerOf, internalScopeOf, parseInput } from '@bo/service-kit';
import { checkRoundInput, type BuiltInKind } from '../domain/rounds.ts';
import { firstLook } from '../store/round-records.ts';
import type { GamesContext } from './context.ts';
import { verifyLaunchToken } from './play-session.ts';
import { roundReply } from './round-reply.ts';
import { playDemoRound } from './demo-round.ts';
import { playRealRound } from './real-round.ts';

/**
 * games.play.round with its body checked by the handler, after the launch token: a forged or
 * expired link is refused (403/410) before the body is looked at.
 */
export const playRoundMessage = { ...gamePlayMessages.round, body: undefined };

export function playRound(ctx: GamesContext): HandlerOf<typeof playRoundMessage> {
  return async (req) => {
    internalScopeOf(req);
    const { token } = req.params;
    // A forged or expired link is refused before the body is even looked at.
    const sessionId = verifyLaunchToken(ctx, token);
    const input = parseInput(gamePlayMessages.round.body, req.body, 'body');

    // A first look, without locks: which game and mode, and whether this click was played already.
    // The round's own transaction looks again under the session lock.
    const look = await firstLook(ctx.deps.sql, sessionId, input.clientRoundId);
    if (look.gameKind === 'external') throw new AppError('GAME_NOT_FOUND', 'This game is played at its provider, not on this page.');
    const kind = look.gameKind as BuiltInKind;
    if (look.prior) return roundReply(look.prior, { id: look.gameId });
    const issues = checkRoundInput(kind, input);
    if (issues.length > 0) throw validationError('body', issues);

    return look.mode === 'real'
      ? playRealRound(ctx, { token, kind, input, sessionId, session: look, requestId: req.ctx.requestId })
      : playDemoRound(ctx, { token, kind, input, session: look, requestId: req.ctx.requestId });
  };
}
