// The risk register of team members, partners and suppliers (know your employee, partner, supplier:
// Portaria SPA/MF 1.143/2024, docs/aml.md): what a subject must name, and when its rating is reviewed.
// Plain rules, no I/O.
import { RISK_REVIEW_MONTHS, validationError, type AddRiskSubject, type RiskLevel } from '@bo/contracts';

/** When a rating given at `ratedAt` is due for review: high 6 months, medium 12, low 24 after it (our choice, docs/aml.md). */
export function reviewDueAt(ratedAt: Date, rating: RiskLevel): Date {
  const due = new Date(ratedAt);
  due.setUTCMonth(due.getUTCMonth() + RISK_REVIEW_MONTHS[rating]);
  return due;
}

/** A CPF (11 digits) or CNPJ (14 digits) without its punctuation. */
export function documentDigits(document: string): string {
  const digits = document.replace(/[./-]/g, '');
  if (digits.length !== 11 && digits.length !== 14) {
    throw validationError('body', [{ path: '/document', message: 'a CPF (11 digits) or a CNPJ (14 digits)' }]);
  }
  return digits;
}

/**
 * What a new subject must say: a team member of ours by their id, or anyone by their document (a
 * partner or supplier always by its CPF or CNPJ); a team member id only for a team member.
 */
export function checkNewSubject(s: AddRiskSubject): { document: string | null; teamMemberId: string | null } {
  if (s.teamMemberId !== undefined && s.kind !== 'team_member') {
    throw validationError('body', [{ path: '/teamMemberId', message: 'only a team_member has a team member id' }]);
  }
  if (s.kind !== 'team_member' && s.document === undefined) {
    throw validationError('body', [{ path: '/document', message: `a ${s.kind} is registered with its CPF or CNPJ` }]);
  }
  if (s.kind === 'team_member' && s.document === undefined && s.teamMemberId === undefined) {
    throw validationError('body', [{ path: '/teamMemberId', message: 'a team member is registered with their team member id or their CPF' }]);
  }
  return { document: s.document === undefined ? null : documentDigits(s.document), teamMemberId: s.teamMemberId ?? null };
}
