// The yearly AML report's figures, read from the compliance schema for one operator's production
// brands and one calendar year in the operator's time zone (issue #46, docs/aml.md "The yearly report
// to the SPA"), and the reports kept (compliance.annual_reports: a new version each time one is made).
// Plain SQL over the cases, their steps, the COS deadlines and the risk register; the layout is
// domain/annual-report.ts's. Kit SQL only.
import { COMPLIANCE_DEFAULTS, type AmlAnnualReportDocument, type RiskLevel, type RiskSubjectKind } from '@bo/contracts';
import { isoTime, type Sql, type SqlRunner } from '@bo/service-kit';
import { yearBounds, type AnnualFigures } from '../domain/annual-report.ts';

export async function annualFigures(sql: SqlRunner, operatorId: string, from: Date, to: Date): Promise<AnnualFigures> {
  const brands = await sql.query<{ brand_id: string }>(
    `select brand_id from compliance.cases where operator_id = ? and environment = 'production' and opened_at >= ? and opened_at < ?
     union select brand_id from compliance.watched_money where operator_id = ? and environment = 'production' and occurred_at >= ? and occurred_at < ?
     order by brand_id`,
    [operatorId, from, to, operatorId, from, to],
  );
  const opened = await sql.query<{ risk: RiskLevel; rules: string[] }>(
    `select risk, rules from compliance.cases where operator_id = ? and environment = 'production' and opened_at >= ? and opened_at < ?`,
    [operatorId, from, to],
  );
  const [steps] = await sql.query<{ reported: number; dismissed: number; active: number }>(
    `select
       (select count(distinct s.case_id) from compliance.case_steps s join compliance.cases c on c.id = s.case_id
         where c.operator_id = ? and c.environment = 'production' and s.status = 'reported' and s.at >= ? and s.at < ?)::int as reported,
       (select count(distinct s.case_id) from compliance.case_steps s join compliance.cases c on c.id = s.case_id
         where c.operator_id = ? and c.environment = 'production' and s.status = 'dismissed' and s.at >= ? and s.at < ?)::int as dismissed,
       (select count(*) from compliance.cases c where c.operator_id = ? and c.environment = 'production' and c.opened_at < ?
         and not exists (select 1 from compliance.case_steps s where s.case_id = c.id and s.status in ('reported', 'dismissed') and s.at < ?))::int as active`,
    [operatorId, from, to, operatorId, from, to, operatorId, to, to],
  );
  const [cos] = await sql.query<{ decided: number; awaiting: number }>(
    `select count(*) filter (where report_decided_at >= ?)::int as decided,
            count(*) filter (where cos_filed_at is null or cos_filed_at >= ?)::int as awaiting
       from compliance.cases where operator_id = ? and environment = 'production' and report_decided_at < ?`,
    [from, to, operatorId, to],
  );
  const filings = await sql.query<{ id: string; brand_id: string; decided: string; due: string; filed: string; receipt: string | null }>(
    `select id, brand_id, report_decided_at as decided, cos_due_at as due, cos_filed_at as filed, receipt from compliance.cases
      where operator_id = ? and environment = 'production' and cos_filed_at >= ? and cos_filed_at < ? order by cos_filed_at, id`,
    [operatorId, from, to],
  );
  // The register as the year ended: the operator's subjects and our own team's, each with its last rating before the end.
  const subjects = await sql.query<{ kind: RiskSubjectKind; rating: RiskLevel; overdue: boolean }>(
    `select s.kind, r.rating, r.review_due_at < ? as overdue from compliance.risk_subjects s
       join lateral (select rating, review_due_at from compliance.risk_subject_ratings x where x.subject_id = s.id and x.at < ? order by x.id desc limit 1) r on true
      where (s.operator_id = ? or s.operator_id is null) and s.created_at < ? and (s.ended_at is null or s.ended_at >= ?)`,
    [to, to, operatorId, to, to],
  );
  const [rated] = await sql.query<{ n: number }>(
    `select count(*)::int as n from compliance.risk_subject_ratings x join compliance.risk_subjects s on s.id = x.subject_id
      where (s.operator_id = ? or s.operator_id is null) and x.at >= ? and x.at < ?`,
    [operatorId, from, to],
  );
  return {
    brands: brands.map((b) => b.brand_id),
    opened,
    reported: steps?.reported ?? 0,
    dismissed: steps?.dismissed ?? 0,
    activeAtYearEnd: steps?.active ?? 0,
    decided: cos?.decided ?? 0,
    awaitingAtYearEnd: cos?.awaiting ?? 0,
    filings: filings.map((x): AmlAnnualReportDocument['cos']['filings'][number] => ({
      caseId: x.id,
      brandId: x.brand_id,
      decidedAt: isoTime(x.decided),
      dueAt: isoTime(x.due),
      filedAt: isoTime(x.filed),
      receipt: x.receipt ?? '',
      late: Date.parse(isoTime(x.filed)) > Date.parse(isoTime(x.due)),
    })),
    subjects,
    ratedInYear: rated?.n ?? 0,
  };
}

