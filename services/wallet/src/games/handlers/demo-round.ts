// A demo (sandbox) round: the bet and payout move only the session's fictitious balance, in one
// transaction holding the session row lock, so that balance can never go negative. It never
// touches the wallet's accounts or ledger (a database trigger refuses a demo round with entries).
// The player is re-checked first, as for real money: a blocked or self-excluded player does not
// play on, not even with fictitious money.
import { AppError, newId } from '@bo/contracts';
import { addMoney, compareMoney, crashPoint, formatMoney, subMoney, type HandlerResult } from '@bo/service-kit';
import { decideRound } from '../domain/rounds.ts';
import { addDemoRound, findPriorRound } from '../store/session-rows.ts';
import type { GamesContext } from './context.ts';
import { openSessionByToken } from './play-session.ts';
import { assertStillMayPlay } from './player-check.ts';
import { builtInKindOf, roundReply, type RoundRequest } from './round-reply.ts';

export async function playDemoRound(
  ctx: GamesContext,
  { token, kind, input, session: player, requestId }: RoundRequest & { session: { brandId: string; playerId: string }; requestId: string },
): Promise<HandlerResult> {
  // Outside the transaction: no session lock waits on the players service.
  await assertStillMayPlay(ctx, player, requestId);
  const out = await ctx.deps.orm.em.fork().transactional(async (tx) => {
    const { session, game } = await openSessionByToken(ctx, tx, token, { lock: true });
    builtInKindOf(game);
    const prior = await findPriorRound(tx, session.id, input);
    if (prior) return { reply: roundReply(prior, game), fresh: false };
    if (session.mode !== 'demo' || session.demoBalance == null) throw new Error(`session ${session.id} is not a demo session`);

    const amount = formatMoney(input.amount);
    const before = formatMoney(session.demoBalance);
    if (compareMoney(amount, before) > 0) {
      throw new AppError('INSUFFICIENT_FUNDS', 'The bet is larger than the session balance.', { balance: before });
    }
    const decision = decideRound(kind, input, ctx.rng);
    const after = addMoney(subMoney(before, amount), decision.payout);
    const round = await addDemoRound(tx, session, after, {
      id: newId('gameRound'),
      sessionId: session.id,
      seq: ++session.roundsPlayed,
      clientRoundId: input.clientRoundId ?? null,
      amount,
      payout: decision.payout,
      win: decision.win,
      outcome: decision.outcome,
      balanceBefore: before,
      balanceAfter: after,
      betEntryId: null,
      winEntryId: null,
      createdAt: new Date(),
    });
    return { reply: roundReply(round, game), fresh: true };
  });
  if (out.fresh) crashPoint('wallet.round.after-commit');
  return out.reply;
}
