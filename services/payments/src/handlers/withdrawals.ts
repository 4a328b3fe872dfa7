// payments.withdrawals.create / get / cancel, the sandbox decision, and the admin review queue
// and decision.
import {
  AppError,
  MAX_AMOUNT,
  callOperation,
  playerSummaryMessages,
  validationError,
  walletOperations,
  type Environment,
  type PlayerSummary,
  type Wallet,
  type paymentAdminOperations,
  type paymentOperations,
  type ReviewQueueOrder,
  type WithdrawalDecision,
  type WithdrawalStatus,
} from '@bo/contracts';
import {
  adminScopeOf,
  crashPoint,
  decisionAuthorOf,
  formatMoney,
  isPositiveWithin,
  writeDecisionAudit,
  type DecisionAuthor,
  listCursor,
  ReplayedRefusal,
  StoredRefusal,
  writeEvent,
  assertSameRequest,
  type HandlerOf,
  type HandlerResult,
  requestKeyOf,
  type RequestKey,
  type ServiceDeps,
  operatorScopeOf,
} from '@bo/service-kit';
import {
  INVISIBLE,
  checkFourEyes,
  checkWithdrawalAllowed,
  planDecision,
  reservingRow,
  rowStatusesShownAs,
  withdrawalView,
  type WithdrawalRow,
} from '../domain/withdrawals.ts';
import { checkAmount } from '../domain/deposits.ts';
import { refuseIfAmlHold } from '../flows/aml-hold.ts';
import { reviewFlagsOf, type ReviewFlags } from '../flows/review-flags.ts';
import type { PaymentsConfig } from '../config.ts';
import {
  autoApprovalOf,
  findByRequestKey,
  fourEyesOf,
  insertReserving,
  listPlayerWithdrawals,
  listWithdrawals,
  lockWithdrawal,
  markApproved,
  markIntent,
  queuePosition,
  readWithdrawal,
  setAutoApproval,
  setFourEyes,
} from '../store/withdrawal-store.ts';
import { payoutDueAtOf } from '../domain/prize-clock.ts';
import { ADMIN_DECISION, CANCEL_OPERATION, CREATE_OPERATION, decideOperation, finishMove, withReason, type ReasonedAuthor } from '../flows/withdrawal-moves.ts';
import { answers, inTransaction } from '../flows/context.ts';
import { adminActor, playerState } from './request.ts';
import { checkDestinationOwned, checkMethod, checkWithdrawalWindow, isBrSpa, pixDestinationOf } from '../own-account/own-account-rules.ts';
import type { OwnAccount } from '../own-account/setup.ts';

/**
 * The answer a move this request finished stored under its key (a declined hold's 422 included),
 * given as this request's own answer: it is not a replay (no `Idempotent-Replayed`), whoever
 * (this request, a copy or the reconciler) happened to write it.
 */
