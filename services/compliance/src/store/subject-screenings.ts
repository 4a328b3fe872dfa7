// The risk register subjects' screenings (screening/subjects.ts, rescreenSubjects): the active
// subjects with a document to screen again, and each answer kept on the subject's row (a rating a hit
// raised kept with its rating row, in one transaction). Plain SQL.
import type { RiskLevel } from '@bo/contracts';
import type { Sql } from '@bo/service-kit';

export interface ScreenableSubject {
  id: string;
  name: string;
  document: string;
  operator_id: string | null;
  rating: RiskLevel;
  rationale: string;
  screening_state: string;
}

/** The active subjects with a document, by id. */
export function screenableSubjects(sql: Sql): Promise<ScreenableSubject[]> {
  return sql.query<ScreenableSubject>(
    `select id, name, document, operator_id, rating, rationale, screening_state from compliance.risk_subjects where status = 'active' and document is not null order by id`,
  );
}

/** The screening could not be answered: kept as `failed` (asked again later). */
export async function markSubjectScreeningFailed(sql: Sql, id: string): Promise<void> {
  await sql.query(`update compliance.risk_subjects set screening_state = 'failed' where id = ? and status = 'active'`, [id]);
}

/** The screening's answer on the subject; a changed rating (`rating` differs from `previous`) with its rating row, due again at `reviewDueAt`. */
export async function recordSubjectScreening(
  sql: Sql,
  s: {
    id: string;
    previous: RiskLevel;
    screeningState: string;
    screeningHits: unknown;
    screenedAt: Date | null;
    rating: RiskLevel;
    rationale: string;
    reviewDueAt: Date;
    now: Date;
  },
): Promise<void> {
  const changed = s.rating !== s.previous;
  await sql.transaction(async (tx) => {
    await tx.query(
      `update compliance.risk_subjects set screening_state = ?, screening_hits = ?::jsonb, screened_at = ?, rating = ?, rationale = ?,
         review_due_at = case when ? then ? else review_due_at end, rated_at = case when ? then ? else rated_at end,
         rated_by = case when ? then 'screening' else rated_by end
       where id = ? and status = 'active'`,
      [s.screeningState, JSON.stringify(s.screeningHits), s.screenedAt, s.rating, s.rationale, changed, s.reviewDueAt, changed, s.now, changed, s.id],
    );
    if (changed)
      await tx.query(
        `insert into compliance.risk_subject_ratings (subject_id, rating, rationale, "by", "at", review_due_at) values (?, ?, ?, 'screening', ?, ?)`,
        [s.id, s.rating, s.rationale, s.now, s.reviewDueAt],
      );
  });
}
