// A demo (sandbox) round: the bet and payout move only the session's fictitious balance, in one
// transaction holding the session row lock, so that balance can never go negative. It never
// touches the wallet's accounts or ledger (a database trigger refuses a demo round with entries).
// The player is re-checked first, as for real money: a blocked or self-excluded player does not
// play on, not even with fictitious money. A player with responsible-gaming limits (or under
// br-spa) is held to them as a real round would be, on demo play's own usage (rg
// recordDemoActivity, addDemoStake: docs/responsible-gaming.md, "Sandbox"), so the sandbox refuses
// what production would.
import { AppError, isAppError, newId, type Environment } from '@bo/contracts';
import { addMoney, compareMoney, crashPoint, formatMoney, ruleClock, sqlIn, subMoney, type HandlerResult } from '@bo/service-kit';
import { playerAccountId } from '../../ledger/index.ts';
import { addDemoStake, checkRoundLimits, needsRoundGuard, periodUsage, recordDemoActivity } from '../../rg/index.ts';
import { decideRound } from '../domain/rounds.ts';
import { addDemoRound, findPriorRound } from '../store/session-rows.ts';
import type { GamesContext } from './context.ts';
import { announceLimitReached } from './limit-reached.ts';
import { openSessionByToken } from './play-session.ts';
import { assertStillMayPlay } from './player-check.ts';
import { builtInKindOf, roundReply, type RoundRequest } from './round-reply.ts';

export async function playDemoRound(
  ctx: GamesContext,
  {
    token,
    kind,
    input,
    session: player,
    requestId,
  }: RoundRequest & { session: { operatorId: string; environment: Environment; brandId: string; playerId: string; currency: string }; requestId: string },
): Promise<HandlerResult> {
  // Outside the transaction: no session lock waits on the players service.
  const state = await assertStillMayPlay(ctx, player, requestId);
  const rules = state.rg;
  const now = ruleClock.now();
  const out = await ctx.deps.orm.em.fork().transactional(async (tx) => {
    const { session, game } = await openSessionByToken(ctx, tx, token, { lock: true });
    builtInKindOf(game);
    const prior = await findPriorRound(tx, session.id, input);
    if (prior) return { reply: roundReply(prior, game), fresh: false };
    if (session.mode !== 'demo' || session.demoBalance == null) throw new Error(`session ${session.id} is not a demo session`);

    const amount = formatMoney(input.amount);
    const usageKey = playerAccountId(session.brandId, session.playerId, session.currency);
    if (needsRoundGuard(rules, now)) {
      // The player's demo row is taken (locked) after the session's, as a real round takes the
      // account row after the session's. A refusal still commits the activity: the time was played.
      const sql = sqlIn(tx);
      await recordDemoActivity(sql, { accountId: usageKey, brandId: session.brandId, playerId: session.playerId }, now);
      const usage = await periodUsage(sql, usageKey, rules.timeZone, now, 'wallet.rg_demo_usage');
      try {
        checkRoundLimits(rules, usage, amount, now);
      } catch (e) {
        if (isAppError(e) && e.code === 'RG_BLOCKED') return { refused: e };
        throw e;
      }
    }
    const before = formatMoney(session.demoBalance);
    if (compareMoney(amount, before) > 0) {
      throw new AppError('INSUFFICIENT_FUNDS', 'The bet is larger than the session balance.', { balance: before });
    }
    const decision = decideRound(kind, input, ctx.rng);
    const after = addMoney(subMoney(before, amount), decision.payout);
    if (needsRoundGuard(rules, now)) await addDemoStake(sqlIn(tx), usageKey, now, amount, formatMoney(subMoney(amount, decision.payout)));
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
      createdAt: now,
    });
    return { reply: roundReply(round, game), fresh: true };
  });
  if ('refused' in out) return announceLimitReached(ctx.deps, out.refused, { ...player, externalId: state.externalId ?? null });
  if (out.fresh) crashPoint('wallet.round.after-commit');
  return out.reply;
}
