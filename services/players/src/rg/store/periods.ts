// The current limit periods' ends in the operator's time zone, with Postgres' zone rules: the kit's SQL.
import type { LimitPeriod } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

/** The end of the current day, week (Monday to Sunday) and month in the time zone. */
export async function periodEnds(sql: SqlRunner, timeZone: string, now: Date): Promise<Record<LimitPeriod, string>> {
  const rows = await sql.query<{ period: LimitPeriod; ends: Date }>(
    `select p as period, (date_trunc(p, ?::timestamptz at time zone ?) + ('1 ' || p)::interval) at time zone ? as ends
       from unnest(array['day', 'week', 'month']) p`,
    [now, timeZone, timeZone],
  );
  return Object.fromEntries(rows.map((r) => [r.period, new Date(r.ends).toISOString()])) as Record<LimitPeriod, string>;
}
