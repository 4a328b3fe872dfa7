// wallet.provider.win, .rollback and .correction: the money after a bet (docs/providers.md). They
// are accepted whatever became of the session, the player or the operator since the bet (money
// owed to a player is always paid), never for a round or bet that does not exist or is another
// player's. Each is idempotent on the provider's transaction id like a bet; a call whose round or
// bet changed between its read and its statement (`must:` failed) is read again, once more.
import {
  AppError,
  newId,
  type ProviderCorrection,
  type ProviderRollback,
  type ProviderScope,
  type ProviderTransactionResult,
  type ProviderWin,
  type providerOperations,
} from '@bo/contracts';
import { compareMoney, crashPoint, formatMoney, isoTime, providerScopeOf, ruleClock, subMoney, uniqueViolation, type HandlerOf } from '@bo/service-kit';
import { ensureProviderClearingAccount, stakeableNow } from '../../ledger/index.ts';
import { assertSameCall, toResult, type CallShape } from '../domain/transactions.ts';
import { failedCondition, postMove, postRollbackOfUnknownBet, postZeroMove, type CreditPosting, type PostedMove } from '../store/postings.ts';
import { accountOfPlayer, findRound, findTransaction, type RoundRow } from '../store/reads.ts';
import type { ProvidersContext } from './context.ts';

type Answer = ProviderTransactionResult;

/** A statement wrote nothing because what it read changed meanwhile (an id taken, a balance that fell): read again. */
class TakenMeanwhile extends Error {}

/** The earlier answer under this id (replayed), or undefined when the id is new; a conflict throws. */
async function replayOf(ctx: ProvidersContext, providerId: string, transactionId: string, call: CallShape): Promise<Answer | undefined> {
  const kept = await findTransaction(ctx.deps.sql, providerId, transactionId);
  if (!kept) return undefined;
  assertSameCall(kept, call);
  return toResult(kept, true);
}

/** The round a settlement names, only if it is this player's; its currency must be the call's. */
async function roundOfPlayer(ctx: ProvidersContext, scope: ProviderScope, roundId: string, playerId: string, currency?: string): Promise<RoundRow> {
  const round = await findRound(ctx.deps.sql, scope.providerId, roundId);
  // A round of the other environment is unknown to this key (a sandbox key never pays a production player).
  if (!round || round.playerId !== playerId || round.environment !== scope.environment) throw new AppError('ROUND_NOT_FOUND', undefined, { roundId });
  if (currency !== undefined && currency !== round.currency) throw new AppError('CURRENCY_MISMATCH', undefined, { currency: round.currency });
  return round;
}

const answer = (
  c: { transactionId: string; kind: CreditPosting['kind']; playerId: string; roundId: string; currency: string },
  moved: string,
  posted: PostedMove,
): Answer => ({
  transactionId: c.transactionId,
  kind: c.kind,
  playerId: c.playerId,
  roundId: c.roundId,
  currency: c.currency,
  moved: formatMoney(moved),
  balance: posted.balanceAfter,
  replayed: false,
  createdAt: isoTime(posted.createdAt),
});

/**
 * Runs `attempt` once more when its round or bet changed under it (a concurrent call settled or
 * rolled it back: the second reading answers what that means), and answers a concurrent copy of
 * the same call (the id's unique key) with its answer.
 */
async function settled(ctx: ProvidersContext, providerId: string, transactionId: string, call: CallShape, attempt: () => Promise<Answer>): Promise<Answer> {
  for (let tries = 0; ; tries++) {
    try {
      return (await replayOf(ctx, providerId, transactionId, call)) ?? (await attempt());
    } catch (e) {
      const again = e instanceof TakenMeanwhile || uniqueViolation(e) !== undefined || failedCondition(e) !== undefined;
      if (again && tries < 2) continue;
      throw e;
    }
  }
}

async function win(ctx: ProvidersContext, scope: ProviderScope, body: ProviderWin): Promise<Answer> {
  const { providerId } = scope;
  const round = await roundOfPlayer(ctx, scope, body.roundId, body.playerId, body.currency);
  if (round.status !== 'open') throw new AppError('ROUND_CLOSED', undefined, { roundId: body.roundId, status: round.status });
  const move: CreditPosting = {
    id: newId('providerTransaction'),
    kind: 'win',
    providerId,
    transactionId: body.transactionId,
    roundId: body.roundId,
    brandId: round.brandId,
    playerId: body.playerId,
    currency: round.currency,
    requested: body.amount,
    amount: body.amount,
    roundClosed: body.roundClosed ?? true,
    outcome: body.outcome ?? null,
    at: ruleClock.now(),
    clearingAccountId: await ensureProviderClearingAccount(ctx.deps.sql, round.brandId, providerId, round.currency),
  };
  const posted = compareMoney(body.amount, 0) === 0 ? await postZeroMove(ctx.deps.sql, move) : await postMove(ctx.deps.sql, move);
  if (!posted) throw new TakenMeanwhile('taken');
  crashPoint('wallet.provider.win.after-commit');
  return answer(move, move.amount, posted);
}

