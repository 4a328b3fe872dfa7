// wallet.provider.bet (POST /provider/v1/bets). Checks in order (docs/providers.md, "Bets"):
// the transaction id (a replay answers the first answer; a conflict moves nothing: looked up when
// the bet is refused or writes nothing, so a first bet pays no extra read) → the session
// token (unknown, expired) → currency → the provider, its offer to the operator, the game → the
// operator (suspended) → the player (exists, KYC, impeded, self-excluded, paused, status) → the
// game's certificate (br-spa, production, casino: issue #59 item 5) → the money in one statement
// (available − held covers it; br-spa and players with limits: the limits, on the player's locked
// row, as our own rounds are held) → insufficient funds with the balance. The statement also moves
// the session's end on by its inactivity window (issue #59 item 4).
import {
  AppError,
  isAppError,
  newId,
  SANDBOX_PROVIDER,
  type PlayerState,
  type ProviderBet,
  type ProviderScope,
  type ProviderTransactionResult,
  type providerOperations,
  type RgRules,
} from '@bo/contracts';
import { crashPoint, playerStatesOf, providerScopeOf, ruleClock, subMoney, uniqueViolation, type HandlerOf } from '@bo/service-kit';
import { ensureProviderClearingAccount, playerAccountId, stakeableNow } from '../../ledger/index.ts';
import { announceLimitReached, assertPlayerExists, assertPlayerMayPlay, hashSessionToken } from '../../games/index.ts';
import { checkRoundLimits, needsRoundGuard, recordActivity, roundLimitsOf, seedCounters } from '../../rg/index.ts';
import { assertSameCall, toResult } from '../domain/transactions.ts';
import { failedCondition, postBet, type BetPosting } from '../store/postings.ts';
import { findBetUnderToken, findRound, findSession, type SessionStanding } from '../store/reads.ts';
import type { ProvidersContext } from './context.ts';
import { sessionKey } from './session-cache.ts';
import { sportsBetPlaced } from '../store/sports-events.ts';
import { assertContribution } from './provider-funded.ts';

/**
 * The earlier answer under this id, or undefined when the id is new (throws on a conflict). The
 * session token names the bet's player: the same id with another player's token is a conflict
 * (`differs: ["playerId"]`), never that player's answer; a token not issued to this provider
 * names no player and replays nothing (its own refusal answers).
 */
async function replayOf(ctx: ProvidersContext, scope: ProviderScope, body: ProviderBet): Promise<ProviderTransactionResult | undefined> {
  const kept = await findBetUnderToken(ctx.deps.sql, scope.providerId, scope.environment, body.transactionId, hashSessionToken(body.token));
  if (!kept || kept.tokenPlayerId === null) return undefined;
  assertSameCall(kept, {
    kind: 'bet',
    environment: scope.environment,
    playerId: kept.tokenPlayerId,
    roundId: body.roundId,
    requested: `-${body.amount}`,
    currency: body.currency,
    gameCode: body.gameCode,
  });
  return toResult(kept, true);
}

/** What a session tells of a bet by itself, from facts that never change: its expiry and currency (a kept session is checked by these alone). */
function assertLiveSession(s: SessionStanding, body: ProviderBet, now: Date): void {
  if (s.expiresAt.getTime() <= now.getTime()) throw new AppError('SESSION_TOKEN_EXPIRED', undefined, { expiredAt: s.expiresAt.toISOString() });
  if (body.currency !== s.currency) throw new AppError('CURRENCY_MISMATCH', undefined, { currency: s.currency });
}

function assertSessionTakesBets(s: SessionStanding | undefined, body: ProviderBet, now: Date): asserts s is SessionStanding {
  if (!s) throw new AppError('SESSION_TOKEN_INVALID');
  assertLiveSession(s, body, now);
  if (!s.providerEnabled) throw new AppError('PROVIDER_DISABLED');
  if (!s.operatorEnabled) throw new AppError('PROVIDER_NOT_ENABLED');
  if (!s.betGame) throw new AppError('GAME_NOT_FOUND', `The provider has no game ${body.gameCode} in our catalogue.`);
  if (!s.betGame.enabled) throw new AppError('GAME_DISABLED');
}

/**
 * The bet of a player with limits: first as one statement checked against the counters on the
 * player's row; when it writes nothing, again in one transaction under the row's lock with the
 * counters seeded from wallet.rg_usage and the limits checked (a refusal names its limit), as
 * games' real rounds do (games/handlers/real-round.ts).
 */
