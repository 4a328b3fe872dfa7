// The marketing suppressions (players.marketing_suppressions): why a player may not be sent marketing
// and over which time. A reason begins with a row from then (until its known end, or open), ends by
// dating the open rows' end; the day's list is the rows whose time meets the day.
import type { SuppressionReason, MarketingSuppression } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

/**
 * `reason` applies to the player from `from` until `until` (null: until ended). An open row of the same
 * reason is cut at `from` first, so a longer pause or a self-exclusion moved later is one continuous time.
 */
export async function beginSuppression(
  sql: SqlRunner,
  p: { id: string; brandId: string },
  reason: SuppressionReason,
  from: Date,
  until: Date | null,
): Promise<void> {
  await sql.query(
    `with cut as (update players.marketing_suppressions set until_at = greatest(from_at, ?::timestamptz)
                   where player_id = ? and reason = ? and (until_at is null or until_at > ?::timestamptz) returning 1)
     insert into players.marketing_suppressions (player_id, brand_id, reason, from_at, until_at)
     select ?, ?, ?, ?::timestamptz, ?::timestamptz where (select count(*) from cut) >= 0`,
    [from, p.id, reason, from, p.id, p.brandId, reason, from, until],
  );
}

/** `reason` no longer applies from `at`: its open rows end then. */
export async function endSuppression(sql: SqlRunner, playerId: string, reason: SuppressionReason, at: Date): Promise<void> {
  await sql.query(
    `update players.marketing_suppressions set until_at = greatest(from_at, ?::timestamptz)
      where player_id = ? and reason = ? and (until_at is null or until_at > ?::timestamptz)`,
    [at, playerId, reason, at],
  );
}

interface SuppressionRow {
  player_id: string;
  external_id: string | null;
  reasons: SuppressionReason[];
  since: Date | string;
}

/** A brand's players with a reason meeting [from, to), by player id after `after`, at most `limit`. */
export async function suppressionsOf(sql: SqlRunner, brandId: string, from: string, to: string, after: string, limit: number): Promise<MarketingSuppression[]> {
  const rows = await sql.query<SuppressionRow>(
    `select s.player_id, p.external_id, array_agg(distinct s.reason order by s.reason) as reasons, min(s.from_at) as since
       from players.marketing_suppressions s join players.players p on p.id = s.player_id
      where s.brand_id = ? and p.brand_id = ? and s.from_at < ?::timestamptz and (s.until_at is null or s.until_at > ?::timestamptz) and s.player_id > ?
      group by s.player_id, p.external_id
      order by s.player_id limit ?`,
    [brandId, brandId, to, from, after, limit],
  );
  return rows.map((r) => ({ playerId: r.player_id, externalId: r.external_id, reasons: r.reasons, since: isoTime(r.since) }));
}
