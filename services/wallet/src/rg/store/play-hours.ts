// The hours of real-money play as the harm days read them (issue #68; docs/player-protection.md):
// wallet.rg_usage by player and UTC hour from an hour on, in pages (keyset on hour, brand, player).
// One indexed range read (rg_usage_hour) per page, never a statement added to a round.
import type { HarmPlayHour } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

export async function playHoursFrom(
  sql: SqlRunner,
  q: { fromHour: string; after?: { hour: string; brandId: string; playerId: string }; limit: number },
): Promise<HarmPlayHour[]> {
  const after = q.after ? [q.after.hour, q.after.brandId, q.after.playerId] : [q.fromHour, '', ''];
  const rows = await sql.query<{
    brand_id: string;
    player_id: string;
    hour: Date;
    bets: number;
    stake_sum: string;
    stake_squares: string;
    net_loss: string;
    seconds_played: number;
  }>(
    `select a.brand_id, a.player_id, u.hour, sum(u.bets)::int as bets, sum(u.wagered)::text as stake_sum, sum(u.stake_squares)::text as stake_squares,
            sum(u.net_loss)::text as net_loss, sum(u.seconds_played)::int as seconds_played
       from wallet.rg_usage u join wallet.accounts a on a.id = u.account_id
      where u.hour >= ?::timestamptz and (u.hour, a.brand_id, a.player_id) > (?::timestamptz, ?, ?)
      group by u.hour, a.brand_id, a.player_id
      order by u.hour, a.brand_id, a.player_id
      limit ?`,
    [q.fromHour, ...after, q.limit],
  );
  return rows.map((r) => ({
    brandId: r.brand_id,
    playerId: r.player_id!,
    hour: new Date(r.hour).toISOString(),
    bets: r.bets,
    stakeSum: r.stake_sum,
    stakeSquares: r.stake_squares,
    netLoss: r.net_loss,
    secondsPlayed: r.seconds_played,
  }));
}