async function answerStoredByMove(deps: ServiceDeps, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined> {
  try {
    const stored = await answers.findStored(deps.sql, ref, operation);
    return stored && { status: stored.status, body: stored.body };
  } catch (e) {
    if (e instanceof ReplayedRefusal) throw new StoredRefusal(e.code, e.message, e.details);
    throw e;
  }
}

/**
 * The answer to a create whose row exists: once the hold is answered, the response stored with
 * it. A row this request finishes (its own, or an interrupted attempt of its key) is answered as
 * new; one finished before is a replay.
 */
async function answerCreate(deps: ServiceDeps, row: WithdrawalRow, ref: RequestKey | undefined): Promise<HandlerResult> {
  assertSameRequest(row.requestFingerprint, ref);
  if (row.status !== 'reserving') {
    const stored = await answers.findStored(deps.sql, ref, CREATE_OPERATION);
    if (stored) return stored;
  }
  const done = row.status === 'reserving' ? await finishMove(deps, row.id) : row;
  const stored = await answerStoredByMove(deps, ref, CREATE_OPERATION);
  if (stored) return stored;
  if (done.status === 'declined') throw new StoredRefusal('INSUFFICIENT_FUNDS');
  return { status: 201, body: withdrawalView(done) };
}

export function createWithdrawal(deps: ServiceDeps, own: OwnAccount): HandlerOf<typeof paymentOperations.createWithdrawal> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const ref = requestKeyOf(req.ctx);
    const stored = await answers.findStored(deps.sql, ref, CREATE_OPERATION);
    if (stored) return stored;
    // An earlier attempt with this key recorded its intent and was interrupted: finish that one.
    const earlier = ref && (await findByRequestKey(deps.sql, ref.scope, ref.key));
    if (earlier) return answerCreate(deps, earlier, ref);

    const { playerId } = req.params;
    const input = req.body;
    checkAmount(input.amount);
    const player = await playerState(deps, scope.brandId, playerId);
    checkWithdrawalAllowed(player, input.currency);
    if (isBrSpa(player)) {
      // Ordinance 615/2024: only to the player's own account; after an impediment hit, only inside its window.
      checkMethod(input.method);
      checkWithdrawalWindow(player, new Date());
      await checkDestinationOwned(player, input.method, input.destination, own.keysFor(scope.environment), scope);
    }

    // Step 1: the intent, invisible to the API until the wallet answers.
    const now = new Date();
    const destination = pixDestinationOf(input.method, input.destination);
    // br-spa: the prize clock's payout deadline (domain/prize-clock.ts); none under the profile off.
    const payoutDueAt = isBrSpa(player) ? payoutDueAtOf(now) : null;
    const withdrawal = { playerId, amount: formatMoney(input.amount), currency: input.currency, method: input.method, destination, payoutDueAt };
    const id = await deps.sql.transaction((tx) => insertReserving(tx, reservingRow(scope, withdrawal, ref, now)));
    crashPoint('payments.withdraw.after-intent');
    return answerCreate(deps, (await readWithdrawal(deps.sql, id))!, ref);
  };
}

async function visibleWithdrawal(deps: ServiceDeps, id: string, brandId: string | undefined): Promise<WithdrawalRow> {
  const row = await readWithdrawal(deps.sql, id, brandId);
  if (!row || INVISIBLE.includes(row.status)) throw new AppError('WITHDRAWAL_NOT_FOUND');
  return row;
}

export function getWithdrawal(deps: ServiceDeps): HandlerOf<typeof paymentOperations.getWithdrawal> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { withdrawalId } = req.params;
    return { status: 200, body: withdrawalView(await visibleWithdrawal(deps, withdrawalId, scope.brandId)) };
  };
}

export function cancelWithdrawal(deps: ServiceDeps): HandlerOf<typeof paymentOperations.cancelWithdrawal> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const ref = requestKeyOf(req.ctx);
    const stored = await answers.findStored(deps.sql, ref, CANCEL_OPERATION);
    if (stored) return stored;
    const { withdrawalId } = req.params;
    // Step 1: the intent. From `cancelling` the withdrawal can only end cancelled.
    const answered = await deps.sql.transaction(async (tx) => {
      const row = await lockWithdrawal(tx, withdrawalId, scope.brandId);
      if (!row || INVISIBLE.includes(row.status)) throw new AppError('WITHDRAWAL_NOT_FOUND');
      const intentRow = { status: row.status, scope: row.actionScope, key: row.actionKey, fingerprint: row.actionFingerprint };
      return answers.recordIntent(tx, ref, CANCEL_OPERATION, intentRow, {
        from: 'under_review',
        to: 'cancelling',
        mark: () => markIntent(tx, row.id, 'cancelling', ref),
        refusal: 'WITHDRAWAL_NOT_CANCELLABLE',
      });
    });
    if (answered) return answered;
    crashPoint('payments.cancel.after-intent');
    const done = await finishMove(deps, withdrawalId);
    return (await answerStoredByMove(deps, ref, CANCEL_OPERATION)) ?? { status: 200, body: withdrawalView(done) };
  };
}

/** What a decision did: made now (with the rows before and after, and the answer stored under its key), or answered from an earlier request. */
type Decided = { replayed: HandlerResult } | { before: WithdrawalRow; after: WithdrawalRow; stored: HandlerResult | undefined };

/**
 * A decision of the team (admin, `by` is the person) or its sandbox simulation (`by`
 * undefined); `brandId` undefined = any brand. With a key, the answer is stored in the transaction
 * that makes the decision final (the move itself, or the completion of a wallet step), so a retry
 * after a lost answer gets it instead of a 409.
 */
