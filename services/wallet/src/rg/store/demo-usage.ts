// Responsible gaming in the sandbox (docs/responsible-gaming.md, "Sandbox"): demo rounds and the
// demo page's heartbeats count toward the sandbox player's limits and time played, as real play
// does, but on demo play's own record (wallet.rg_demo_usage, by UTC hour) and never on the wallet's
// accounts: a sandbox player may have no account, and verifyLedger checks wallet.rg_usage and the
// account rows' counters against the real rounds' money, which demo play has none of.
// The key is the id the player's account has or would have (ledger playerAccountId), so one
// usage query reads either record (usage.ts). The player's row in wallet.rg_demo_players holds the
// last demo activity; taking it (an upsert) locks it, so the player's demo rounds, in any of their
// sessions, are checked one after another against what committed before.
import type { Sql, SqlRunner } from '@bo/service-kit';

/**
 * Counts the player's demo activity at `at` (a heartbeat, or a round before its checks): one
 * statement that takes the player's row (locked until the caller's transaction ends), moves the last
 * activity on and adds the seconds since the previous one (wallet.rg_gap) to the hour's demo usage.
 * The seconds counted.
 */
export async function recordDemoActivity(sql: SqlRunner, who: { accountId: string; brandId: string; playerId: string }, at: Date): Promise<number> {
  const [row] = await sql.query<{ seconds: number }>(
    `with a as (insert into wallet.rg_demo_players as p (account_id, brand_id, player_id, last_activity_at) values (?, ?, ?, ?::timestamptz)
                on conflict (account_id) do update
                  set last_activity_at = greatest(p.last_activity_at, excluded.last_activity_at),
                      gap_seconds = wallet.rg_gap(p.last_activity_at, excluded.last_activity_at)
                returning account_id, gap_seconds),
     u as (insert into wallet.rg_demo_usage (account_id, hour, seconds_played)
           select account_id, date_trunc('hour', ?::timestamptz, 'UTC'), gap_seconds from a where gap_seconds > 0
           on conflict (account_id, hour) do update set seconds_played = wallet.rg_demo_usage.seconds_played + excluded.seconds_played
           returning 1)
     select gap_seconds as seconds from a`,
    [who.accountId, who.brandId, who.playerId, at, at],
  );
  return row!.seconds;
}

/** Adds a demo round's stake and net loss (stake − payout) to its hour's demo usage. */
export async function addDemoStake(sql: SqlRunner, accountId: string, at: Date, stake: string, netLoss: string): Promise<void> {
  await sql.query(
    `insert into wallet.rg_demo_usage (account_id, hour, wagered, net_loss) values (?, date_trunc('hour', ?::timestamptz, 'UTC'), ?::numeric, ?::numeric)
     on conflict (account_id, hour) do update
       set wagered = wallet.rg_demo_usage.wagered + excluded.wagered, net_loss = wallet.rg_demo_usage.net_loss + excluded.net_loss`,
    [accountId, at, stake, netLoss],
  );
}

/** The keys of the player's demo usage of the brand (one per currency played), which the players service's `used` adds. */
export async function demoKeysOf(sql: SqlRunner, brandId: string, playerId: string): Promise<string[]> {
  const rows = await sql.query<{ account_id: string }>('select account_id from wallet.rg_demo_players where brand_id = ? and player_id = ?', [
    brandId,
    playerId,
  ]);
  return rows.map((r) => r.account_id);
}

/**
 * The sandbox's next day for the player (POST /sandbox/players/{id}/next-day): every hour of their demo
 * usage and their last demo activity, a day older, so the day's usage is yesterday's. The hours moved.
 */
export async function ageDemoUsage(sql: SqlRunner, brandId: string, playerId: string): Promise<number> {
  const [row] = await sql.query<{ hours: number }>(
    `with p as (update wallet.rg_demo_players set last_activity_at = last_activity_at - interval '1 day' where brand_id = ? and player_id = ? returning account_id),
     u as (update wallet.rg_demo_usage set hour = hour - interval '1 day' where account_id in (select account_id from p) returning 1)
     select count(*)::int as hours from u`,
    [brandId, playerId],
  );
  return row!.hours;
}

/**
 * The sandbox's next day for the player's play on the sandbox ledger (issue #61: the built-in sandbox
 * provider's bets, which move sandbox money and count in wallet.rg_usage like any provider's): every
 * hour of the player's usage and their last activity a day older, and the account's counters left to be
 * seeded again from the record, so a loss limit reached today is yesterday's. The ledger's entries keep
 * their times: only the responsible-gaming record moves. Never for a brand with production play (the
 * players service asks only for a sandbox player; this is the wallet's own guard). The hours moved.
 */
export async function ageSandboxPlayUsage(sql: Sql, brandId: string, playerId: string): Promise<number> {
  return sql.transaction(async (tx) => {
    const live = await tx.query<{ n: number }>(
      `select count(*)::int as n from (select 1 from wallet.provider_transactions where brand_id = ? and environment = 'production' limit 1) x`,
      [brandId],
    );
    if (live[0]!.n > 0) return 0;
    const accounts = (
      await tx.query<{ id: string }>(`select id from wallet.accounts where kind = 'player' and brand_id = ? and player_id = ? for update`, [brandId, playerId])
    ).map((r) => r.id);
    if (accounts.length === 0) return 0;
    // In two steps: out of the way, then back a day earlier (one shift could meet an hour not moved yet on the key).
    await tx.query(`update wallet.rg_usage set hour = hour - interval '1000 years' where account_id = any(?::text[])`, [accounts]);
    const [moved] = await tx.query<{ hours: number }>(
      `with u as (update wallet.rg_usage set hour = hour + interval '1000 years' - interval '1 day'
                  where account_id = any(?::text[]) and hour < now() - interval '500 years' returning 1)
       select count(*)::int as hours from u`,
      [accounts],
    );
    await tx.query(
      `update wallet.accounts set rg_day = null, rg_week = null, rg_month = null, rg_last_activity_at = rg_last_activity_at - interval '1 day'
       where id = any(?::text[])`,
      [accounts],
    );
    return moved!.hours;
  });
}
