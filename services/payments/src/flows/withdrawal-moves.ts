// The wallet step and the completion of every withdrawal move that touches money (docs/money.md):
//   reserving  --hold-->    under_review (or declined: stored 422; or, approved by the system, paying)
//   cancelling --release--> cancelled
//   rejecting  --release--> rejected
//   paying     --capture--> paid
// Used by the request that recorded the intent, by a retry with its key, and by the reconciler.
import { AppError, WALLET_SUBJECTS, type WalletHold, type WalletHoldRef, type WithdrawalStatus } from '@bo/contracts';
import { crashPoint, errorResponse, keyFromRow, writeDecisionAudit, writeEvent, type DecisionAuthor, type SqlRunner } from '@bo/service-kit';
import { visibleStatus, withdrawalView, type WithdrawalRow, type WithdrawalRowStatus } from '../domain/withdrawals.ts';
import type { AutoDecision } from '../domain/prize-clock.ts';
import { lockWithdrawal, markApproved, markIntent, markStatus, readWithdrawal } from '../store/withdrawal-store.ts';
import { AUTO_DECISION, autoDecisionFor, isSystem, systemAuthor } from './auto-approval.ts';
import { answers, inTransaction, type FlowDeps } from './context.ts';

export const CREATE_OPERATION = 'payments.withdrawals.create';
export const CANCEL_OPERATION = 'payments.withdrawals.cancel';
/** A decision of the team or its sandbox simulation; a retry with its key gets the stored answer (one operation per decision, so a key reused for another decision is a conflict). */
export const decideOperation = (decision: 'approve' | 'reject' | 'pay'): string => `payments.withdrawals.decide.${decision}`;
/** The admin operation a decision's audit row names. */
export const ADMIN_DECISION = 'adminWithdrawalDecision';

/** A person's decision with why they took it (a rejection's reason, issue #61), kept with the move's intent until its completion audits it. */
export type ReasonedAuthor = DecisionAuthor & { reason?: string };
/** The audit's `after` of a decision: the withdrawal as it is, and the reason when one was given. */
export const withReason = <T extends object>(view: T, by: ReasonedAuthor | null | undefined) => (by?.reason ? { ...view, reason: by.reason } : view);

/** What the wallet answered: the hold is in place, or it was refused for funds. */
export type WalletOutcome = { kind: 'done' } | { kind: 'declined'; error: AppError };

export function isTransitional(status: WithdrawalRowStatus): boolean {
  return status === 'reserving' || status === 'cancelling' || status === 'rejecting' || status === 'paying';
}

/** The wallet step of a transitional row; idempotent by the withdrawal id. */
export async function applyWalletStep(deps: FlowDeps, row: WithdrawalRow): Promise<WalletOutcome> {
  const ref: WalletHoldRef = { brandId: row.brandId, withdrawalId: row.id };
  switch (row.status) {
    case 'reserving': {
      const cmd: WalletHold = { ...ref, playerId: row.playerId, currency: row.currency, amount: row.amount };
      try {
        await deps.call(WALLET_SUBJECTS.hold, cmd);
      } catch (e) {
        if (e instanceof AppError && e.code === 'INSUFFICIENT_FUNDS') {
          crashPoint('payments.withdraw.after-hold');
          return { kind: 'declined', error: new AppError('INSUFFICIENT_FUNDS') };
        }
        throw e;
      }
      crashPoint('payments.withdraw.after-hold');
      return { kind: 'done' };
    }
    case 'cancelling':
    case 'rejecting':
      await deps.call(WALLET_SUBJECTS.release, ref);
      crashPoint(row.status === 'cancelling' ? 'payments.cancel.after-release' : 'payments.reject.after-release');
      return { kind: 'done' };
    case 'paying':
      await deps.call(WALLET_SUBJECTS.capture, ref);
      crashPoint('payments.pay.after-capture');
      return { kind: 'done' };
    default:
      throw new Error(`withdrawal ${row.id} is ${row.status}: no wallet step`);
  }
}

const FINAL: Partial<Record<WithdrawalRowStatus, WithdrawalRowStatus>> = {
  reserving: 'under_review',
  cancelling: 'cancelled',
  rejecting: 'rejected',
  paying: 'paid',
};

/**
 * The wallet step of a transitional row and, for a create whose hold is in place, the system's
 * decision on it (flows/auto-approval.ts): what the completion needs, asked before its transaction.
 */
export async function walletStepOf(deps: FlowDeps, row: WithdrawalRow): Promise<{ outcome: WalletOutcome; auto: AutoDecision | undefined }> {
  const outcome = await applyWalletStep(deps, row);
  const auto = row.status === 'reserving' && outcome.kind === 'done' ? await autoDecisionFor(deps, row) : undefined;
  return { outcome, auto };
}