async function decide(
  deps: ServiceDeps,
  id: string,
  brandId: string | undefined,
  decision: WithdrawalDecision,
  ref: RequestKey | undefined,
  by: DecisionAuthor | undefined,
): Promise<Decided> {
  const operation = decideOperation(decision);
  const early = await answers.findStored(deps.sql, ref, operation);
  if (early) return { replayed: early };
  const step = await inTransaction(deps, async (tx) => {
    const row = await lockWithdrawal(tx, id, brandId);
    if (!row || INVISIBLE.includes(row.status)) throw new AppError('WITHDRAWAL_NOT_FOUND');
    // A concurrent request with our key may have finished the decision since we last looked.
    const stored = await answers.findStored(tx, ref, operation);
    if (stored) return { stored };
    const plan = planDecision(decision, row.status);
    if (plan.kind === 'move') {
      const moved = await markApproved(tx, row, by, new Date());
      const view = withdrawalView(moved);
      // The decision's audit row, in its transaction (a lost answer or a crash cannot lose it).
      if (by)
        await writeDecisionAudit(tx, 'payments', by, {
          action: ADMIN_DECISION,
          target: `withdrawal:${id}`,
          before: withdrawalView(row),
          after: withReason(view, by),
        });
      await writeEvent(tx, 'payments', { operatorId: row.operatorId, brandId: row.brandId, environment: row.environment }, 'withdrawal.status_changed', {
        withdrawal: view,
        previousStatus: 'under_review',
      });
      await answers.storeResponse(tx, ref, operation, 200, view);
      return { before: row, started: false as const };
    }
    // The approver neither starts a payout nor finishes one another person started.
    if (decision === 'pay' && by) checkFourEyes(row, by, (await fourEyesOf(tx, row.operatorId)).minAmount);
    // Our team's payout waits for compliance while an open high AML case holds it (flows/aml-hold.ts).
    if (decision === 'pay' && by && plan.kind === 'start') await refuseIfAmlHold(deps, row);
    // The move's completion audits the decision (withdrawal-moves.ts), whoever completes it.
    if (plan.kind === 'start') await markIntent(tx, row.id, plan.to, ref, by);
    return { before: row, started: true as const };
  });
  if (step.stored) return { replayed: step.stored };
  if (!step.started) {
    crashPoint('payments.approve.after-commit');
    return { before: step.before, after: (await readWithdrawal(deps.sql, id))!, stored: undefined };
  }
  crashPoint(`payments.${decision}.after-intent`);
  const after = await finishMove(deps, id);
  // The wallet step's completion stored the answer under the key (it may say the payout failed).
  return { before: step.before, after, stored: await answerStoredByMove(deps, ref, operation) };
}

export function sandboxDecision(deps: ServiceDeps): HandlerOf<typeof paymentOperations.sandboxWithdrawalDecision> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { withdrawalId } = req.params;
    const decision = req.body.decision as WithdrawalDecision;
    const done = await decide(deps, withdrawalId, scope.brandId, decision, requestKeyOf(req.ctx), undefined);
    if ('replayed' in done) return done.replayed;
    return done.stored ?? { status: 200, body: withdrawalView(done.after) };
  };
}

export function adminDecision(deps: ServiceDeps): HandlerOf<typeof paymentAdminOperations.adminWithdrawalDecision> {
  return async (req) => {
    const decision = req.body.decision as WithdrawalDecision;
    const reason = req.body.reason?.trim();
    // A rejection says why (issue #61): the audit row keeps it with the decision.
    if (decision === 'reject' && !reason) throw validationError('body', [{ path: '/reason', message: 'a rejection says why (3 to 500 characters)' }]);
    const by: ReasonedAuthor = { ...decisionAuthorOf(adminScopeOf(req), req.ctx), ...(reason ? { reason } : {}) };
    const { id } = req.params;
    const done = await decide(deps, id, undefined, decision, requestKeyOf(req.ctx), by);
    // The decision was audited in its own transaction (approve) or its move's completion (reject, pay).
    if ('replayed' in done) return done.replayed;
    return done.stored ?? { status: 200, body: withdrawalView(done.after) };
  };
}

