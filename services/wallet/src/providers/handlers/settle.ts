// wallet.provider.win, .rollback and .correction: the money after a bet (docs/providers.md). They
// are accepted whatever became of the session, the player or the operator since the bet (money
// owed to a player is always paid), never for a round or bet that does not exist or is another
// player's. Each is idempotent on the provider's transaction id like a bet; a call whose round or
// bet changed between its read and its statement (`must:` failed) is read again, once more.
import {
  AppError,
  isAppError,
  newId,
  type ProviderCorrection,
  type ProviderRollback,
  type ProviderScope,
  type ProviderTransactionResult,
  type ProviderWin,
  type connectorMessages,
  type providerOperations,
} from '@bo/contracts';
import { compareMoney, crashPoint, formatMoney, isoTime, providerScopeOf, ruleClock, subMoney, uniqueViolation, type HandlerOf } from '@bo/service-kit';
import { ensureProviderClearingAccount, stakeableNow } from '../../ledger/index.ts';
import { assertSameCall, toResult, type CallShape } from '../domain/transactions.ts';
import { failedCondition, postMove, postRollbackOfUnknownBet, postZeroMove, REPAYMENT_SUFFIX, type CreditPosting, type PostedMove } from '../store/postings.ts';
import { findRound, findTransaction, launchedPlayer, type RoundRow } from '../store/reads.ts';
import type { ProvidersContext } from './context.ts';
import { sportsBetSettled } from '../store/sports-events.ts';
import { prizeClockOf, prizeDueAtOf } from '../domain/prize-clock.ts';
import type { RoundFacts } from './round-facts.ts';
import { holdWinIfHeld } from '../../integrity/index.ts';

type Answer = ProviderTransactionResult;

/** A statement wrote nothing because what it read changed meanwhile (an id taken, a balance that fell): read again. */
export class TakenMeanwhile extends Error {}

/** The earlier answer under this id (replayed), or undefined when the id is new; a conflict throws. */
async function replayOf(ctx: ProvidersContext, providerId: string, transactionId: string, call: CallShape): Promise<Answer | undefined> {
  const kept = await findTransaction(ctx.deps.sql, providerId, transactionId);
  if (!kept) return undefined;
  assertSameCall(kept, call);
  // A credit that repaid a debt answers what it repaid again (its repayment's own row).
  const repayment =
    (kept.kind === 'win' || kept.kind === 'correction') && compareMoney(kept.moved, 0) > 0
      ? await findTransaction(ctx.deps.sql, providerId, `${transactionId}${REPAYMENT_SUFFIX}`)
      : undefined;
  return toResult(kept, true, repayment && subMoney(0, repayment.moved));
}

/** What of a credit repays the player's debt to the provider (`owed`, read with its round): all of the debt the credit covers. */
function repaymentOf(amount: string, owed: string): string | undefined {
  if (compareMoney(amount, 0) <= 0 || compareMoney(owed, 0) <= 0) return undefined;
  return formatMoney(compareMoney(owed, amount) < 0 ? owed : amount);
}

/** The round a settlement names, only if it is this player's in the key's environment; its currency must be the call's. */
export async function roundOfPlayer(ctx: ProvidersContext, scope: ProviderScope, roundId: string, playerId: string, currency?: string): Promise<RoundRow> {
  const round = await findRound(ctx.deps.sql, scope.providerId, roundId);
  if (!round || round.playerId !== playerId || round.environment !== scope.environment) throw new AppError('ROUND_NOT_FOUND', undefined, { roundId });
  if (currency !== undefined && currency !== round.currency) throw new AppError('CURRENCY_MISMATCH', undefined, { currency: round.currency });
  return round;
}

export const answer = (
  c: { transactionId: string; kind: ProviderTransactionResult['kind']; playerId: string; roundId: string; currency: string; repay?: string },
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
  ...(c.repay ? { repaid: c.repay } : {}),
  replayed: false,
  createdAt: isoTime(posted.createdAt),
});