/**
 * The completion on a row locked by the caller and still in its transitional state. A create the
 * system approves (`auto`) ends `paying` instead of `under_review`: approved (its event and audit
 * row), its payout's intent recorded for the system; the create's answer shows it approved.
 */
export async function completeMove(tx: SqlRunner, row: WithdrawalRow, outcome: WalletOutcome, auto?: AutoDecision): Promise<WithdrawalRow> {
  const at = new Date();
  if (outcome.kind === 'declined') {
    // Invisible to the API: the request's answer is the stored 422.
    const declined = await markStatus(tx, row, 'declined', at);
    const stored = errorResponse(outcome.error);
    const ref = keyFromRow(row.requestScope, row.requestKey, row.requestFingerprint, row.requestId);
    await answers.storeResponse(tx, ref, CREATE_OPERATION, stored.status, stored.body);
    return declined;
  }
  const previousStatus: WithdrawalStatus | null = row.status === 'reserving' ? null : visibleStatus(row.status);
  const owner = { operatorId: row.operatorId, brandId: row.brandId, environment: row.environment };
  const done = await markStatus(tx, row, FINAL[row.status]!, at);
  const view = withdrawalView(done);
  await writeEvent(tx, 'payments', owner, 'withdrawal.status_changed', { withdrawal: view, previousStatus });
  if (row.status === 'reserving' && auto?.approve) {
    const by = systemAuthor(row);
    const approved = await markApproved(tx, done, by, at);
    const approvedView = withdrawalView(approved);
    await writeEvent(tx, 'payments', owner, 'withdrawal.status_changed', { withdrawal: approvedView, previousStatus: 'under_review' });
    await writeDecisionAudit(tx, 'payments', by, {
      action: AUTO_DECISION,
      target: `withdrawal:${row.id}`,
      before: view,
      after: { ...approvedView, reason: auto.reason },
    });
    await markIntent(tx, row.id, 'paying', undefined, by);
    await answers.storeResponse(tx, keyFromRow(row.requestScope, row.requestKey, row.requestFingerprint), CREATE_OPERATION, 201, approvedView);
    return { ...approved, status: 'paying', decidedBy: by };
  }
  if (row.status === 'reserving')
    await answers.storeResponse(tx, keyFromRow(row.requestScope, row.requestKey, row.requestFingerprint), CREATE_OPERATION, 201, view);
  if (row.status === 'cancelling')
    await answers.storeResponse(tx, keyFromRow(row.actionScope, row.actionKey, row.actionFingerprint), CANCEL_OPERATION, 200, view);
  if (row.status === 'rejecting' || row.status === 'paying') {
    // A person's reject or pay (or the system's payout of what it approved) is audited as it takes effect, once: this row is completed once.
    if (row.decidedBy) {
      await writeDecisionAudit(tx, 'payments', row.decidedBy, {
        action: isSystem(row.decidedBy) ? AUTO_DECISION : ADMIN_DECISION,
        target: `withdrawal:${row.id}`,
        before: withdrawalView(row),
        after: withReason(view, row.decidedBy),
      });
    }
    await answers.storeResponse(
      tx,
      keyFromRow(row.actionScope, row.actionKey, row.actionFingerprint),
      decideOperation(row.status === 'paying' ? 'pay' : 'reject'),
      200,
      view,
    );
  }
  return done;
}

/**
 * Wallet step and completion for a withdrawal whose intent is recorded; returns the row as it ends.
 * A create the system approved ends with its payout's intent recorded: that move is finished too.
 */
export async function finishMove(deps: FlowDeps, id: string): Promise<WithdrawalRow> {
  const row = await readWithdrawal(deps.sql, id);
  if (!row) throw new Error(`withdrawal ${id} vanished`);
  if (!isTransitional(row.status)) return row;
  const { outcome, auto } = await walletStepOf(deps, row);
  const done = await inTransaction(deps, async (tx) => {
    const locked = (await lockWithdrawal(tx, id, undefined))!;
    // Finished meanwhile by the reconciler or a retry: nothing left to do.
    return locked.status === row.status ? completeMove(tx, locked, outcome, auto) : locked;
  });
  crashPoint(`payments.${moveName(row.status)}.after-complete`);
  return row.status === 'reserving' && done.status === 'paying' ? finishMove(deps, id) : done;
}

function moveName(status: WithdrawalRowStatus): string {
  return status === 'reserving' ? 'withdraw' : status === 'cancelling' ? 'cancel' : status === 'rejecting' ? 'reject' : 'pay';
}
