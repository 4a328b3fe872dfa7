// The yearly AML report to the SPA (issue #46; Portaria SPA/MF 1.143/2024, docs/aml.md): one
// operator's year in figures, laid out as `bo-aml-annual-report/1`, and the file's text and SHA-256 as
// they are kept. Plain functions over the figures the maker read (store/annual-reports.ts).
import { createHash } from 'node:crypto';
import { AML_RULES, RISK_LEVELS, type AmlAnnualReportDocument, type AmlAnnualReportState, type RiskLevel, type RiskSubjectKind } from '@bo/contracts';
import { annualDueDates } from './business-days.ts';
import { dayBounds } from './daily-file.ts';

/** A calendar year's bounds in `timeZone`. */
export function yearBounds(year: number, timeZone: string): { from: Date; to: Date } {
  return { from: dayBounds(`${year}-01-01`, timeZone).from, to: dayBounds(`${year + 1}-01-01`, timeZone).from };
}

/** What the maker read of the year, in the operator's time zone's bounds. */
export interface AnnualFigures {
  brands: string[];
  opened: Array<{ risk: RiskLevel; rules: string[] }>;
  reported: number;
  dismissed: number;
  activeAtYearEnd: number;
  decided: number;
  filings: AmlAnnualReportDocument['cos']['filings'];
  awaitingAtYearEnd: number;
  /** Each subject active as the year ended, with its rating then and whether its review was past due. */
  subjects: Array<{ kind: RiskSubjectKind; rating: RiskLevel; overdue: boolean }>;
  ratedInYear: number;
}

const byRating = (items: Array<{ rating: RiskLevel }>) =>
  Object.fromEntries(RISK_LEVELS.map((r) => [r, items.filter((x) => x.rating === r).length])) as Record<RiskLevel, number>;

export function annualReportOf(
  head: { operatorId: string; year: number; timeZone: string; from: string; to: string; version: number; madeAt: string; madeBy: string },
  f: AnnualFigures,
): AmlAnnualReportDocument {
  const { dueDate, noOccurrenceDueDate } = annualDueDates(head.year);
  const filed = f.filings.length;
  const ofKind = (kind: RiskSubjectKind) => byRating(f.subjects.filter((s) => s.kind === kind));
  return {
    layout: 'bo-aml-annual-report/1',
    ...head,
    dueDate,
    brands: f.brands,
    cases: {
      opened: f.opened.length,
      openedByRisk: byRating(f.opened.map((c) => ({ rating: c.risk }))),
      openedByRule: Object.fromEntries(AML_RULES.map((r) => [r, f.opened.filter((c) => c.rules.includes(r)).length])),
      reported: f.reported,
      dismissed: f.dismissed,
      activeAtYearEnd: f.activeAtYearEnd,
    },
    cos: {
      decided: f.decided,
      filed,
      filedLate: f.filings.filter((x) => x.late).length,
      awaitingAtYearEnd: f.awaitingAtYearEnd,
      filings: f.filings,
    },
    riskRegister: {
      team_member: ofKind('team_member'),
      partner: ofKind('partner'),
      supplier: ofKind('supplier'),
      reviewsOverdue: f.subjects.filter((s) => s.overdue).length,
      ratedInYear: f.ratedInYear,
    },
    noOccurrence: {
      applies: filed === 0,
      statement:
        filed === 0
          ? `Operator ${head.operatorId} filed no communication of a suspicious operation with COAF in ${head.year} (Portaria SPA/MF 1.143/2024, art. 30).`
          : null,
      dueDate: noOccurrenceDueDate,
    },
  };
}

/** The file as kept: the document as JSON text (key order as built), and the SHA-256 of its UTF-8 bytes. */
export function annualReportFile(doc: AmlAnnualReportDocument): { file: string; sha256: string } {
  const file = `${JSON.stringify(doc, null, 2)}\n`;
  return { file, sha256: sha256Of(file) };
}

export const sha256Of = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Where the report stands at `now`: made (its first version by the due date's end) or late, else not made or overdue. */
export function annualReportState(firstMadeAt: Date | null, dueAt: Date, now: Date): AmlAnnualReportState {
  if (firstMadeAt) return firstMadeAt.getTime() <= dueAt.getTime() ? 'made' : 'made_late';
  return now.getTime() < dueAt.getTime() ? 'not_made' : 'overdue';
}