/**
 * Runs `attempt` once more when its round or bet changed under it (a concurrent call settled or
 * rolled it back: the second reading answers what that means), and answers a concurrent copy of
 * the same call (the id's unique key) with its answer. `replay: 'first'` looks the id up before
 * the attempt; `'on-refusal'` only when the attempt is refused or writes nothing (a win: its
 * statement moves nothing under a taken id, so a first win pays no extra read, as a bet does).
 */
export async function settled(
  ctx: ProvidersContext,
  providerId: string,
  transactionId: string,
  call: CallShape,
  attempt: () => Promise<Answer>,
  replay: 'first' | 'on-refusal' = 'first',
): Promise<Answer> {
  for (let tries = 0; ; tries++) {
    try {
      if (replay === 'on-refusal') return await attempt();
      return (await replayOf(ctx, providerId, transactionId, call)) ?? (await attempt());
    } catch (e) {
      const again = e instanceof TakenMeanwhile || uniqueViolation(e) !== undefined || failedCondition(e) !== undefined;
      // A retry of a call that was taken is answered as it was, whatever refuses it now (its round closed since).
      if (replay === 'on-refusal' && (again || isAppError(e))) {
        const kept = await replayOf(ctx, providerId, transactionId, call);
        if (kept) return kept;
      }
      if (again && tries < 2) continue;
      throw e;
    }
  }
}

/** A win; a connector's may name the bet it pays (`betTransactionId`) and its game (`gameCode`), kept on its row as part of its identity. */
type WinCall = ProviderWin & { betTransactionId?: string; gameCode?: string };

/**
 * The facts of a casino round kept from its bet (handlers/round-facts.ts), when they name this
 * call's player, environment and currency; undefined otherwise (the round is then read). A sports
 * round is always read: its integrity hold is part of it.
 */
function keptRoundOf(ctx: ProvidersContext, scope: ProviderScope, body: WinCall): RoundFacts | undefined {
  const kept = ctx.rounds.get(scope.providerId, body.roundId);
  const matches = kept?.kind === 'casino' && kept.playerId === body.playerId && kept.environment === scope.environment && kept.currency === body.currency;
  return matches ? kept : undefined;
}

/**
 * A win. When its round's facts are kept from its bet (and not tried already: `keptTried`), it is
 * tried first on them without reading the round: its statement then checks what the read would
 * have (the round open, the player owing the provider nothing) and writes nothing otherwise, and
 * the win goes on as if nothing was kept.
 */
async function win(ctx: ProvidersContext, scope: ProviderScope, body: WinCall, keptTried = false): Promise<Answer> {
  const kept = keptTried ? undefined : keptRoundOf(ctx, scope, body);
  if (kept) {
    const answered = await winOnKeptRound(ctx, scope, body, kept);
    if (answered) return answered;
  }
  const round = await roundOfPlayer(ctx, scope, body.roundId, body.playerId, body.currency);
  if (round.status !== 'open') throw new AppError('ROUND_CLOSED', undefined, { roundId: body.roundId, status: round.status });
  const answered = await winOnRound(ctx, scope, body, round, round.owed);
  if (!answered) throw new TakenMeanwhile('taken');
  return answered;
}

/**
 * The win on its round's kept facts; undefined when its statement found the round or debt (or its
 * bet) not as kept, or its id taken by a copy of it (the read that follows answers as the round is).
 */
async function winOnKeptRound(ctx: ProvidersContext, scope: ProviderScope, body: WinCall, kept: RoundFacts): Promise<Answer | undefined> {
  return winOnRound(ctx, scope, body, kept).catch((e) => {
    if (failedCondition(e) === 'round' || uniqueViolation(e) !== undefined) return undefined;
    throw e;
  });
}

/**
 * The win on its round, read (with what its player owes the provider: `owed`) or kept (`owed`
 * undefined: written only while nothing is owed); undefined when nothing was written.
 */