async function guardedBet(ctx: ProvidersContext, rules: RgRules, bet: BetPosting) {
  const limits = roundLimitsOf(rules, bet.at);
  const fast = await postBet(ctx.deps.sql, bet, limits);
  if (fast) return fast;
  const outcome = await ctx.deps.sql.transaction(async (tx) => {
    const accountId = playerAccountId(bet.brandId, bet.playerId, bet.currency);
    if ((await recordActivity(tx, accountId, bet.at)) === undefined) return { posted: undefined };
    const usage = await seedCounters(tx, accountId, limits.timeZone, bet.at);
    try {
      checkRoundLimits(rules, usage, bet.amount, bet.at);
    } catch (e) {
      if (isAppError(e) && e.code === 'RG_BLOCKED') return { refused: e };
      throw e;
    }
    return { posted: await postBet(tx, bet, limits) };
  });
  if ('refused' in outcome) throw outcome.refused;
  return outcome.posted;
}

async function placeBet(ctx: ProvidersContext, scope: ProviderScope, body: ProviderBet, requestId: string): Promise<ProviderTransactionResult> {
  const { providerId } = scope;
  const now = ruleClock.now();
  assertContribution(body.amount, body.jackpotContribution);
  const tokenHash = hashSessionToken(body.token);
  const key = sessionKey(providerId, scope.environment, tokenHash, body.gameCode);
  const readSession = async () => {
    const s = await findSession(ctx.deps.sql, providerId, scope.environment, tokenHash, body.gameCode, now);
    assertSessionTakesBets(s, body, now);
    ctx.sessions.keep(key, s);
    return s;
  };
  // A session kept from an earlier bet is not read again: its standing is checked by the bet's
  // statement (`recheck`). Any refusal after it reads the session afresh first, so a refusal of the
  // session (provider or game disabled, no longer offered) comes before the later ones, in the order above.
  const kept = ctx.sessions.get(key, now);
  const session = kept ?? (await readSession());
  const refusedAfterKept = async (e: unknown): Promise<never> => {
    if (kept) await readSession();
    throw e;
  };
  if (kept) assertLiveSession(kept, body, now);
  const state: PlayerState = await (async () => {
    if (!(await ctx.operators.isActive(session.operatorId, requestId))) throw new AppError('OPERATOR_SUSPENDED');
    const player = await playerStatesOf(ctx.deps).get(session.brandId, session.playerId, { requestId });
    assertPlayerExists(player);
    assertPlayerMayPlay(player, now);
    return player;
  })().catch(refusedAfterKept);

  // Issue #59 item 5: Brazil's rules take a production bet on a casino game only while a certificate
  // of the game is valid. A session read now says so; a kept one is checked by the bet's statement.
  const certifiedOnly = certificateRequired(state, session);
  if (certifiedOnly && !kept && !session.betGame!.certified) throw notCertified(body.gameCode);

  const bet: BetPosting = {
    id: newId('providerTransaction'),
    providerId,
    transactionId: body.transactionId,
    roundId: body.roundId,
    roundKind: session.providerKind === 'sportsbook' ? 'sports' : 'casino',
    operatorId: session.operatorId,
    brandId: session.brandId,
    environment: session.environment,
    playerId: session.playerId,
    currency: session.currency,
    gameId: session.betGame!.id,
    gameCode: body.gameCode,
    amount: body.amount,
    slip: body.slip ?? null,
    ...(body.jackpotContribution === undefined ? {} : { jackpotContribution: body.jackpotContribution }),
    at: now,
    clearingAccountId: await ensureProviderClearingAccount(ctx.deps.sql, session.brandId, providerId, session.currency),
    session: { id: session.sessionId },
    certifiedOnly,
    // The built-in sandbox provider is offered to every sandbox operator (store/reads.ts): nothing to check again.
    ...(kept ? { recheck: { sessionId: kept.sessionId, offered: providerId === SANDBOX_PROVIDER.id } } : {}),
  };
  // issue #44 item 7: a sports bet's webhook, written by the bet's own statement.
  const placed = bet.roundKind === 'sports' ? sportsBetPlaced({ ...bet, gameCode: body.gameCode }) : undefined;
  if (placed) bet.outbox = placed;
  // A death here leaves nothing: the bet is one statement, written whole or not at all.
  crashPoint('wallet.provider.bet.before-post');
  const posted = await (needsRoundGuard(state.rg, now)
    ? guardedBet(ctx, state.rg, bet).catch((e) => announceLimitReached(ctx.deps, e, { ...session, externalId: state.externalId ?? null }))
    : postBet(ctx.deps.sql, bet)
  ).catch(refusedAfterKept);
  if (posted) {
    // Committed; the provider may never hear of it. Its retry with the same id gets this answer.
    crashPoint('wallet.provider.bet.after-commit');
    if (placed) ctx.deps.outbox.publishCommitted([placed.row]);
    // The bet moved the session's end on (issue #59 item 4): the kept copy follows, so it is not read again.
    ctx.sessions.keep(key, { ...session, expiresAt: new Date(Math.max(session.expiresAt.getTime(), now.getTime() + session.idleSeconds * 1000)) });
    // The round is this player's now (the statement opened it or added to it): its win need not read it (handlers/round-facts.ts).
    ctx.rounds.keep(providerId, body.roundId, {
      environment: bet.environment,
      kind: bet.roundKind,
      brandId: bet.brandId,
      playerId: bet.playerId,
      currency: bet.currency,
      gameId: bet.gameId,
      funding: 'player',
    });
    return {
      transactionId: body.transactionId,
      kind: 'bet',
      playerId: session.playerId,
      roundId: body.roundId,
      currency: session.currency,
      // Our money's form, two decimals (issue #66 item 8: a bet of "0.5" answered "-0.5"; its replay, read from its row, "-0.50").
      moved: subMoney(0, bet.amount),
      balance: posted.balanceAfter,
      replayed: false,
      createdAt: posted.createdAt instanceof Date ? posted.createdAt.toISOString() : new Date(posted.createdAt).toISOString(),
    };
  }
  // Nothing written: the same id committed meanwhile, the session's standing changed (a kept
  // session: read afresh, it refuses), the game's certificate is not valid (br-spa), or not enough money.
  if (kept || certifiedOnly) {
    const fresh = await readSession();
    if (certifiedOnly && !fresh.betGame!.certified) throw notCertified(body.gameCode);
  }
  const prior = await replayOf(ctx, scope, body);
  if (prior) return prior;
  throw new AppError('INSUFFICIENT_FUNDS', 'The bet is larger than the balance.', {
    balance: await stakeableNow(ctx.deps.sql, session.brandId, session.playerId, session.currency),
  });
}

