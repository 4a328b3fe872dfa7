// The payments service: deposits, withdrawals and the review queue. Money moves through the wallet
// as intent → idempotent effect → completion, and a reconciler finishes interrupted moves
// (docs/money.md). Subjects come from the contract's operation table.
import { paymentAdminOperations as admin, paymentOperations as ops } from '@bo/contracts';
import type { ServiceDefinition } from '@bo/service-kit';
import { paymentsMigrations, PAYMENTS_SCHEMA } from './persistence/migrations.ts';
import { confirmDeposit, createDeposit, failDeposit } from './handlers/deposits.ts';
import {
  adminDecision, adminListWithdrawals, cancelWithdrawal, createWithdrawal, getWithdrawal, sandboxDecision,
} from './handlers/withdrawals.ts';
import { startReconciler } from './flows/reconciler.ts';
import { PaymentsConfigSchema } from './config.ts';

export const paymentsService: ServiceDefinition<typeof PaymentsConfigSchema> = {
  name: 'payments',
  schema: PAYMENTS_SCHEMA,
  config: PaymentsConfigSchema,
  entities: [],
  migrations: paymentsMigrations,
  handlers: (deps) => ({
    [ops.createDeposit.subject]: createDeposit(deps),
    [ops.confirmDeposit.subject]: confirmDeposit(deps),
    [ops.failDeposit.subject]: failDeposit(deps),
    [ops.createWithdrawal.subject]: createWithdrawal(deps),
    [ops.getWithdrawal.subject]: getWithdrawal(deps),
    [ops.cancelWithdrawal.subject]: cancelWithdrawal(deps),
    [ops.sandboxWithdrawalDecision.subject]: sandboxDecision(deps),
    [admin.adminListWithdrawals.subject]: adminListWithdrawals(deps),
    [admin.adminWithdrawalDecision.subject]: adminDecision(deps),
  }),
  background: (deps) => [startReconciler(deps, { intervalMs: deps.config.RECONCILE_INTERVAL_MS, afterMs: deps.config.RECONCILE_AFTER_MS })],
};
