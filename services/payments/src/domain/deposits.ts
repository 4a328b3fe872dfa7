// Deposits as the API shows them, and the rules of creating one (docs/decisions.md check order).
import { AppError, MAX_AMOUNT, assertNotPausedOrIncomplete, limitsInForce, rgBlocked, type Deposit, type LimitPeriod, type PlayerState } from '@bo/contracts';
import { compareMoney, formatMoney, addMoney, isPositiveWithin, isoTime } from '@bo/service-kit';
import { movementView, type MoneyMovementRow } from './money-movement.ts';

/** The operation a confirm's answer is kept under (the kit's `processed_requests`). */
export const CONFIRM_OPERATION = 'payments.deposits.confirm';

export type DepositRowStatus = 'pending' | 'confirming' | 'confirmed' | 'failed';

export interface DepositRow extends MoneyMovementRow {
  externalReference: string;
  status: DepositRowStatus;
  confirmScope: string | null;
  confirmKey: string | null;
  confirmFingerprint: string | null;
  confirmedAt: Date | null;
  failedAt: Date | null;
  failureReason: string | null;
}

/** `confirming` is shown as `pending`: the wallet is not credited yet (docs/money.md). */
export function depositView(row: DepositRow): Deposit {
  return {
    ...movementView(row),
    externalReference: row.externalReference,
    status: row.status === 'confirming' ? 'pending' : row.status,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    confirmedAt: isoTime(row.confirmedAt),
    failedAt: isoTime(row.failedAt),
    failureReason: row.failureReason,
  };
}

/** 422 before anything else: the amount bound the schema cannot express. */
export function checkAmount(amount: string): void {
  if (!isPositiveWithin(amount, MAX_AMOUNT)) {
    throw new AppError('VALIDATION_ERROR', undefined, {
      in: 'body',
      issues: [{ path: '/amount', message: `must be greater than 0 and at most ${MAX_AMOUNT}` }],
    });
  }
}

/** Exists (404) → currency (422); the caller then checks duplicates before `checkDepositAllowed`. */
export function checkPlayerAndCurrency(player: PlayerState, currency: string): asserts player is PlayerState & { currency: string } {
  if (!player.exists) throw new AppError('PLAYER_NOT_FOUND');
  if (player.currency !== currency) throw new AppError('CURRENCY_MISMATCH', undefined, { playerCurrency: player.currency });
}

/** What the player's deposits of the current day, week and month add up to, and when each ends. */
export interface DepositUsage {
  used: Record<LimitPeriod, string>;
  resetsAt: Record<LimitPeriod, string>;
}

/** The deposit limits in force (the v1.1 daily limit is the deposit/day limit). */
export function depositLimits(player: PlayerState, now: Date): { period: LimitPeriod; value: string }[] {
  if (player.rg) return limitsInForce(player.rg, 'deposit', now);
  return player.dailyDepositLimit != null ? [{ period: 'day', value: player.dailyDepositLimit }] : [];
}

/**
 * RG (403: self-exclusion, pause, br-spa's required limits, each deposit limit) → player status
 * (403), after the duplicate check. `usage` is read under the player's deposit lock when a limit applies.
 */
export function checkDepositAllowed(player: PlayerState, amount: string, now: Date, usage?: DepositUsage): void {
  if (player.selfExcluded || player.status === 'autoexcluido') throw rgBlocked('self_excluded', 'The player is self-excluded.');
  assertNotPausedOrIncomplete(player.rg, now);
  for (const limit of depositLimits(player, now)) {
    if (!usage) throw new Error('deposit limits need the usage');
    if (compareMoney(addMoney(usage.used[limit.period], amount), limit.value) > 0) {
      throw rgBlocked('deposit_limit', `The deposit would pass the player ${limit.period} deposit limit.`, {
        period: limit.period,
        limit: formatMoney(limit.value),
        resetsAt: usage.resetsAt[limit.period],
        // v1.1's detail of the daily limit.
        ...(limit.period === 'day' ? { dailyDepositLimit: formatMoney(limit.value) } : {}),
      });
    }
  }
  if (player.status === 'bloqueado' || player.status === 'encerrado') throw new AppError('PLAYER_NOT_ACTIVE');
}
