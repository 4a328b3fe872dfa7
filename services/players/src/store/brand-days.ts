// What the per-day reports read of a brand (the closures after a hit, the marketing suppressions): its
// operator and a calendar day's bounds in a time zone (Postgres' zone rules, as the limits' periods).
// The operator's time zone is its compliance setting's (operator-time-zone.ts, through the ORM).
import { isoTime, onlyRow, type SqlRunner } from '@bo/service-kit';

/** The bounds of a calendar day in a time zone. */
export async function dayBounds(sql: SqlRunner, date: string, timeZone: string): Promise<{ from: string; to: string }> {
  const row = onlyRow(
    await sql.query<{ from: string | Date; to: string | Date }>(
      `select (?::date)::timestamp at time zone ? as "from", (?::date + 1)::timestamp at time zone ? as "to"`,
      [date, timeZone, date, timeZone],
    ),
  );
  return { from: isoTime(row.from), to: isoTime(row.to) };
}

/** The operator of a brand, as its players say (none: the brand has no player). */
export async function operatorOfBrand(sql: SqlRunner, brandId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ operator_id: string }>('select operator_id from players.players where brand_id = ? limit 1', [brandId]);
  return row?.operator_id;
}
