// Real-money play as the harm markers read it (issue #68; docs/player-protection.md): wallet.rg_usage
// by player and UTC hour from an hour on, in pages (keyset on hour, brand, player), one indexed range
// read (rg_usage_hour) per page; and whether the play before each of a batch of deposits ended in a
// loss, one range read per deposit on the entries' (account, time) index. Never a statement added to a round.
import type { HarmPlayHour } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

export async function playHoursFrom(
  sql: SqlRunner,
  q: { fromHour: string; toHour?: string; after?: { hour: string; brandId: string; playerId: string }; limit: number },
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
    reality_checks: number;
  }>(
    `select a.brand_id, a.player_id, u.hour, sum(u.bets)::int as bets, sum(u.wagered)::text as stake_sum, sum(u.stake_squares)::text as stake_squares,
            sum(u.net_loss)::text as net_loss, sum(u.seconds_played)::int as seconds_played, sum(u.reality_checks)::int as reality_checks
       from wallet.rg_usage u join wallet.accounts a on a.id = u.account_id
      where u.hour >= ?::timestamptz and u.hour < coalesce(?::timestamptz, 'infinity') and (u.hour, a.brand_id, a.player_id) > (?::timestamptz, ?, ?)
      group by u.hour, a.brand_id, a.player_id
      order by u.hour, a.brand_id, a.player_id
      limit ?`,
    [q.fromHour, q.toHour ?? null, ...after, q.limit],
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
    realityChecks: r.reality_checks,
  }));
}

/** The first hour at or after `from` that holds play (one read of the `rg_usage_hour` index); null when none. */
export async function nextPlayHour(sql: SqlRunner, from: string): Promise<string | null> {
  const [row] = await sql.query<{ next: Date | string | null }>('select min(hour) as next from wallet.rg_usage where hour >= ?::timestamptz', [from]);
  return row?.next ? new Date(row.next).toISOString() : null;
}

/**
 * For each deposit, whether the player's bets, wins and rollbacks in the `minutes` before it add up
 * below zero (play that ended in a loss); false without play there. In the order asked.
 */
export async function lossesBefore(
  sql: SqlRunner,
  deposits: ReadonlyArray<{ brandId: string; playerId: string; at: string; minutes: number }>,
): Promise<boolean[]> {
  if (deposits.length === 0) return [];
  const rows = await sql.query<{ i: string; after_loss: boolean }>(
    `select d.i, coalesce((
        select sum(e.amount) < 0 and bool_or(e.type = 'BET')
          from wallet.accounts a join wallet.ledger_entries e on e.account_id = a.id
         where a.kind = 'player' and a.brand_id = d.brand_id and a.player_id = d.player_id
           and e.type in ('BET', 'WIN', 'ROLLBACK')
           and e.created_at > d.at - make_interval(mins => d.minutes) and e.created_at <= d.at), false) as after_loss
       from unnest(?::text[], ?::text[], ?::timestamptz[], ?::int[]) with ordinality as d(brand_id, player_id, at, minutes, i)
      order by d.i`,
    [deposits.map((d) => d.brandId), deposits.map((d) => d.playerId), deposits.map((d) => d.at), deposits.map((d) => d.minutes)],
  );
  return rows.map((r) => r.after_loss);
}
