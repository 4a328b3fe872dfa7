// games.play.round (gateway launch page, POST /play/:token/rounds): plays one round of a built-in
// game. The outcome is drawn here (crypto random) and recorded with the balance it produced, in
// one transaction holding the session row lock, so concurrent clicks are serialised and the
// demo balance can never go negative. Demo rounds move only the session's fictitious balance.
import { AppError, PlayRoundInputSchema, newId, validationError, type PlayParams } from '@bo/contracts';
import { compareMoney, formatMoney, subMoney, addMoney, type Handler, internalScopeOf, parseInput } from '@bo/service-kit';
import { GameRoundEntity } from '../persistence/entities.ts';
import { checkRoundInput, decideRound, type BuiltInKind } from '../domain/rounds.ts';
import { toRoundResult } from '../domain/views.ts';
import type { GamesContext } from './context.ts';
import { openSessionByToken, verifyLaunchToken, REAL_PLAY_NOTICE } from './play-session.ts';

export function playRound(ctx: GamesContext): Handler {
  return async (req) => {
    internalScopeOf(req);
    const token = (req.params as Partial<PlayParams>)?.token;
    // A forged or expired link is refused before the body is even looked at.
    verifyLaunchToken(ctx, token);
    const input = parseInput(PlayRoundInputSchema, req.body, 'body');

    return ctx.deps.orm.em.fork().transactional(async (tx) => {
      const { session, game } = await openSessionByToken(ctx, tx, token, { lock: true });
      if (game.kind === 'external') throw new AppError('GAME_NOT_FOUND', 'This game is played at its provider, not on this page.');
      const kind = game.kind as BuiltInKind;

      if (input.clientRoundId) {
        // A retried click: the round already played is the answer, nothing is drawn again.
        const prior = await tx.findOne(GameRoundEntity, { sessionId: session.id, clientRoundId: input.clientRoundId });
        if (prior) return { status: 201, body: toRoundResult(prior, game.id) };
      }
      const issues = checkRoundInput(kind, input);
      if (issues.length > 0) throw validationError('body', issues);
      if (session.mode === 'real' || session.demoBalance == null) throw new AppError('REAL_PLAY_UNAVAILABLE', REAL_PLAY_NOTICE);

      const amount = formatMoney(input.amount);
      const before = formatMoney(session.demoBalance);
      if (compareMoney(amount, before) > 0) {
        throw new AppError('INSUFFICIENT_FUNDS', 'The bet is larger than the session balance.', { balance: before });
      }
      const decision = decideRound(kind, input, ctx.rng);
      const after = addMoney(subMoney(before, amount), decision.payout);
      const [{ seq }] = await tx.execute<{ seq: number }[]>(
        'select coalesce(max(seq), 0) + 1 as seq from wallet.game_rounds where session_id = ?', [session.id]);
      const round = tx.create(GameRoundEntity, {
        id: newId('gameRound'), sessionId: session.id, seq: Number(seq), clientRoundId: input.clientRoundId ?? null,
        amount, payout: decision.payout, win: decision.win, outcome: decision.outcome,
        balanceBefore: before, balanceAfter: after, createdAt: new Date(),
      });
      session.demoBalance = after;
      await tx.flush();
      return { status: 201, body: toRoundResult(round, game.id) };
    });
  };
}
