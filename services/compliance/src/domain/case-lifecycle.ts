// A case's life (docs/aml.md): open → under_review → reported (with the Siscoaf receipt) or
// dismissed. Reporting takes a second person: whoever took the case under review cannot also
// report it (four eyes, as for payouts). So does dismissing a case that holds the player's payouts
// (issue #61): it is taken under review by one person and dismissed, with a reason, by another, never
// dismissed straight from open. Plain rules over the case's state.
import { AppError, validationError, type AmlCaseDecision, type AmlCaseStatus } from '@bo/contracts';

const NEXT: Record<AmlCaseStatus, readonly AmlCaseStatus[]> = {
  open: ['under_review', 'dismissed'],
  under_review: ['reported', 'dismissed'],
  reported: [],
  dismissed: [],
};

/** Throws the refusal of a decision, if any: a wrong step (409), a report without a receipt (422), or by the reviewer (403). */
/** `decider`: who decides, as four eyes compares people (their id: service-kit `deciderOf`). */
/** `reportDecided`: our team decided to report the case (its COS is due): it is reported, not dismissed. */
/** `holdsPayouts`: the case holds the player's payouts now (high, active, br-spa): its dismissal takes a second person. */
export function checkDecision(
  current: { status: AmlCaseStatus; reviewerId: string | null; reportDecided?: boolean; holdsPayouts?: boolean },
  decision: AmlCaseDecision,
  decider: string,
): void {
  if (decision.status === 'reported' && !decision.receipt) {
    throw validationError('body', [{ path: '/receipt', message: 'the Siscoaf receipt number is required to mark a case reported' }]);
  }
  if (decision.status !== 'reported' && decision.receipt !== undefined) {
    throw validationError('body', [{ path: '/receipt', message: 'only a reported case has a receipt' }]);
  }
  if (!NEXT[current.status].includes(decision.status)) {
    throw new AppError('AML_CASE_INVALID_TRANSITION', `A case ${current.status} cannot become ${decision.status}.`);
  }
  if (decision.status === 'reported' && current.reviewerId === decider) {
    throw new AppError('FOUR_EYES_REQUIRED', 'A case is reported by someone other than the person who reviewed it.');
  }
  if (decision.status === 'dismissed' && current.reportDecided) {
    throw new AppError('AML_CASE_INVALID_TRANSITION', 'A case decided for reporting to COAF is reported (its COS is due), not dismissed.');
  }
  if (decision.status === 'dismissed' && current.holdsPayouts && (current.status === 'open' || current.reviewerId === decider)) {
    throw new AppError(
      'FOUR_EYES_REQUIRED',
      current.status === 'open'
        ? "A case that holds the player's payouts is dismissed by two people: one takes it under review, another dismisses it with a reason."
        : "A case that holds the player's payouts is dismissed by someone other than the person who reviewed it.",
      { holdsPayouts: true },
    );
  }
}

/**
 * Throws the refusal of a decision to report a case to COAF, if any: only a case under review, once
 * (409), and by someone other than its reviewer (403), as for marking it reported.
 */
export function checkReportDecision(current: { status: AmlCaseStatus; reviewerId: string | null; reportDecided: boolean }, decider: string): void {
  if (current.status !== 'under_review') {
    throw new AppError('AML_CASE_INVALID_TRANSITION', `A case ${current.status} cannot be decided for reporting: it is reviewed first.`);
  }
  if (current.reportDecided) throw new AppError('AML_CASE_INVALID_TRANSITION', 'The case is already decided for reporting.');
  if (current.reviewerId === decider) {
    throw new AppError('FOUR_EYES_REQUIRED', 'A case is decided for reporting by someone other than the person who reviewed it.');
  }
}

/** Whether the case still holds the player's payouts (an active high case). */
export function isActive(status: AmlCaseStatus): boolean {
  return status === 'open' || status === 'under_review';
}
