// Withdrawals as the API shows them: internal statuses map onto the contract's, and the moves a
// decision or a cancel may start.
import { AppError, newId, type Environment, type PlayerState, type Withdrawal, type WithdrawalDecision, type WithdrawalStatus } from '@bo/contracts';
import { compareMoney, deciderOf, type DecisionAuthor, type RequestKey } from '@bo/service-kit';
import { movementView, type MoneyMovementRow } from './money-movement.ts';

export type WithdrawalRowStatus = WithdrawalStatus | 'reserving' | 'declined' | 'cancelling' | 'rejecting' | 'paying';

export interface WithdrawalRow extends MoneyMovementRow {
  destination: string;
  status: WithdrawalRowStatus;
  requestScope: string | null;
  requestKey: string | null;
  /** The gateway's fingerprint of the create request (method, path, body hash), when it sent one. */
  requestFingerprint: string | null;
  /** The id of the create request (a declined create's stored 422 keeps it). */
  requestId: string | null;
  actionScope: string | null;
  actionKey: string | null;
  actionFingerprint: string | null;
  /** Who approved it on the admin API; null when not approved yet or approved by a sandbox simulation. */
  approvedBy: string | null;
  /** The approver's identity (their team member id): what four eyes compares. */
  approverId: string | null;
  /** Whose reject or pay is under way (a person on the admin API, or the system's automatic approval): its completion writes the decision's audit row. */
  decidedBy: DecisionAuthor | null;
  /** br-spa: when its payout is due (domain/prize-clock.ts); null under the profile off. */
  payoutDueAt: Date | null;
}

/**
 * A new withdrawal's row, `reserving` until the wallet answers its hold (step 1 of its move),
 * remembering the request that started it (its key dedupes a repeat).
 */
export function reservingRow(
  owner: { operatorId: string; brandId: string; environment: Environment },
  w: Pick<WithdrawalRow, 'playerId' | 'amount' | 'currency' | 'method' | 'destination' | 'payoutDueAt'>,
  request: RequestKey | undefined,
  now: Date,
): WithdrawalRow {
  return {
    id: newId('withdrawal'),
    operatorId: owner.operatorId,
    brandId: owner.brandId,
    environment: owner.environment,
    playerId: w.playerId,
    amount: w.amount,
    currency: w.currency,
    method: w.method,
    destination: w.destination,
    status: 'reserving',
    requestScope: request?.scope ?? null,
    requestKey: request?.key ?? null,
    requestFingerprint: request?.fingerprint ?? null,
    requestId: request?.requestId ?? null,
    actionScope: null,
    actionKey: null,
    actionFingerprint: null,
    approvedBy: null,
    approverId: null,
    decidedBy: null,
    payoutDueAt: w.payoutDueAt,
    createdAt: now,
    updatedAt: now,
  };
}

/** Rows the API never shows: the request is not answered yet, or was answered with a 422. */
export const INVISIBLE: readonly WithdrawalRowStatus[] = ['reserving', 'declined'];

/** A move under way is shown as the state it leaves: it has not happened yet. */
export function visibleStatus(status: WithdrawalRowStatus): WithdrawalStatus {
  switch (status) {
    case 'cancelling':
    case 'rejecting':
      return 'under_review';
    case 'paying':
      return 'approved';
    case 'reserving':
    case 'declined':
      throw new Error(`a ${status} withdrawal has no visible status`);
    default:
      return status;
  }
}

/** The internal statuses that the API shows as `status` (the review queue filter). */
export function rowStatusesShownAs(status: WithdrawalStatus): WithdrawalRowStatus[] {
  if (status === 'under_review') return ['under_review', 'cancelling', 'rejecting'];
  if (status === 'approved') return ['approved', 'paying'];
  return [status];
}

export function withdrawalView(row: WithdrawalRow): Withdrawal {
  return {
    ...movementView(row),
    destination: row.destination,
    status: visibleStatus(row.status),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    payoutDueAt: row.payoutDueAt === null ? null : new Date(row.payoutDueAt).toISOString(),
  };
}

/** exists (404) → currency (422) → KYC (403) → player status (403); funds are the wallet's answer. */
export function checkWithdrawalAllowed(player: PlayerState, currency: string): void {
  if (!player.exists) throw new AppError('PLAYER_NOT_FOUND');
  if (player.currency !== currency) throw new AppError('CURRENCY_MISMATCH', undefined, { playerCurrency: player.currency });
  if (player.kycStatus !== 'aprovado') throw new AppError('KYC_NOT_APPROVED');
  if (player.status === 'bloqueado') throw new AppError('PLAYER_NOT_ACTIVE');
}

/** What a decision does from a status: start a move, finish the same move, or refuse. */
export type DecisionPlan = { kind: 'move'; to: 'approved' } | { kind: 'start'; to: 'rejecting' | 'paying' } | { kind: 'resume' };

export function planDecision(decision: WithdrawalDecision, status: WithdrawalRowStatus): DecisionPlan {
  if (decision === 'approve' && status === 'under_review') return { kind: 'move', to: 'approved' };
  if (decision === 'reject' && status === 'under_review') return { kind: 'start', to: 'rejecting' };
  if (decision === 'pay' && status === 'approved') return { kind: 'start', to: 'paying' };
  // A repeat of a decision whose wallet step is under way finishes it (safe admin retries).
  if ((decision === 'reject' && status === 'rejecting') || (decision === 'pay' && status === 'paying')) return { kind: 'resume' };
  throw new AppError('WITHDRAWAL_INVALID_TRANSITION', `Cannot ${decision} a withdrawal that is ${visibleStatus(status)}.`);
}

/**
 * Four eyes on money out: the person who approved a withdrawal does not pay it, from the operator's
 * threshold up (default 0.00: every withdrawal). Persons are compared by identity (their id, not
 * the name they act under: a console session and a personal token of one person are one person).
 * Sandbox simulations approve as nobody.
 */
export function checkFourEyes(row: WithdrawalRow, payer: DecisionAuthor, minAmount: string): void {
  if (row.approverId === null || row.approverId !== deciderOf(payer)) return;
  if (compareMoney(row.amount, minAmount) < 0) return;
  throw new AppError('FOUR_EYES_REQUIRED', `${row.approvedBy} approved this withdrawal; another person must pay it.`);
}