export function adminListWithdrawals(deps: ServiceDeps<PaymentsConfig>): HandlerOf<typeof paymentAdminOperations.adminListWithdrawals> {
  const page = reviewQueuePage(deps);
  return async (req) => {
    adminActor(req);
    const q = req.query;
    if (q.playerId) return { status: 200, body: await playerWithdrawals(deps, q) };
    return { status: 200, body: await page(q) };
  };
}

/** A page of the review queue: one status, in its order, one environment or both, after the cursor. */
function reviewQueuePage(deps: ServiceDeps<PaymentsConfig>) {
  // Bound to the status listed: a cursor of another status's queue is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'payments.withdrawals');
  return async (q: { status?: string; order?: string; limit?: number; cursor?: string; environment?: Environment }) => {
    const status = (q.status ?? 'under_review') as WithdrawalStatus;
    const order = (q.order ?? 'created') as ReviewQueueOrder;
    const limit = q.limit ?? 50;
    // A cursor is bound to its status, its order and its environment (the created order's binding, with
    // both environments, is the one it always had).
    const bound = [status, ...(order === 'created' && !q.environment ? [] : [order]), ...(q.environment ? [q.environment] : [])];
    const after = q.cursor ? cursors.decode(bound, q.cursor) : undefined;
    const rows = await listWithdrawals(deps.sql, rowStatusesShownAs(status), limit, after, order, q.environment);
    const flags = await reviewFlagsOf(deps, rows.slice(0, limit));
    return cursors.page(bound, rows, limit, adminView(flags), (r) => queuePosition(order, r));
  };
}

/**
 * The review queue as cards, a page in one request (issue #61): each withdrawal with its player (one
 * question to the players service for the page) and their wallet (asked per player, at once).
 */
export function adminWithdrawalQueue(deps: ServiceDeps<PaymentsConfig>): HandlerOf<typeof paymentAdminOperations.adminWithdrawalQueue> {
  const queue = reviewQueuePage(deps);
  return async (req) => {
    adminActor(req);
    const page = await queue(req.query);
    const ids = [...new Set(page.data.map((w) => w.playerId))];
    const players = new Map<string, PlayerSummary>();
    if (ids.length > 0) {
      const found = await deps
        .call<{ players: PlayerSummary[] }>(playerSummaryMessages.summaries.subject, { playerIds: ids })
        .catch(() => ({ players: [] as PlayerSummary[] }));
      for (const p of found.players) players.set(p.id, p);
    }
    const wallets = await Promise.all(page.data.map((w) => walletOf(deps, w).catch(() => null)));
    const data = page.data.map((w, i) => {
      const p = players.get(w.playerId);
      return {
        withdrawal: w,
        player: p ? { name: p.name, externalId: p.externalId, status: p.status, kycStatus: p.kycStatus } : null,
        wallet: wallets[i] ?? null,
      };
    });
    return { status: 200, body: { data, nextCursor: page.nextCursor } };
  };
}

/** A withdrawal's player's wallet, as the operator's brand reads it (the wallet's own answer). */
async function walletOf(deps: ServiceDeps, w: { operatorId: string; brandId: string; environment: string; currency: string; playerId: string }) {
  const wallet = await callOperation<Wallet>(
    deps.nc,
    walletOperations.getWallet.subject,
    {
      ctx: {
        requestId: `review-${w.playerId}`,
        scope: { kind: 'operator', operatorId: w.operatorId, brandId: w.brandId, environment: w.environment as Environment, currency: w.currency },
      },
      params: { playerId: w.playerId },
      query: {},
      body: {},
    },
    { prefix: deps.prefix, timeoutMs: deps.config.RPC_TIMEOUT_MS },
  );
  return { available: wallet.available, withdrawable: wallet.withdrawable, currency: wallet.currency };
}

const adminView = (flags: Map<string, ReviewFlags>) => (r: WithdrawalRow) => ({
  ...withdrawalView(r),
  operatorId: r.operatorId,
  brandId: r.brandId,
  environment: r.environment,
  approvedBy: r.approvedBy,
  ...(flags.get(r.id) ?? { heldForAmlReview: null, fourEyes: true }),
});

