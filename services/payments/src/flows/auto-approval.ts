// Automatic approval (issue #46 item 3; docs/money.md, "Automatic approval"): a br-spa withdrawal
// below the amount our team set for its operator is approved and paid by the system as it is
// requested, so that a small payout meets the prize clock (domain/prize-clock.ts) without waiting
// for a person. Asked once its hold is in place, before the transaction that completes the create:
// the operator's amount, the player (an impediment's restriction, the status) and the AML payout
// hold, the same compliance question a person's payout asks (flows/aml-hold.ts). The approval, the
// intent to pay and the audit row (actor `system:auto-approval`, with the reason) commit with the
// create's completion (withdrawal-moves.ts); the payout is then a move like any other, finished by
// the request or, after a crash, by the reconciler. Default off: no amount set, nothing changes.
import { PLAYER_STATE_SUBJECT, amlMessages, newId, type AmlHold, type PlayerState, type PlayerStateRequest } from '@bo/contracts';
import type { DecisionAuthor } from '@bo/service-kit';
import { autoDecisionOf, type AutoDecision } from '../domain/prize-clock.ts';
import type { WithdrawalRow } from '../domain/withdrawals.ts';
import { autoApprovalOf } from '../store/withdrawal-store.ts';
import type { FlowDeps } from './context.ts';

/** Who decides an automatic approval and its payout: no person (the audit row's actorId is null). */
export const SYSTEM_ACTOR = 'system:auto-approval';
/** The action an automatic decision's audit rows name (a person's is `adminWithdrawalDecision`). */
export const AUTO_DECISION = 'autoWithdrawalDecision';

export function systemAuthor(row: Pick<WithdrawalRow, 'requestId'>): DecisionAuthor {
  // No idempotency key: the approval and the payout are each audited once, by the one completion of their move.
  return { actor: SYSTEM_ACTOR, requestId: row.requestId ?? newId('request') };
}

export const isSystem = (by: DecisionAuthor | null): boolean => by?.actor === SYSTEM_ACTOR;

/** The system's decision on a withdrawal whose hold is in place (`reserving`): read what the rule needs, then apply it. */
export async function autoDecisionFor(deps: FlowDeps, row: WithdrawalRow): Promise<AutoDecision> {
  const facts = { belowAmount: null as string | null, player: undefined as PlayerState | undefined, amlHeld: undefined as boolean | undefined };
  if (row.payoutDueAt === null) return autoDecisionOf(row, facts);
  facts.belowAmount = (await autoApprovalOf(deps.sql, row.operatorId)).belowAmount;
  if (facts.belowAmount === null) return autoDecisionOf(row, facts);
  const ask = { brandId: row.brandId, playerId: row.playerId };
  [facts.player, facts.amlHeld] = await Promise.all([
    deps.call<PlayerState>(PLAYER_STATE_SUBJECT, ask satisfies PlayerStateRequest).catch(() => undefined),
    deps.call<AmlHold>(amlMessages.holdCheck.subject, ask).then(
      (h) => h.held,
      () => undefined,
    ),
  ]);
  const decision = autoDecisionOf(row, facts);
  if (!decision.approve) deps.log.info({ withdrawal: row.id, reason: decision.reason }, 'withdrawal left to a person');
  return decision;
}
