// The 30-day analysis clock of an AML alert (issue #60 item 5): Portaria SPA/MF 1.143/2024 gives the
// operator 30 days to conclude the analysis of an alert of an atypical operation (art. 26 §2, as
// summarised publicly; docs/aml.md, "The analysis clock"). The watch opens (or joins) a case when a
// rule fires, at the operation: the case's first alert starts its clock, and deciding the case (the
// decision to report it to COAF, or its dismissal or report) stops it, for every alert it holds. The
// days are calendar days, counted in elapsed time (30 × 24 h from the case's opening).
import type { AmlAnalysisClock, AmlCaseStatus } from '@bo/contracts';

export const ANALYSIS_DAYS = 30;
const DAY_MS = 86_400_000;

/** What a case keeps of its clock; where it stands at a given time is `analysisStateAt`. */
export type AnalysisFacts = Pick<AmlAnalysisClock, 'startedAt' | 'dueAt' | 'concludedAt'>;

/** The clock of a case from its row: started when it was opened, concluded by its decision (the report decision, or its closing). */
export function analysisFactsOf(c: { openedAt: Date; updatedAt: Date; status: AmlCaseStatus; reportDecidedAt?: Date | null }): AnalysisFacts {
  const active = c.status === 'open' || c.status === 'under_review';
  const concluded = c.reportDecidedAt ?? (active ? null : c.updatedAt);
  return {
    startedAt: c.openedAt.toISOString(),
    dueAt: new Date(c.openedAt.getTime() + ANALYSIS_DAYS * DAY_MS).toISOString(),
    concludedAt: concluded ? concluded.toISOString() : null,
  };
}

/** Where the clock stands at `now`: due, near (less than `nearMs` left), overdue; concluded in time or late. */
export function analysisStateAt(f: AnalysisFacts, now: Date, nearMs: number): AmlAnalysisClock {
  const due = Date.parse(f.dueAt);
  if (f.concludedAt) return { ...f, state: Date.parse(f.concludedAt) <= due ? 'concluded' : 'concluded_late', secondsLeft: null };
  const left = due - now.getTime();
  return { ...f, state: left <= 0 ? 'overdue' : left <= nearMs ? 'near' : 'due', secondsLeft: Math.trunc(left / 1000) };
}
