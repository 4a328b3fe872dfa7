// The impediment notice an operator reports it sent a bettor (the communications log,
// players.communications, kind `impediment_notice`): the 180 days of unclaimed funds count from the
// first one at or after the block. Plain SQL (the log's rows and listing: communications.ts).
import { isoTime, type SqlRunner } from '@bo/service-kit';

/** The first `impediment_notice` the operator reports it sent the player at or after the block (the 180 days of unclaimed funds count from it). */
export async function firstNoticeAfter(sql: SqlRunner, playerId: string, restrictedAt: Date): Promise<Date | undefined> {
  const [row] = await sql.query<{ sent_at: Date | string }>(
    `select sent_at from players.communications where player_id = ? and kind = 'impediment_notice' and sent_at >= ? order by sent_at, id limit 1`,
    [playerId, restrictedAt],
  );
  return row ? new Date(isoTime(row.sent_at)) : undefined;
}