async function winOnRound(ctx: ProvidersContext, scope: ProviderScope, body: WinCall, round: RoundFacts, owed?: string): Promise<Answer | undefined> {
  const { providerId, environment } = scope;
  // The prize clock (domain/prize-clock.ts): a win of money names when its event ended; 0.00 (a lost bet) owes no prize.
  const owesPrize = compareMoney(body.amount, 0) > 0;
  const eventEndedAt = owesPrize && body.eventEndedAt !== undefined ? new Date(body.eventEndedAt) : undefined;
  const move: CreditPosting = {
    id: newId('providerTransaction'),
    kind: 'win',
    providerId,
    environment,
    transactionId: body.transactionId,
    roundId: body.roundId,
    brandId: round.brandId,
    playerId: body.playerId,
    currency: round.currency,
    requested: body.amount,
    amount: body.amount,
    roundClosed: body.roundClosed ?? true,
    outcome: body.outcome ?? null,
    ...(body.betTransactionId === undefined ? {} : { betTransactionId: body.betTransactionId }),
    ...(body.gameCode === undefined ? {} : { gameCode: body.gameCode }),
    at: ruleClock.now(),
    clearingAccountId: await ensureProviderClearingAccount(ctx.deps.sql, round.brandId, providerId, round.currency),
    // issue #44 item 7: `sports_bet.settled`, written by the win's own statement when it closes a sports bet.
    ...(round.kind === 'sports' ? { outbox: sportsBetSettled() } : {}),
    ...(eventEndedAt ? { prizeClock: { eventEndedAt, dueAt: prizeDueAtOf(eventEndedAt) } } : {}),
    // Issue #59 item 1: a win of a round the provider funded (free bets, free rounds) is its own ledger type.
    ...(round.funding === 'provider' ? { providerFunded: true, ledgerType: 'FREE_BET_WIN' as const } : {}),
  };
  // ---- Issue #60 item 3 hook (the integrity module, docs/games.md "Integrity holds") ----
  // A sports slip our compliance team holds: its prize is accepted but kept on the brand's
  // integrity-hold account, not credited (moved 0.00; the prize clock paused); released or forfeited later.
  if (owesPrize && round.kind === 'sports') {
    const held = await holdWinIfHeld(ctx.deps.sql, move);
    if (held.held) return answer(move, '0.00', held);
    if (held.taken) throw new TakenMeanwhile('taken');
  }
  // ---- end of the hook ----
  // A credit repays the player's debt to the provider first. On kept facts the statement checks
  // that nothing is owed, and that the bet a connector's win names is still a live bet of the player.
  if (owed === undefined) Object.assign(move, { unlessOwing: true, liveBetOnly: body.betTransactionId !== undefined });
  else move.repay = repaymentOf(move.amount, owed);
  const posted = owesPrize ? await postMove(ctx.deps.sql, move) : await postZeroMove(ctx.deps.sql, move);
  if (!posted) return undefined;
  if (move.outbox) ctx.deps.outbox.poke();
  // Measured once, as it is credited (a replay answers before this: replayOf).
  if (move.prizeClock) {
    const credited = new Date(posted.createdAt);
    ctx.prizes.record(prizeClockOf(credited, move.prizeClock.dueAt), (credited.getTime() - move.prizeClock.eventEndedAt.getTime()) / 1000);
  } else if (owesPrize && round.kind === 'sports') {
    ctx.prizes.record('untimed');
  }
  crashPoint('wallet.provider.win.after-commit');
  return answer(move, move.amount, posted);
}

