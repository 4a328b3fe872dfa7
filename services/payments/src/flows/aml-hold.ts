// The AML payout hold (issue #28): while a player of a br-spa operator has an open high-risk case,
// our team's payout of their withdrawals is refused with 403 AML_REVIEW_REQUIRED (approve and
// reject still work). Payments asks the compliance service at pay time, inside the transaction
// that holds the withdrawal's row lock and records the payout intent, rather than keeping a copy
// of the holds: no copy to keep in step, no window between a case opening and the hold arriving
// (docs/aml.md, "The payout hold"). Fail-closed: no answer from compliance is a 503 and nothing
// is paid. Operators whose profile is `off` never ask compliance.
import { AppError, amlMessages, complianceProfileMessages, type AmlHold, type OperatorCompliance } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

export async function refuseIfAmlHold(deps: Pick<ServiceDeps, 'call'>, w: { operatorId: string; brandId: string; playerId: string }): Promise<void> {
  const { profile } = await deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId: w.operatorId });
  if (profile !== 'br-spa') return;
  const hold = await deps.call<AmlHold>(amlMessages.holdCheck.subject, { brandId: w.brandId, playerId: w.playerId });
  if (hold.held) throw new AppError('AML_REVIEW_REQUIRED');
}
