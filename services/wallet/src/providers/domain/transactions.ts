// The rules of a provider's transaction ids (docs/providers.md, "Exactly once"): the same id again
// is the same call, answered as the first was (marked replayed) and moving nothing; the same id
// for another call is a conflict that moves nothing.
import { AppError, type Environment, type ProviderTransactionKind, type ProviderTransactionResult } from '@bo/contracts';
import { compareMoney } from '@bo/service-kit';

/** What a call asks, to be compared with what an earlier call under its id asked. */
export interface CallShape {
  kind: ProviderTransactionKind;
  environment: Environment;
  playerId?: string;
  roundId: string;
  /** Signed, for the player (a bet's is negative); absent for a rollback, whose amount is its bet's. */
  requested?: string;
  currency?: string;
  betTransactionId?: string;
  /** Issue #66: the call's game, when it names one (Hub88: "… round, user or game"). */
  gameCode?: string;
}

/** The fields an earlier row under the same id keeps of its call. */
export interface KeptCall {
  transactionId: string;
  environment: Environment;
  kind: ProviderTransactionKind;
  playerId: string;
  roundId: string;
  requested: string;
  currency: string;
  betTransactionId: string | null;
  neverReceived: boolean;
  /** Null when the earlier call named none (or was recorded before games were kept): not compared. */
  gameCode?: string | null;
}

/**
 * The earlier call under this id is this call: nothing to do but answer it again. A different call
 * is TRANSACTION_CONFLICT naming what differs; a bet whose id a rollback took first (it was never
 * received) is BET_ROLLED_BACK.
 */
export function assertSameCall(kept: KeptCall, call: CallShape): void {
  // An id is bound to its environment and player: another's call under it is a conflict, and is
  // never answered with what the id's owner has (a replay's balance, or whether its bet was rolled back).
  const owner: string[] = [];
  if (kept.environment !== call.environment) owner.push('environment');
  if (call.playerId !== undefined && kept.playerId !== call.playerId) owner.push('playerId');
  if (kept.neverReceived && call.kind === 'bet' && owner.length === 0) {
    throw new AppError('BET_ROLLED_BACK', undefined, { transactionId: kept.transactionId });
  }
  const differs: string[] = [...owner];
  if (kept.kind !== call.kind || kept.neverReceived) differs.push('kind');
  if (kept.roundId !== call.roundId) differs.push('roundId');
  if (call.currency !== undefined && kept.currency !== call.currency) differs.push('currency');
  if (call.requested !== undefined && compareMoney(kept.requested, call.requested) !== 0) differs.push('amount');
  if ((call.betTransactionId ?? null) !== kept.betTransactionId) differs.push('betTransactionId');
  if (call.gameCode !== undefined && kept.gameCode != null && kept.gameCode !== call.gameCode) differs.push('gameCode');
  if (differs.length > 0) throw new AppError('TRANSACTION_CONFLICT', undefined, { transactionId: kept.transactionId, differs });
}

export function toResult(
  row: {
    transactionId: string;
    kind: ProviderTransactionKind;
    playerId: string;
    roundId: string;
    currency: string;
    moved: string;
    balanceAfter: string;
    createdAt: string;
  },
  replayed: boolean,
  repaid?: string,
): ProviderTransactionResult {
  return {
    transactionId: row.transactionId,
    kind: row.kind,
    playerId: row.playerId,
    roundId: row.roundId,
    currency: row.currency,
    moved: row.moved,
    balance: row.balanceAfter,
    ...(repaid ? { repaid } : {}),
    replayed,
    createdAt: row.createdAt,
  };
}