/** One player's withdrawals, newest first: what the review page shows beside a request. No cursor: the newest `limit`. */
async function playerWithdrawals(deps: ServiceDeps<PaymentsConfig>, q: { playerId?: string; status?: string; limit?: number; cursor?: string }) {
  if (q.cursor) throw validationError('query', [{ path: '/cursor', message: "does not apply to one player's withdrawals (the newest `limit` are listed)" }]);
  const rows = await listPlayerWithdrawals(deps.sql, q.playerId!, q.status ? rowStatusesShownAs(q.status as WithdrawalStatus) : undefined, q.limit ?? 50);
  return { data: rows.map(adminView(await reviewFlagsOf(deps, rows))), nextCursor: null };
}

export function adminGetFourEyes(deps: ServiceDeps): HandlerOf<typeof paymentAdminOperations.adminGetFourEyes> {
  return async (req) => {
    adminActor(req);
    return { status: 200, body: fourEyesView(req.params.id, await fourEyesOf(deps.sql, req.params.id)) };
  };
}

export function adminSetFourEyes(deps: ServiceDeps): HandlerOf<typeof paymentAdminOperations.adminSetFourEyes> {
  return async (req) => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const operatorId = req.params.id;
    const view = await deps.sql.transaction(async (tx) => {
      const before = fourEyesView(operatorId, await fourEyesOf(tx, operatorId));
      await setFourEyes(tx, operatorId, req.body.minAmount, by.actor);
      const after = fourEyesView(operatorId, await fourEyesOf(tx, operatorId));
      await writeDecisionAudit(tx, 'payments', by, { action: 'adminSetFourEyes', target: `operator:${operatorId}`, before, after });
      return after;
    });
    deps.outbox.poke();
    return { status: 200, body: view };
  };
}

function fourEyesView(operatorId: string, f: { minAmount: string; updatedAt: Date | null; updatedBy: string | null }) {
  return { operatorId, minAmount: formatMoney(f.minAmount), updatedAt: f.updatedAt ? new Date(f.updatedAt).toISOString() : null, updatedBy: f.updatedBy };
}

export function adminGetAutoApproval(deps: ServiceDeps): HandlerOf<typeof paymentAdminOperations.adminGetAutoApproval> {
  return async (req) => {
    adminActor(req);
    return { status: 200, body: autoApprovalView(req.params.id, await autoApprovalOf(deps.sql, req.params.id)) };
  };
}

/** Our team's amount below which the operator's br-spa withdrawals are approved and paid without a person (flows/auto-approval.ts); audited. */
export function adminSetAutoApproval(deps: ServiceDeps): HandlerOf<typeof paymentAdminOperations.adminSetAutoApproval> {
  return async (req) => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const operatorId = req.params.id;
    const { belowAmount } = req.body;
    if (belowAmount !== null && !isPositiveWithin(belowAmount, MAX_AMOUNT)) {
      throw validationError('body', [
        { path: '/belowAmount', message: `must be greater than 0 and at most ${MAX_AMOUNT}, or null to turn automatic approval off` },
      ]);
    }
    const view = await deps.sql.transaction(async (tx) => {
      const before = autoApprovalView(operatorId, await autoApprovalOf(tx, operatorId));
      await setAutoApproval(tx, operatorId, belowAmount === null ? null : formatMoney(belowAmount), by.actor);
      const after = autoApprovalView(operatorId, await autoApprovalOf(tx, operatorId));
      await writeDecisionAudit(tx, 'payments', by, { action: 'adminSetAutoApproval', target: `operator:${operatorId}`, before, after });
      return after;
    });
    deps.outbox.poke();
    return { status: 200, body: view };
  };
}

function autoApprovalView(operatorId: string, a: { belowAmount: string | null; updatedAt: Date | null; updatedBy: string | null }) {
  return {
    operatorId,
    belowAmount: a.belowAmount === null ? null : formatMoney(a.belowAmount),
    updatedAt: a.updatedAt ? new Date(a.updatedAt).toISOString() : null,
    updatedBy: a.updatedBy,
  };
}
