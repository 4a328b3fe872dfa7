// Deposits as the API shows them, and the rules of creating one (docs/decisions.md check order).
import { AppError, MAX_AMOUNT, type Deposit, type PlayerState } from '@bo/contracts';
import { compareMoney, formatMoney, addMoney, isPositiveWithin, isoTime } from '@bo/service-kit';
import { movementView, type MoneyMovementRow } from './money-movement.ts';

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

/** RG (403) → player status (403), after the duplicate check. */
export function checkDepositAllowed(player: PlayerState, amount: string, todaysTotal: string): void {
  if (player.selfExcluded || player.status === 'autoexcluido') throw new AppError('RG_BLOCKED', 'The player is self-excluded.');
  if (player.dailyDepositLimit != null && compareMoney(addMoney(todaysTotal, amount), player.dailyDepositLimit) > 0) {
    throw new AppError('RG_BLOCKED', 'The deposit would pass the player daily deposit limit.', { dailyDepositLimit: formatMoney(player.dailyDepositLimit) });
  }
  if (player.status === 'bloqueado' || player.status === 'encerrado') throw new AppError('PLAYER_NOT_ACTIVE');
}
