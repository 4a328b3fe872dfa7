// Changes of an operator's compliance profile as decisions of people (issue #56): what a change
// does (turns the br-spa rules on or off, or only settings), whether it needs a second person
// (turning the rules off: every Brazilian rule stops), and a waiting change as the contract shows it.
import type { ComplianceChange, ComplianceChangeStatus, ComplianceProfile, ComplianceSettings } from '@bo/contracts';

/** What a change does, as the metric counts it. */
export type ComplianceChangeKind = 'rules_on' | 'rules_off' | 'settings';
/** The metric's label values: the changes applied, and the steps of the two-person flow. */
export const COMPLIANCE_CHANGE_EVENTS = ['rules_on', 'rules_off', 'settings', 'rules_off_requested', 'rules_off_cancelled'] as const;
export type ComplianceChangeEvent = (typeof COMPLIANCE_CHANGE_EVENTS)[number];

export function changeKind(from: ComplianceProfile, to: ComplianceProfile): ComplianceChangeKind {
  if (from === to) return 'settings';
  return to === 'off' ? 'rules_off' : 'rules_on';
}

/** Turning the br-spa rules off takes two people: one requests, another confirms. */
export const turnsRulesOff = (from: ComplianceProfile, to: ComplianceProfile): boolean => changeKind(from, to) === 'rules_off';

/** A stored change as the row gives it (the entities are passed as they are; `domain/` imports no store). */
export interface ComplianceChangeFields {
  id: string;
  operatorId: string;
  status: ComplianceChangeStatus;
  change: ComplianceSettings;
  fromProfile: ComplianceProfile;
  reason: string;
  requestedBy: string;
  requestedAt: Date;
  expiresAt: Date;
  decidedBy?: string | null;
  decidedAt?: Date | null;
  decisionReason?: string | null;
}

/** `pending` past its time reads `expired`, whether or not the row was rewritten yet. */
export function effectiveStatus(row: Pick<ComplianceChangeFields, 'status' | 'expiresAt'>, now: Date): ComplianceChangeStatus {
  return row.status === 'pending' && row.expiresAt <= now ? 'expired' : row.status;
}

export function changeView(row: ComplianceChangeFields, now: Date): ComplianceChange {
  return {
    id: row.id,
    operatorId: row.operatorId,
    status: effectiveStatus(row, now),
    change: row.change,
    fromProfile: row.fromProfile,
    reason: row.reason,
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedBy: row.decidedBy ?? null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason ?? null,
  };
}
