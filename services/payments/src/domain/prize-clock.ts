// The prize clock in payments (issue #46 item 3; docs/eligibility.md, "The prize clock"). Portaria
// SPA/MF 615/2024, art. 7 §4, has prizes paid within 120 minutes of the end of the event bet on; a
// withdrawal is the bettor asking, possibly much later, for money they kept in their account (§1),
// which the ordinance does not time. We read it strictly: a br-spa withdrawal is treated as the
// payment of a prize, due 120 minutes after it was requested. And the rule of the automatic approval
// our team may set per operator, so that small payouts meet that clock without a person.
import { PRIZE_CLOCK_MINUTES, type PlayerState } from '@bo/contracts';
import { compareMoney } from '@bo/service-kit';

const MINUTE_MS = 60_000;

/** A br-spa withdrawal's payout deadline: `PRIZE_CLOCK_MINUTES` after its request. */
export function payoutDueAtOf(requestedAt: Date): Date {
  return new Date(requestedAt.getTime() + PRIZE_CLOCK_MINUTES * MINUTE_MS);
}

/** Less than this left before its deadline, a withdrawal waiting for its payout is near it (the metric counts it, the alert reads it). */
export const NEAR_DEADLINE_MINUTES = 30;

/** Where a withdrawal waiting for its payout stands against its deadline. */
export const CLOCK_STATES = ['ahead', 'near', 'overdue'] as const;
export type ClockState = (typeof CLOCK_STATES)[number];

/** What the system decides about a br-spa withdrawal whose hold is in place: approve and pay it, or leave it to a person; why, either way. */
export interface AutoDecision {
  approve: boolean;
  reason: string;
}

/** What the automatic approval reads besides the withdrawal: each undefined when its service did not answer (no approval then). */
export interface AutoApprovalFacts {
  /** The operator's amount; null: automatic approval is off. */
  belowAmount: string | null;
  player: PlayerState | undefined;
  /** Whether an AML review holds the player's payouts (flows/aml-hold.ts). */
  amlHeld: boolean | undefined;
}

const leave = (reason: string): AutoDecision => ({ approve: false, reason });

/**
 * Approve and pay without a person only what a person would approve and pay without a question:
 * under the prize clock, below the operator's amount, an active player no impediment restricted,
 * no AML review holding the payouts. Anything unknown (a service that did not answer) leaves it to a
 * person: the withdrawal stays under review, as it would be with automatic approval off.
 */
export function autoDecisionOf(w: { amount: string; currency: string; payoutDueAt: Date | null }, f: AutoApprovalFacts): AutoDecision {
  if (w.payoutDueAt === null) return leave('not under the prize clock (compliance profile off)');
  if (f.belowAmount === null) return leave('automatic approval is off for this operator');
  if (compareMoney(w.amount, f.belowAmount) >= 0) return leave(`not below the automatic approval amount ${f.belowAmount} ${w.currency}`);
  if (!f.player?.exists) return leave('the player could not be read');
  if (f.player.restrictedAt) return leave('an impediment restricted the player');
  if (f.player.status !== 'ativo') return leave(`the player is ${f.player.status}`);
  if (f.amlHeld === undefined) return leave('whether an AML review holds the payout could not be read');
  if (f.amlHeld) return leave("an AML review holds the player's payouts");
  return {
    approve: true,
    reason: `below the operator's automatic approval amount (${f.belowAmount} ${w.currency}); no AML review holds the payout; no impediment restricts the player`,
  };
}