/** Brazil's rules (br-spa) on real money: a casino game takes bets only with a valid certificate (docs/games.md, "Certified games"). */
function certificateRequired(state: PlayerState, session: SessionStanding): boolean {
  return state.rg?.profile === 'br-spa' && session.environment === 'production' && session.providerKind === 'casino';
}

const notCertified = (gameCode: string) =>
  new AppError('GAME_NOT_CERTIFIED', `The game ${gameCode} has no certificate valid now: under Brazil's rules it takes no bets.`, { gameCode });

/** Why the round took no bet: closed, or another player's (the provider's round ids are per player). */
async function roundRefusal(ctx: ProvidersContext, providerId: string, body: ProviderBet): Promise<AppError> {
  const round = await findRound(ctx.deps.sql, providerId, body.roundId);
  if (round && round.status !== 'open' && round.status !== 'voided')
    return new AppError('ROUND_CLOSED', undefined, { roundId: body.roundId, status: round.status });
  return new AppError('TRANSACTION_CONFLICT', 'This roundId belongs to another player, brand or currency.', { roundId: body.roundId });
}

export function providerBet(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerBet> {
  return async (req) => {
    const scope = providerScopeOf(req);
    try {
      return { status: 200, body: await placeBet(ctx, scope, req.body, req.ctx.requestId) };
    } catch (e) {
      // The same id committed by a concurrent copy of this call: its answer is this one's.
      if (uniqueViolation(e) !== undefined) return { status: 200, body: (await replayOf(ctx, scope, req.body)) ?? raise(e) };
      // A retry of a bet that was taken is answered as it was, whatever would refuse it now (the
      // session expired, the player excluded since): the id is looked up only when the bet is
      // not taken now, so a first bet pays no extra read (a taken id also writes nothing: below).
      const replay = isAppError(e) || failedCondition(e) ? await replayOf(ctx, scope, req.body) : undefined;
      if (replay) return { status: 200, body: replay };
      if (failedCondition(e) === 'round') throw await roundRefusal(ctx, scope.providerId, req.body);
      throw e;
    }
  };
}

function raise(e: unknown): never {
  throw e;
}
