// What is read of the risk register in plain SQL (its rows are the ORM's: risk-register.ts): the
// active subject a new one collides with, and the reviews past due by kind (the metric, read when
// scraped). Kit SQL only.
import type { SqlRunner } from '@bo/service-kit';

/** The active subject of the operator (or of our own team: null) with this document or team member, if any. */
export async function activeSubjectLike(
  sql: SqlRunner,
  s: { operatorId: string | null; kind: string; document: string | null; teamMemberId: string | null },
): Promise<string | undefined> {
  const [existing] = await sql.query<{ id: string }>(
    `select id from compliance.risk_subjects where status = 'active' and coalesce(operator_id, '') = coalesce(?, '')
       and ((kind = ? and document = ?) or team_member_id = ?) limit 1`,
    [s.operatorId, s.kind, s.document, s.teamMemberId],
  );
  return existing?.id;
}

/** Active subjects whose review is due at `now`, by kind. */
export async function reviewsOverdueByKind(sql: SqlRunner, now: Date): Promise<Map<string, number>> {
  const rows = await sql.query<{ kind: string; n: number }>(
    `select kind, count(*)::int as n from compliance.risk_subjects where status = 'active' and review_due_at <= ? group by kind`,
    [now],
  );
  return new Map(rows.map((r) => [r.kind, r.n]));
}
