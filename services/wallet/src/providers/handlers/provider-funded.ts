// Issue #59 item 1: what a provider funds (docs/providers.md, "Free bets, promotions and jackpots"):
//   wallet.provider.freeBet      a free bet or free round: nothing is taken from the player; the
//                                round is the provider's, its wins are FREE_BET_WIN
//   wallet.provider.promoCredit  a tournament prize, a promo win, a cash-back (PROMO_CREDIT) or free
//                                rounds' winnings (FREE_BET_WIN), with no bet
//   wallet.provider.jackpotWin   a jackpot prize (JACKPOT_WIN), with the round whose bet won it when given
// Each idempotent on the provider's transaction id like every provider call (the same id answers
// the first answer; another call under it is TRANSACTION_CONFLICT). Under Brazil's rules (br-spa),
// Lei 14.790/2023 art. 29 I forbids any advance, bonus or advantage given before a bet: a free bet
// (and free rounds' winnings) is refused with BONUS_FORBIDDEN; a prize after a bet of the player
// (a tournament the player entered by betting, a promotion's prize, a cash-back on losses, a jackpot
// its bet won) is accepted, and refused with BONUS_FORBIDDEN when the player has no bet with the provider.
import {
  AppError,
  newId,
  type PlayerState,
  type ProviderFreeBet,
  type ProviderJackpotWin,
  type ProviderPromoCredit,
  type ProviderScope,
  type ProviderTransactionResult,
  type providerOperations,
  validationError,
} from '@bo/contracts';
import { compareMoney, crashPoint, playerStatesOf, providerScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { ensureProviderClearingAccount } from '../../ledger/index.ts';
import { assertPlayerExists, assertPlayerMayPlay, hashSessionToken } from '../../games/index.ts';
import type { CallShape } from '../domain/transactions.ts';
import { postFreeBet, postMove, type CreditPosting } from '../store/postings.ts';
import { findSession, launchedPlayer, playerHasBet } from '../store/reads.ts';
import type { ProvidersContext } from './context.ts';
import { answer, roundOfPlayer, settled, TakenMeanwhile } from './settle.ts';

type Answer = ProviderTransactionResult;

/** Brazil's rules: an advantage before a bet is forbidden (docs/providers.md, "Under Brazil's rules"). */
const forbidden = (why: string, details: Record<string, unknown> = {}) =>
  new AppError('BONUS_FORBIDDEN', why, { ...details, legalBasis: 'Lei 14.790/2023, art. 29, I' });

const isBrSpa = (state: PlayerState) => state.rg?.profile === 'br-spa';

/** A bet of the player (paid, not a free bet, received) with this provider in this environment, before now. */
async function hasBet(ctx: ProvidersContext, scope: ProviderScope, playerId: string, roundId?: string): Promise<boolean> {
  return playerHasBet(ctx.deps.sql, { providerId: scope.providerId, playerId, environment: scope.environment, roundId });
}

async function freeBet(
  ctx: ProvidersContext,
  scope: ProviderScope,
  body: ProviderFreeBet,
  requestId: string,
  session: NonNullable<Awaited<ReturnType<typeof findSession>>>,
): Promise<Answer> {
  const now = ruleClock.now();
  if (session.expiresAt.getTime() <= now.getTime()) throw new AppError('SESSION_TOKEN_EXPIRED', undefined, { expiredAt: session.expiresAt.toISOString() });
  if (body.currency !== session.currency) throw new AppError('CURRENCY_MISMATCH', undefined, { currency: session.currency });
  if (!session.providerEnabled) throw new AppError('PROVIDER_DISABLED');
  if (!session.operatorEnabled) throw new AppError('PROVIDER_NOT_ENABLED');
  if (!session.betGame) throw new AppError('GAME_NOT_FOUND', `The provider has no game ${body.gameCode} in our catalogue.`);
  if (!session.betGame.enabled) throw new AppError('GAME_DISABLED');
  if (!(await ctx.operators.isActive(session.operatorId, requestId))) throw new AppError('OPERATOR_SUSPENDED');
  const state = await playerStatesOf(ctx.deps).get(session.brandId, session.playerId, { requestId });
  assertPlayerExists(state);
  assertPlayerMayPlay(state, now);
  if (isBrSpa(state)) throw forbidden('A free bet or free round is an advantage given before a bet: Brazil forbids it.', { rewardId: body.rewardId ?? null });
  const posting = {
    id: newId('providerTransaction'),
    providerId: scope.providerId,
    environment: scope.environment,
    transactionId: body.transactionId,
    roundId: body.roundId,
    brandId: session.brandId,
    playerId: session.playerId,
    currency: session.currency,
    roundKind: session.providerKind === 'sportsbook' ? ('sports' as const) : ('casino' as const),
    operatorId: session.operatorId,
    gameId: session.betGame.id,
    gameCode: body.gameCode,
    amount: body.amount,
    campaignId: body.rewardId ?? null,
    at: now,
  };
  crashPoint('wallet.provider.freeBet.before-post');
  const posted = await postFreeBet(ctx.deps.sql, posting);
  crashPoint('wallet.provider.freeBet.after-commit');
  return { ...answer({ ...posting, kind: 'free_bet' }, '0.00', posted) };
}

export function providerFreeBet(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerFreeBet> {
  return async (req) => {
    const scope = providerScopeOf(req);
    const b = req.body;
    // The token names the player (an expired session's too: a retry of a free bet taken is answered as it was).
    const session = await findSession(ctx.deps.sql, scope.providerId, scope.environment, hashSessionToken(b.token), b.gameCode, ruleClock.now());
    if (!session) throw new AppError('SESSION_TOKEN_INVALID');
    const call: CallShape = {
      kind: 'free_bet',
      environment: scope.environment,
      playerId: session.playerId,
      roundId: b.roundId,
      requested: `-${b.amount}`,
      currency: b.currency,
      gameCode: b.gameCode,
    };
    try {
      return { status: 200, body: await settled(ctx, scope.providerId, b.transactionId, call, () => freeBet(ctx, scope, b, req.ctx.requestId, session)) };
    } catch (e) {
      // A round that is not a free round of this player (closed, another player's, or paid by the player).
      if (e instanceof Error && e.message === 'must:round') {
        throw new AppError('ROUND_CLOSED', 'The round is closed, or is not a free round of this player.', { roundId: b.roundId });
      }
      throw e;
    }
  };
}

/** The player's brand and currency with this provider, and their state (for Brazil's rules). */
async function creditedPlayer(ctx: ProvidersContext, scope: ProviderScope, playerId: string, currency: string, requestId: string) {
  const account = await launchedPlayer(ctx.deps.sql, scope.providerId, scope.environment, playerId);
  if (!account) throw new AppError('PLAYER_NOT_FOUND', 'This provider never had a session of this player.', { playerId });
  if (account.currency !== currency) throw new AppError('CURRENCY_MISMATCH', undefined, { currency: account.currency });
  const state = await playerStatesOf(ctx.deps).get(account.brandId, playerId, { requestId });
  assertPlayerExists(state);
  return { ...account, state };
}

async function creditOf(ctx: ProvidersContext, move: CreditPosting): Promise<Answer> {
  const posted = await postMove(ctx.deps.sql, move);
  if (!posted) throw new TakenMeanwhile('taken');
  crashPoint(`wallet.provider.${move.kind === 'jackpot_win' ? 'jackpotWin' : 'promoCredit'}.after-commit`);
  return answer(move, move.amount, posted);
}

async function promoCredit(ctx: ProvidersContext, scope: ProviderScope, body: ProviderPromoCredit, requestId: string): Promise<Answer> {
  const { brandId, currency, state } = await creditedPlayer(ctx, scope, body.playerId, body.currency, requestId);
  const freeRounds = body.promotionType === 'free_round_winnings';
  if (isBrSpa(state)) {
    if (freeRounds) throw forbidden("Free rounds' winnings come from an advantage given before a bet: Brazil forbids it.", { promotionId: body.promotionId });
    if (!(await hasBet(ctx, scope, body.playerId)))
      throw forbidden('A promotional credit is accepted only as a prize after a bet of the player: this player has no bet with you.', {
        promotionId: body.promotionId,
      });
  }
  return creditOf(ctx, {
    id: newId('providerTransaction'),
    kind: 'promo_credit',
    providerId: scope.providerId,
    environment: scope.environment,
    transactionId: body.transactionId,
    roundId: body.promotionId,
    brandId,
    playerId: body.playerId,
    currency,
    requested: body.amount,
    amount: body.amount,
    providerFunded: true,
    campaignId: body.promotionId,
    promotionType: body.promotionType,
    ...(body.gameCode === undefined ? {} : { gameCode: body.gameCode }),
    ...(freeRounds ? { ledgerType: 'FREE_BET_WIN' as const } : {}),
    at: ruleClock.now(),
    clearingAccountId: await ensureProviderClearingAccount(ctx.deps.sql, brandId, scope.providerId, currency),
  });
}

async function jackpotWin(ctx: ProvidersContext, scope: ProviderScope, body: ProviderJackpotWin, requestId: string): Promise<Answer> {
  const { brandId, currency, state } = await creditedPlayer(ctx, scope, body.playerId, body.currency, requestId);
  // The round whose bet won it: the player's, whatever its status (a jackpot is paid after the round settles too).
  const round = body.roundId === undefined ? undefined : await roundOfPlayer(ctx, scope, body.roundId, body.playerId, body.currency);
  if (isBrSpa(state)) {
    const byBet = round ? round.funding === 'player' : await hasBet(ctx, scope, body.playerId);
    if (!byBet)
      throw forbidden('A jackpot prize is accepted only when a bet of the player won it.', { jackpotId: body.jackpotId, roundId: body.roundId ?? null });
  }
  return creditOf(ctx, {
    id: newId('providerTransaction'),
    kind: 'jackpot_win',
    providerId: scope.providerId,
    environment: scope.environment,
    transactionId: body.transactionId,
    roundId: body.roundId ?? body.jackpotId,
    brandId,
    playerId: body.playerId,
    currency,
    requested: body.amount,
    amount: body.amount,
    providerFunded: true,
    campaignId: body.jackpotId,
    at: ruleClock.now(),
    clearingAccountId: await ensureProviderClearingAccount(ctx.deps.sql, brandId, scope.providerId, currency),
  });
}

export function providerPromoCredit(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerPromoCredit> {
  return async (req) => {
    const scope = providerScopeOf(req);
    const b = req.body;
    const call: CallShape = {
      kind: 'promo_credit',
      environment: scope.environment,
      playerId: b.playerId,
      roundId: b.promotionId,
      requested: b.amount,
      currency: b.currency,
      ...(b.gameCode === undefined ? {} : { gameCode: b.gameCode }),
    };
    return { status: 200, body: await settled(ctx, scope.providerId, b.transactionId, call, () => promoCredit(ctx, scope, b, req.ctx.requestId)) };
  };
}

export function providerJackpotWin(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerJackpotWin> {
  return async (req) => {
    const scope = providerScopeOf(req);
    const b = req.body;
    const call: CallShape = {
      kind: 'jackpot_win',
      environment: scope.environment,
      playerId: b.playerId,
      roundId: b.roundId ?? b.jackpotId,
      requested: b.amount,
      currency: b.currency,
    };
    return { status: 200, body: await settled(ctx, scope.providerId, b.transactionId, call, () => jackpotWin(ctx, scope, b, req.ctx.requestId)) };
  };
}

/** A bet's jackpot contribution: at most its amount (422 VALIDATION_ERROR at /jackpotContribution otherwise). */
export function assertContribution(amount: string, contribution: string | undefined): void {
  if (contribution !== undefined && compareMoney(contribution, amount) > 0)
    throw validationError(
      'body',
      [{ path: '/jackpotContribution', message: 'must be at most the amount' }],
      "A jackpot contribution is part of the bet's stake: at most its amount.",
    );
}
