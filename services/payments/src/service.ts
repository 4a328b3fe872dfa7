// The payments service: deposits, withdrawals and the review queue. Money moves through the wallet
// as intent → idempotent effect → completion, and a reconciler finishes interrupted moves
// (docs/money.md). Subjects come from the contract's operation table.
import {
  afterHitAdminOperations,
  closeoutMessages,
  fundPayoutMessages,
  paymentAdminOperations as admin,
  paymentOperations as ops,
  regulatorFileMessages,
  rgUsageMessages,
} from '@bo/contracts';
import { handle, personalDataHandlers, type ServiceDefinition } from '@bo/service-kit';
import { paymentsPersonalData } from './store/personal-data.ts';
import { paymentsMigrations, PAYMENTS_SCHEMA } from './store/migrations.ts';
import { adminListDeposits, confirmDeposit, createDeposit, failDeposit } from './handlers/deposits.ts';
import {
  adminDecision,
  adminGetAutoApproval,
  adminGetFourEyes,
  adminListWithdrawals,
  adminWithdrawalQueue,
  adminSetAutoApproval,
  adminSetFourEyes,
  cancelWithdrawal,
  createWithdrawal,
  getWithdrawal,
  sandboxDecision,
} from './handlers/withdrawals.ts';
import { startReconciler } from './flows/reconciler.ts';
import { COMPLETION_GROUP } from './store/deposit-completion.ts';
import { CREATE_GROUP, INTENT_GROUP } from './store/deposit-store.ts';
import { depositRgUsage } from './handlers/rg-usage.ts';
import { forgetExpiredRequestKeys } from './store/withdrawal-store.ts';
import { PaymentsConfigSchema } from './config.ts';
import { setupOwnAccount, type OwnAccount } from './own-account/setup.ts';
import { sandboxAddPixKey, sandboxRemovePixKey } from './handlers/sandbox-pix-keys.ts';
import { closeout } from './own-account/closeout.ts';
import { regulatorRecords } from './handlers/regulator-records.ts';
import { registerPayoutClockMetrics } from './flows/payout-clock-metrics.ts';
import { adminListFundPayouts, requestFundPayouts } from './handlers/fund-payouts.ts';
import { startFundPayouts } from './flows/fund-payouts.ts';

/** The prize clock's gauge, registered with the service (read when scraped: nothing to stop). */
function payoutClockMetrics(deps: { metrics: Parameters<typeof registerPayoutClockMetrics>[0]; sql: Parameters<typeof registerPayoutClockMetrics>[1] }) {
  registerPayoutClockMetrics(deps.metrics, deps.sql);
  return async () => undefined;
}

/** The money operations store their answer in the statement or transaction of their effect (the kit's idempotency/). */
const ANSWERED_BY_EFFECT = { answers: 'effect' } as const;

/** The service; tests pass `onSetup` to drive the simulated PSP key directory. */
export function paymentsServiceWith(onSetup?: (own: OwnAccount) => void): ServiceDefinition<typeof PaymentsConfigSchema, OwnAccount> {
  return {
    name: 'payments',
    schema: PAYMENTS_SCHEMA,
    config: PaymentsConfigSchema,
    entities: [],
    migrations: paymentsMigrations,
    // A decision's audit row goes to the internal stream, for the operators service's audit log.
    internalEvents: true,
    groupCommits: [CREATE_GROUP, INTENT_GROUP, COMPLETION_GROUP],
    setup: (deps) => setupOwnAccount(deps, onSetup),
    handlers: (deps, own) => ({
      // What payments holds about a player, for the players service's data requests (issue #69).
      ...personalDataHandlers(deps, paymentsPersonalData),
      ...handle(ops.createDeposit, createDeposit(deps), ANSWERED_BY_EFFECT),
      ...handle(ops.confirmDeposit, confirmDeposit(deps, own), ANSWERED_BY_EFFECT),
      ...handle(ops.failDeposit, failDeposit(deps), ANSWERED_BY_EFFECT),
      ...handle(ops.createWithdrawal, createWithdrawal(deps, own), ANSWERED_BY_EFFECT),
      ...handle(ops.sandboxAddPixKey, sandboxAddPixKey(deps)),
      ...handle(ops.sandboxRemovePixKey, sandboxRemovePixKey(deps)),
      ...handle(closeoutMessages.closeout, closeout(deps)),
      ...handle(ops.getWithdrawal, getWithdrawal(deps)),
      ...handle(ops.cancelWithdrawal, cancelWithdrawal(deps), ANSWERED_BY_EFFECT),
      ...handle(ops.sandboxWithdrawalDecision, sandboxDecision(deps), ANSWERED_BY_EFFECT),
      ...handle(admin.adminListWithdrawals, adminListWithdrawals(deps)),
      ...handle(admin.adminWithdrawalQueue, adminWithdrawalQueue(deps)),
      ...handle(admin.adminWithdrawalDecision, adminDecision(deps), ANSWERED_BY_EFFECT),
      ...handle(admin.adminListDeposits, adminListDeposits(deps)),
      ...handle(admin.adminGetFourEyes, adminGetFourEyes(deps)),
      ...handle(admin.adminSetFourEyes, adminSetFourEyes(deps)),
      ...handle(admin.adminGetAutoApproval, adminGetAutoApproval(deps)),
      ...handle(admin.adminSetAutoApproval, adminSetAutoApproval(deps)),
      ...handle(rgUsageMessages.payments, depositRgUsage(deps)),
      ...handle(regulatorFileMessages.records, regulatorRecords(deps)),
      // The transfers of unclaimed funds to FIES and FUNCAP (issue #60): asked by the wallet, paid by the loop below.
      ...handle(fundPayoutMessages.request, requestFundPayouts(deps)),
      ...handle(afterHitAdminOperations.adminListFundPayouts, adminListFundPayouts(deps)),
    }),
    background: (deps, own) => [
      startReconciler(deps, { intervalMs: deps.config.RECONCILE_INTERVAL_MS, afterMs: deps.config.RECONCILE_AFTER_MS }),
      payoutClockMetrics(deps),
      startFundPayouts(deps, own),
      async () => own.profiles.stop(),
    ],
    // A withdrawal create's key lives on its row (the move's dedupe): forgotten with the stored answers.
    forgetRowKeys: async (deps, olderThan, batch) => (await forgetExpiredRequestKeys(deps.sql, olderThan, batch)) === batch,
  };
}

export const paymentsService = paymentsServiceWith();
