// Which role may call which admin operation: one table, checked before anything else runs.
// `admin` may call everything; the bootstrap ADMIN_TOKEN acts as `admin`.
import type { AdminRole } from '@bo/contracts';

const ROLES_BY_OPERATION: Record<string, readonly AdminRole[]> = {
  // Players, KYC and responsible gaming: compliance.
  adminSetPlayerStatus: ['compliance'],
  adminSetPlayerLimits: ['compliance'],
  adminKycDecision: ['compliance'],
  // Money out and the ledger: finance (support may read the queue).
  adminListWithdrawals: ['finance', 'support'],
  adminWithdrawalDecision: ['finance'],
  adminVerifyLedger: ['finance'],
  // Webhook deliveries: support (and finance, who answer operators about payouts).
  adminListDeliveries: ['support', 'finance'],
  adminRedeliver: ['support'],
  // Reading operators and the audit log is for everyone on the team; changing them is admin's.
  adminListOperators: ['compliance', 'finance', 'support'],
  adminGetOperator: ['compliance', 'finance', 'support'],
  adminListAudit: ['compliance', 'finance', 'support'],
};

export function roleMayCall(role: AdminRole, operationId: string): boolean {
  return role === 'admin' || (ROLES_BY_OPERATION[operationId]?.includes(role) ?? false);
}
