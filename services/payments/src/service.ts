// The payments service: deposits, withdrawals and the review queue. Money moves through the wallet
// as intent → idempotent effect → completion, and a reconciler finishes interrupted moves
// (docs/money.md). Subjects come from the contract's operation table.
import { paymentAdminOperations as admin, paymentOperations as ops } from '@bo/contracts';
import { handle, type ServiceDefinition } from '@bo/service-kit';
import { paymentsMigrations, PAYMENTS_SCHEMA } from './persistence/migrations.ts';
import { adminListDeposits, confirmDeposit, createDeposit, failDeposit } from './handlers/deposits.ts';
import {
  adminDecision,
  adminGetFourEyes,
  adminListWithdrawals,
  adminSetFourEyes,
  cancelWithdrawal,
  createWithdrawal,
  getWithdrawal,
  sandboxDecision,
} from './handlers/withdrawals.ts';
import { startReconciler } from './flows/reconciler.ts';
import { forgetExpiredRequestKeys } from './persistence/withdrawal-store.ts';
import { PaymentsConfigSchema } from './config.ts';

/** The money operations store their answer in the statement or transaction of their effect (the kit's idempotency.ts). */
const ANSWERED_BY_EFFECT = { answers: 'effect' } as const;

export const paymentsService: ServiceDefinition<typeof PaymentsConfigSchema> = {
  name: 'payments',
  schema: PAYMENTS_SCHEMA,
  config: PaymentsConfigSchema,
  entities: [],
  migrations: paymentsMigrations,
  handlers: (deps) => ({
    ...handle(ops.createDeposit, createDeposit(deps), ANSWERED_BY_EFFECT),
    ...handle(ops.confirmDeposit, confirmDeposit(deps), ANSWERED_BY_EFFECT),
    ...handle(ops.failDeposit, failDeposit(deps), ANSWERED_BY_EFFECT),
    ...handle(ops.createWithdrawal, createWithdrawal(deps), ANSWERED_BY_EFFECT),
    ...handle(ops.getWithdrawal, getWithdrawal(deps)),
    ...handle(ops.cancelWithdrawal, cancelWithdrawal(deps), ANSWERED_BY_EFFECT),
    ...handle(ops.sandboxWithdrawalDecision, sandboxDecision(deps), ANSWERED_BY_EFFECT),
    ...handle(admin.adminListWithdrawals, adminListWithdrawals(deps)),
    ...handle(admin.adminWithdrawalDecision, adminDecision(deps), ANSWERED_BY_EFFECT),
    ...handle(admin.adminListDeposits, adminListDeposits(deps)),
    ...handle(admin.adminGetFourEyes, adminGetFourEyes(deps)),
    ...handle(admin.adminSetFourEyes, adminSetFourEyes(deps)),
  }),
  background: (deps) => [startReconciler(deps, { intervalMs: deps.config.RECONCILE_INTERVAL_MS, afterMs: deps.config.RECONCILE_AFTER_MS })],
  // A withdrawal create's key lives on its row (the move's dedupe): forgotten with the stored answers.
  forgetRowKeys: async (deps, olderThan, batch) => (await forgetExpiredRequestKeys(deps.sql, olderThan, batch)) === batch,
};