async function rollback(ctx: ProvidersContext, scope: ProviderScope, body: ProviderRollback): Promise<Answer> {
  const { providerId, environment } = scope;
  const bet = await findTransaction(ctx.deps.sql, providerId, body.betTransactionId);
  const at = ruleClock.now();
  if (!bet) {
    // Never received (the provider gave up waiting for our answer, or it was lost): recorded as
    // cancelled, so the bet arriving later is refused (BET_ROLLED_BACK).
    const account = await launchedPlayer(ctx.deps.sql, providerId, environment, body.playerId);
    if (!account) throw new AppError('ROUND_NOT_FOUND', 'This provider never had a session of this player.', { roundId: body.roundId });
    const c = {
      id: newId('providerTransaction'),
      providerId,
      environment,
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
  if ((bet.kind !== 'bet' && bet.kind !== 'free_bet') || bet.playerId !== body.playerId || bet.roundId !== body.roundId || bet.environment !== environment) {
    throw new AppError('ROUND_NOT_FOUND', 'No bet of this player and round has this betTransactionId.', { betTransactionId: body.betTransactionId });
  }
  // Rolled back already (by another rollback id), a bet never received included (it has no round):
  // recorded, nothing moves again. The bet's row names its brand and currency.
  if (bet.rolledBackBy) {
    const brandId = bet.brandId ?? (await roundOfPlayer(ctx, scope, body.roundId, body.playerId)).brandId;
    const again = {
      id: newId('providerTransaction'),
      kind: 'rollback' as const,
      providerId,
      environment,
      transactionId: body.transactionId,
      roundId: body.roundId,
      betTransactionId: body.betTransactionId,
      brandId,
      playerId: body.playerId,
      currency: bet.currency,
      requested: subMoney(0, bet.moved),
      amount: '0.00',
      at,
    };
    return answer(again, '0.00', await postZeroMove(ctx.deps.sql, again, false));
  }
  const round = await roundOfPlayer(ctx, scope, body.roundId, body.playerId);
  if (bet.kind === 'free_bet') {
    // Issue #59 item 1: a free bet cancelled: nothing moves (nothing was taken); its stake leaves the round.
    if (round.wins > 0 || round.status === 'settled') throw new AppError('BET_ALREADY_SETTLED', undefined, { roundId: body.roundId });
    const free = {
      id: newId('providerTransaction'),
      kind: 'rollback' as const,
      providerId,
      environment,
      transactionId: body.transactionId,
      roundId: body.roundId,
      betTransactionId: body.betTransactionId,
      brandId: round.brandId,
      playerId: body.playerId,
      currency: round.currency,
      requested: '0.00',
      amount: '0.00',
      providerFunded: true,
      at,
    };
    return answer(free, '0.00', await postZeroMove(ctx.deps.sql, free, true, subMoney(0, bet.requested)));
  }
  const move: CreditPosting = {
    id: newId('providerTransaction'),
    kind: 'rollback',
    providerId,
    environment,
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
    // issue #44 item 7: `sports_bet.settled` (voided), written by the rollback's own statement when it voids a sports bet.
    ...(round.kind === 'sports' ? { outbox: sportsBetSettled() } : {}),
  };
  if (round.wins > 0 || round.status === 'settled') throw new AppError('BET_ALREADY_SETTLED', undefined, { roundId: body.roundId });
  const posted = await postMove(ctx.deps.sql, move);
  if (!posted) throw new TakenMeanwhile('taken');
  // The refund is committed; the provider may never hear of it. Its retry gets this answer.
  crashPoint('wallet.provider.rollback.after-commit');
  if (move.outbox) ctx.deps.outbox.poke();
  return answer(move, move.amount, posted);
}

async function correction(ctx: ProvidersContext, scope: ProviderScope, body: ProviderCorrection): Promise<Answer> {
  const { providerId, environment } = scope;
  const round = await roundOfPlayer(ctx, scope, body.roundId, body.playerId, body.currency);
  if (round.status !== 'settled') throw new AppError('ROUND_NOT_SETTLED', undefined, { roundId: body.roundId, status: round.status });
  const requested = formatMoney(body.amount);
  const base = {
    id: newId('providerTransaction'),
    kind: 'correction' as const,
    providerId,
    environment,
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
  // provider (requested − moved on the row, added to wallet.provider_debts), repaid by the
  // provider's next credits to the player and listed for our team. A credit repays the debt first.
  const balance = await stakeableNow(ctx.deps.sql, round.brandId, body.playerId, round.currency);
  const amount = requested.startsWith('-') && compareMoney(subMoney(0, requested), balance) > 0 ? subMoney(0, balance) : requested;
  const move: CreditPosting = { ...base, amount: formatMoney(amount) };
  if (compareMoney(amount, requested) > 0) move.shortfall = formatMoney(subMoney(amount, requested));
  move.repay = repaymentOf(move.amount, round.owed);
  const posted = compareMoney(move.amount, 0) === 0 ? await postZeroMove(ctx.deps.sql, move, false) : await postMove(ctx.deps.sql, move);
  // Nothing written: the balance fell meanwhile (read again) or the id was taken.
  if (!posted) throw new TakenMeanwhile('balance');
  crashPoint('wallet.provider.correction.after-commit');
  return answer(move, move.amount, posted);
}

async function settledWin(ctx: ProvidersContext, scope: ProviderScope, b: WinCall, keptTried = false): Promise<Answer> {
  const call: CallShape = {
    kind: 'win',
    environment: scope.environment,
    playerId: b.playerId,
    roundId: b.roundId,
    requested: b.amount,
    currency: b.currency,
    ...(b.betTransactionId === undefined ? {} : { betTransactionId: b.betTransactionId }),
    ...(b.gameCode === undefined ? {} : { gameCode: b.gameCode }),
  };
  return settled(ctx, scope.providerId, b.transactionId, call, () => win(ctx, scope, b, keptTried), 'on-refusal');
}

export function providerWin(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerWin> {
  return async (req) => ({ status: 200, body: await settledWin(ctx, providerScopeOf(req), req.body) });
}

/**
 * A connector's win naming its bet (connectorMessages.win): the same win, the bet part of its
 * identity, paid only on a live bet of the player (not rolled back, not a placeholder of one never
 * received; Hub88: "wasn't processed or was rolled back"), else 404 `ROUND_NOT_FOUND` with
 * `details.betTransactionId`. On a round whose facts are kept its statement checks the bet; else the
 * bet is read first, before the id's replay, as the connector read it before.
 */
export function connectorWin(ctx: ProvidersContext): HandlerOf<typeof connectorMessages.win> {
  return async (req) => {
    const scope = providerScopeOf(req);
    const b = req.body;
    const kept = keptRoundOf(ctx, scope, b);
    const answered = kept && (await winOnKeptRound(ctx, scope, b, kept));
    if (answered) return { status: 200, body: answered };
    const bet = await findTransaction(ctx.deps.sql, scope.providerId, b.betTransactionId);
    const live =
      bet?.environment === scope.environment &&
      (bet.kind === 'bet' || bet.kind === 'free_bet') &&
      !bet.neverReceived &&
      bet.rolledBackBy === null &&
      bet.playerId === b.playerId;
    if (!live) throw new AppError('ROUND_NOT_FOUND', 'No live bet of this player has this betTransactionId.', { betTransactionId: b.betTransactionId });
    return { status: 200, body: await settledWin(ctx, scope, b, kept !== undefined) };
  };
}

export function providerRollback(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerRollback> {
  return async (req) => {
    const scope = providerScopeOf(req);
    const b = req.body;
    // A rollback's amount is its bet's: the call names no amount, so only the bet and round tell calls apart.
    const call: CallShape = {
      kind: 'rollback',
      environment: scope.environment,
      playerId: b.playerId,
      roundId: b.roundId,
      betTransactionId: b.betTransactionId,
    };
    return { status: 200, body: await settled(ctx, scope.providerId, b.transactionId, call, () => rollback(ctx, scope, b)) };
  };
}

export function providerCorrection(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerCorrection> {
  return async (req) => {
    const scope = providerScopeOf(req);
    const b = req.body;
    const call: CallShape = {
      kind: 'correction',
      environment: scope.environment,
      playerId: b.playerId,
      roundId: b.roundId,
      requested: b.amount,
      currency: b.currency,
    };
    return { status: 200, body: await settled(ctx, scope.providerId, b.transactionId, call, () => correction(ctx, scope, b)) };
  };
}
