// The yearly internal risk assessments (issue #60 item 5): every version kept, none replaced. A new
// version of an operator's year is numbered under an advisory lock of that year, so two savers at
// once keep two versions, one after the other. Kit SQL only.
import type { Sql, SqlRunner } from '@bo/service-kit';

export interface AssessmentRow {
  operator_id: string;
  year: number;
  version: number;
  change: string | null;
  content: Record<string, unknown>;
  made_by: string;
  made_at: Date | string;
}

/** Every version of an operator's assessments, the newest year and version first. */
export function assessmentsOf(sql: SqlRunner, operatorId: string): Promise<AssessmentRow[]> {
  return sql.query<AssessmentRow>('select * from compliance.risk_assessments where operator_id = ? order by year desc, version desc', [operatorId]);
}

/** The latest version of the operator's assessment of `year`, or of the latest year up to it. */
export async function latestAssessment(sql: SqlRunner, operatorId: string, upToYear: number): Promise<AssessmentRow | undefined> {
  const [row] = await sql.query<AssessmentRow>(
    'select * from compliance.risk_assessments where operator_id = ? and year <= ? order by year desc, version desc limit 1',
    [operatorId, upToYear],
  );
  return row;
}

/**
 * Keeps the next version of the operator's year; `check` sees the version before (none: undefined)
 * under the lock and may refuse; `alongside` runs in the same transaction (the audit row).
 */
export function keepAssessment(
  sql: Sql,
  o: { operatorId: string; year: number; change: string | null; content: Record<string, unknown>; madeBy: string; madeAt: Date },
  check: (previous: AssessmentRow | undefined) => void,
  alongside: (kept: AssessmentRow, previous: AssessmentRow | undefined, tx: SqlRunner) => Promise<void>,
): Promise<AssessmentRow> {
  return sql.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`compliance.risk_assessment:${o.operatorId}:${o.year}`]);
    const [previous] = await tx.query<AssessmentRow>(
      'select * from compliance.risk_assessments where operator_id = ? and year = ? order by version desc limit 1',
      [o.operatorId, o.year],
    );
    check(previous);
    const [row] = await tx.query<AssessmentRow>(
      `insert into compliance.risk_assessments (operator_id, year, version, change, content, made_by, made_at)
         values (?, ?, ?, ?, ?::jsonb, ?, ?) returning *`,
      [o.operatorId, o.year, (previous?.version ?? 0) + 1, o.change, JSON.stringify(o.content), o.madeBy, o.madeAt],
    );
    await alongside(row!, previous, tx);
    return row!;
  });
}
