// What is read of the AML cases in plain SQL (the cases' own rows are the ORM's: cases.ts; the watch
// opens and joins them in watch.ts): whether a player's payouts are held, how many cases a brand
// reported in a year, the cases by status and the COS awaiting filing by their deadline (the metrics,
// read when scraped). Kit SQL only.
import type { SqlRunner } from '@bo/service-kit';

/** Whether the player has an active high-risk case in the brand (what holds their payouts). */
export async function hasHoldingCase(sql: SqlRunner, brandId: string, playerId: string): Promise<boolean> {
  const rows = await sql.query(
    `select 1 from compliance.cases where brand_id = ? and player_id = ? and status in ('open', 'under_review') and risk = 'high' limit 1`,
    [brandId, playerId],
  );
  return rows.length > 0;
}

/**
 * The brand's cases reported in `year` (their `reported` step), the calendar year in `timeZone`.
 */
export async function reportedCasesInYear(sql: SqlRunner, brandId: string, year: number, timeZone: string): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `select count(distinct c.id)::int as n from compliance.cases c join compliance.case_steps s on s.case_id = c.id
       where c.brand_id = ? and s.status = 'reported' and s.at >= make_timestamptz(?::int, 1, 1, 0, 0, 0, ?) and s.at < make_timestamptz(?::int + 1, 1, 1, 0, 0, 0, ?)`,
    [brandId, year, timeZone, year, timeZone],
  );
  return rows[0]?.n ?? 0;
}

/** How many cases are in each status. */
export async function casesByStatus(sql: SqlRunner): Promise<Map<string, number>> {
  const rows = await sql.query<{ status: string; n: string }>('select status, count(*) as n from compliance.cases group by status');
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** The COS decided and not filed: past their deadline at `now`, within `nearMs` of it, and further. */
export async function cosAwaiting(sql: SqlRunner, now: Date, nearMs: number): Promise<{ due: number; near: number; overdue: number } | undefined> {
  const [row] = await sql.query<{ due: number; near: number; overdue: number }>(
    `select count(*) filter (where cos_due_at <= ?)::int as overdue,
            count(*) filter (where cos_due_at > ? and cos_due_at <= ?)::int as near,
            count(*) filter (where cos_due_at > ?)::int as due
       from compliance.cases where cos_due_at is not null and cos_filed_at is null`,
    [now, now, new Date(now.getTime() + nearMs), new Date(now.getTime() + nearMs)],
  );
  return row;
}

/**
 * The alerts whose 30-day analysis runs (active cases without a decision to report them: issue #60):
 * past their end at `now`, within `nearMs` of it, and further. The clock starts at the case's opening.
 */
export async function analysisRunning(
  sql: SqlRunner,
  now: Date,
  nearMs: number,
  days: number,
): Promise<{ due: number; near: number; overdue: number } | undefined> {
  const end = `opened_at + make_interval(days => ${Math.trunc(days)})`;
  const [row] = await sql.query<{ due: number; near: number; overdue: number }>(
    `select count(*) filter (where ${end} <= ?)::int as overdue,
            count(*) filter (where ${end} > ? and ${end} <= ?)::int as near,
            count(*) filter (where ${end} > ?)::int as due
       from compliance.cases where status in ('open', 'under_review') and report_decided_at is null`,
    [now, now, new Date(now.getTime() + nearMs), new Date(now.getTime() + nearMs)],
  );
  return row;
}