async function rollback(ctx: ProvidersContext, scope: ProviderScope, body: ProviderRollback): Promise<Answer> {
  const { providerId } = scope;
  const bet = await findTransaction(ctx.deps.sql, providerId, body.betTransactionId);
  const at = ruleClock.now();
  if (!bet) {
    // Never received (the provider gave up waiting for our answer, or it was lost): recorded as
    // cancelled, so the bet arriving later is refused (BET_ROLLED_BACK).
    const account = await accountOfPlayer(ctx.deps.sql, body.playerId);
    if (!account) throw new AppError('ROUND_NOT_FOUND', 'No such player has a wallet here.', { roundId: body.roundId });
    const c = {
      id: newId('providerTransaction'),
      providerId,
      transactionId: body.transactionId,
      roundId: body.roundId,
      playerId: body.playerId,
      at,
      ...account,
    };
    const posted = await postRollbackOfUnknownBet(ctx.deps.sql, { ...c, betTransactionId: body.betTransactionId });
    // An id taken meanwhile (this rollback's, or the bet arriving at the same moment): read again.
    if (!posted) throw new TakenMeanwhile('taken');
    return answer({ ...c, kind: 'rollback' }, '0.00', posted);
  }
  if (bet.kind !== 'bet' || bet.playerId !== body.playerId || bet.roundId !== body.roundId) {
    throw new AppError('ROUND_NOT_FOUND', 'No bet of this player and round has this betTransactionId.', { betTransactionId: body.betTransactionId });
  }
  const round = await roundOfPlayer(ctx, scope, body.roundId, body.playerId);
  const move: CreditPosting = {
    id: newId('providerTransaction'),
    kind: 'rollback',
    providerId,
    transactionId: body.transactionId,
    roundId: body.roundId,
    betTransactionId: body.betTransactionId,
    brandId: round.brandId,
    playerId: body.playerId,
    currency: round.currency,
    requested: subMoney(0, bet.moved),
    amount: subMoney(0, bet.moved),
    at,
    usageAt: new Date(bet.createdAt),
    clearingAccountId: await ensureProviderClearingAccount(ctx.deps.sql, round.brandId, providerId, round.currency),
  };
  // Rolled back already (by another rollback id): recorded, nothing moves again.
  if (bet.rolledBackBy) {
    const posted = await postZeroMove(ctx.deps.sql, { ...move, amount: '0.00' }, false);
    return answer(move, '0.00', posted);
  }
  if (round.wins > 0 || round.status === 'settled') throw new AppError('BET_ALREADY_SETTLED', undefined, { roundId: body.roundId });
  const posted = await postMove(ctx.deps.sql, move);
  if (!posted) throw new TakenMeanwhile('taken');
  // The refund is committed; the provider may never hear of it. Its retry gets this answer.
  crashPoint('wallet.provider.rollback.after-commit');
  return answer(move, move.amount, posted);
}

async function correction(ctx: ProvidersContext, scope: ProviderScope, body: ProviderCorrection): Promise<Answer> {
  const { providerId } = scope;
  const round = await roundOfPlayer(ctx, scope, body.roundId, body.playerId, body.currency);
  if (round.status !== 'settled') throw new AppError('ROUND_NOT_SETTLED', undefined, { roundId: body.roundId, status: round.status });
  const requested = formatMoney(body.amount);
  const base = {
    id: newId('providerTransaction'),
    kind: 'correction' as const,
    providerId,
    transactionId: body.transactionId,
    roundId: body.roundId,
    brandId: round.brandId,
    playerId: body.playerId,
    currency: round.currency,
    requested,
    at: ruleClock.now(),
    clearingAccountId: await ensureProviderClearingAccount(ctx.deps.sql, round.brandId, providerId, round.currency),
  };
  // A debit is taken up to the balance; what it could not take is the player's debt to the
  // provider, kept on the row (requested − moved) and listed for our team.
  const balance = await stakeableNow(ctx.deps.sql, round.brandId, body.playerId, round.currency);
  const amount = requested.startsWith('-') && compareMoney(subMoney(0, requested), balance) > 0 ? subMoney(0, balance) : requested;
  const move = { ...base, amount: formatMoney(amount) };
  const posted = compareMoney(move.amount, 0) === 0 ? await postZeroMove(ctx.deps.sql, move, false) : await postMove(ctx.deps.sql, move);
  // Nothing written: the balance fell meanwhile (read again) or the id was taken.
  if (!posted) throw new TakenMeanwhile('balance');
  return answer(move, move.amount, posted);
}

export function providerWin(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerWin> {
  return async (req) => {
    const { providerId } = providerScopeOf(req);
    const b = req.body;
    const call: CallShape = { kind: 'win', playerId: b.playerId, roundId: b.roundId, requested: b.amount, currency: b.currency };
    return { status: 200, body: await settled(ctx, providerId, b.transactionId, call, () => win(ctx, providerScopeOf(req), b)) };
  };
}

export function providerRollback(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerRollback> {
  return async (req) => {
    const { providerId } = providerScopeOf(req);
    const b = req.body;
    // A rollback's amount is its bet's: the call names no amount, so only the bet and round tell calls apart.
    const call: CallShape = { kind: 'rollback', playerId: b.playerId, roundId: b.roundId, betTransactionId: b.betTransactionId };
    return { status: 200, body: await settled(ctx, providerId, b.transactionId, call, () => rollback(ctx, providerScopeOf(req), b)) };
  };
}

export function providerCorrection(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerCorrection> {
  return async (req) => {
    const { providerId } = providerScopeOf(req);
    const b = req.body;
    const call: CallShape = { kind: 'correction', playerId: b.playerId, roundId: b.roundId, requested: b.amount, currency: b.currency };
    return { status: 200, body: await settled(ctx, providerId, b.transactionId, call, () => correction(ctx, providerScopeOf(req), b)) };
  };
}