export interface KeptReport {
  operator_id: string;
  year: number;
  version: number;
  time_zone: string;
  /** As the kit's plain SQL answers a timestamp (isoTime reads it). */
  made_at: string;
  made_by: string;
  file: string;
  sha256: string;
}

/** Every version kept of an operator's year, newest first. */
export function keptReports(sql: SqlRunner, operatorId: string, year: number): Promise<KeptReport[]> {
  return sql.query<KeptReport>('select * from compliance.annual_reports where operator_id = ? and year = ? order by version desc', [operatorId, year]);
}

/**
 * The operators whose report of `year` is expected: those with production money watched or cases
 * opened before the year ended (in the default zone: br-spa operators are Brazilian), and any with a
 * report kept for it.
 */
export async function operatorsOfYear(sql: SqlRunner, year: number): Promise<string[]> {
  const { to } = yearBounds(year, COMPLIANCE_DEFAULTS.timeZone);
  const rows = await sql.query<{ operator_id: string }>(
    `select operator_id from compliance.watched_money where environment = 'production' and occurred_at < ?
     union select operator_id from compliance.cases where environment = 'production' and opened_at < ?
     union select operator_id from compliance.annual_reports where year = ?
     order by operator_id`,
    [to, to, year],
  );
  return rows.map((r) => r.operator_id);
}

/** The operators with a report of `year` kept. */
export async function operatorsWithReport(sql: SqlRunner, year: number): Promise<Set<string>> {
  const made = await sql.query<{ operator_id: string }>('select distinct operator_id from compliance.annual_reports where year = ?', [year]);
  return new Set(made.map((r) => r.operator_id));
}

/**
 * Makes and keeps the next version of an operator's year: `fileOf` lays out the file of that version
 * from the year's figures, read in the same transaction. Two makers at once: one after the other,
 * each its own version. `alongside` runs in its transaction after the write (our team's audit row).
 */
export function keepNextVersion(
  sql: Sql,
  o: { operatorId: string; year: number; timeZone: string; from: Date; to: Date; madeAt: Date; madeBy: string },
  fileOf: (version: number, figures: AnnualFigures) => { file: string; sha256: string },
  alongside?: (kept: KeptReport, tx: SqlRunner) => Promise<void>,
): Promise<KeptReport> {
  const { operatorId, year } = o;
  return sql.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`compliance.annual_report:${operatorId}:${year}`]);
    const [last] = await tx.query<{ v: number }>(
      'select coalesce(max(version), 0)::int as v from compliance.annual_reports where operator_id = ? and year = ?',
      [operatorId, year],
    );
    const version = (last?.v ?? 0) + 1;
    const { file, sha256 } = fileOf(version, await annualFigures(tx, operatorId, o.from, o.to));
    const [row] = await tx.query<KeptReport>(
      `insert into compliance.annual_reports (operator_id, year, version, time_zone, made_at, made_by, file, sha256)
         values (?, ?, ?, ?, ?, ?, ?, ?) returning *`,
      [operatorId, year, version, o.timeZone, o.madeAt, o.madeBy, file, sha256],
    );
    await alongside?.(row!, tx);
    return row!;
  });
}
