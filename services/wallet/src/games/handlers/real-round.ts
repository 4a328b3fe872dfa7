// A real-money round: ONE statement that moves the player's money under their account's row lock
// (the stake checked against `available − held` on the locked row), posts BET (and WIN) against
// the brand's game-clearing account (appended, never locked) and records the round naming its
// entries (store/game-round.ts). The commit makes the round and its money durable together; a
// retry with the same clientRoundId finds the round and returns it, never a second debit
// (docs/games.md, docs/money.md). The draw happens before the statement and is kept only if the
// statement writes it. The statement also re-reads the session's end: a session ended after the
// handler's first look is not played on. A round of a player with responsible-gaming limits (or
// under br-spa) is also checked against the usage of its periods, on the same row
// (docs/responsible-gaming.md).
import { isAppError, newId, validationError, type Environment, type RgRules } from '@bo/contracts';
import { crashPoint, ruleClock, uniqueViolation, type HandlerResult } from '@bo/service-kit';
import { playerAccountId, stakeableNow } from '../../ledger/index.ts';
import { checkRoundLimits, needsRoundGuard, recordActivity, roundLimitsOf, seedCounters } from '../../rg/index.ts';
import { decideRound, insufficientFunds } from '../domain/rounds.ts';
import { gameClearingAccount, postRealRound, type RealRound } from '../store/game-round.ts';
import { assertSessionOpenAt, findRoundByClientId } from '../store/round-records.ts';
import type { GamesContext } from './context.ts';
import { announceLimitReached } from './limit-reached.ts';
import { assertStillMayPlay } from './player-check.ts';
import { roundReply, type RoundRequest } from './round-reply.ts';

/**
 * A round of a player with limits. First as one statement checked against the counters on the
 * player's row (the rg module's counters). When it writes nothing, again in one transaction under the
 * row's lock: the page's activity counted, the counters seeded from wallet.rg_usage (a new period,
 * or counters left uncounted), the limits checked with the usage they return (a refusal names
 * its limit, and still commits the activity: the time was played), then the same statement. A
 * round that still writes nothing was not posted for a reason the caller tells.
 */
async function guardedRound(ctx: GamesContext, rules: RgRules, round: RealRound): Promise<{ balanceAfter: string } | undefined> {
  const limits = roundLimitsOf(rules, round.createdAt);
  const fast = await postRealRound(ctx.deps.sql, round, limits, ctx.rounds);
  if (fast) return fast;
  const outcome = await ctx.deps.sql.transaction(async (tx) => {
    const accountId = playerAccountId(round.brandId, round.playerId, round.currency);
    if ((await recordActivity(tx, accountId, round.createdAt)) === undefined) return { posted: undefined };
    const usage = await seedCounters(tx, accountId, limits.timeZone, round.createdAt);
    try {
      checkRoundLimits(rules, usage, round.amount, round.createdAt);
    } catch (e) {
      if (isAppError(e) && e.code === 'RG_BLOCKED') return { refused: e };
      throw e;
    }
    // A death here rolls the transaction back: neither the activity nor the seeded counters survive.
    crashPoint('wallet.round.limits-checked');
    return { posted: await postRealRound(tx, round, limits) };
  });
  if ('refused' in outcome) throw outcome.refused;
  return outcome.posted;
}

export async function playRealRound(
  ctx: GamesContext,
  req: RoundRequest & {
    sessionId: string;
    session: { operatorId: string; environment: Environment; brandId: string; playerId: string; currency: string; gameId: string };
    requestId: string;
  },
): Promise<HandlerResult> {
  const { kind, input, session, sessionId } = req;
  const clientRoundId = input.clientRoundId;
  if (!clientRoundId) {
    // Without it a retried request could not be told from a new bet.
    throw validationError('body', [{ path: '/clientRoundId', message: 'is required for real-money rounds' }]);
  }
  // Checked on every round, so a session never outlives a self-exclusion, a suspension or a KYC
  // revocation (players.state through the cache the players service invalidates).
  const state = await assertStillMayPlay(ctx, session, req.requestId);
  const clearingAccountId = await gameClearingAccount(ctx.deps.sql, session.brandId, session.currency);
  const game = { id: session.gameId };
  const played = async () => {
    const prior = await findRoundByClientId(ctx.deps.sql, sessionId, clientRoundId);
    return prior ? roundReply(prior, game) : undefined;
  };

  const decision = decideRound(kind, input, ctx.rng);
  const round = {
    id: newId('gameRound'),
    sessionId,
    clientRoundId,
    brandId: session.brandId,
    playerId: session.playerId,
    currency: session.currency,
    amount: input.amount,
    payout: decision.payout,
    win: decision.win,
    outcome: decision.outcome,
    createdAt: ruleClock.now(),
    clearingAccountId,
  };
  const rules = state.rg;
  const guarded = needsRoundGuard(rules, round.createdAt);
  // A death here leaves nothing: the round is one statement, written whole or not at all.
  crashPoint('wallet.round.before-post');
  let posted: { balanceAfter: string } | undefined;
  try {
    posted = guarded
      ? // The player's limits: checked on the account row the round locks, so concurrent rounds are
        // checked one after another against what committed before.
        await guardedRound(ctx, rules, round).catch((e) => announceLimitReached(ctx.deps, e, { ...session, externalId: state.externalId ?? null }))
      : await postRealRound(ctx.deps.sql, round, undefined, ctx.rounds);
  } catch (e) {
    // The same click committed while this copy waited for the player's row: its round is the answer.
    const prior = uniqueViolation(e) === 'game_rounds_session_id_client_round_id_key' ? await played() : undefined;
    if (prior) return prior;
    throw e;
  }
  if (posted) {
    // The round and its money are committed; the caller may never hear of it. A retry with the
    // same clientRoundId returns this round.
    crashPoint('wallet.round.after-commit');
    return roundReply({ ...round, balanceAfter: posted.balanceAfter }, game);
  }
  // Nothing written: this click was played already, the session has ended, or the stake is more
  // than the balance.
  const prior = await played();
  if (prior) return prior;
  await assertSessionOpenAt(ctx.deps.sql, sessionId, round.createdAt);
  throw insufficientFunds(await stakeableNow(ctx.deps.sql, session.brandId, session.playerId, session.currency));
}
