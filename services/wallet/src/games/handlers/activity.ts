// Time played, from the game page's activity (docs/responsible-gaming.md): each round and each
// heartbeat of a real session counts the time since the session's previous activity, when that
// is at most PLAY_IDLE_SECONDS (a page idle longer stops counting), into the player's
// wallet.rg_usage of the hour it ends in. Runs under the player's account lock, which serialises
// every round and heartbeat of the player, so two activities never count one gap twice.
import { PLAY_IDLE_SECONDS } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

/** Locks the player's account row (every money move of the player takes it first); false without an account. */
export async function lockAccount(tx: SqlRunner, accountId: string): Promise<boolean> {
  return (await tx.query('select 1 from wallet.accounts where id = ? for update', [accountId])).length === 1;
}

/** Counts the session's activity at `at`; the caller holds the account lock. Returns the seconds counted. */
export async function recordActivity(tx: SqlRunner, sessionId: string, accountId: string, at: Date): Promise<number> {
  const [session] = await tx.query<{ last: Date | null }>('select last_activity_at as last from wallet.game_sessions where id = ? for update', [sessionId]);
  if (!session) return 0;
  const gap = session.last ? Math.floor((at.getTime() - new Date(session.last).getTime()) / 1000) : 0;
  const counted = gap > 0 && gap <= PLAY_IDLE_SECONDS ? gap : 0;
  if (gap > 0 || !session.last) await tx.query('update wallet.game_sessions set last_activity_at = ? where id = ?', [at, sessionId]);
  if (counted > 0) {
    await tx.query(
      `insert into wallet.rg_usage (account_id, hour, seconds_played) values (?, date_trunc('hour', ?::timestamptz, 'UTC'), ?)
       on conflict (account_id, hour) do update set seconds_played = wallet.rg_usage.seconds_played + excluded.seconds_played`,
      [accountId, at, counted],
    );
  }
  return counted;
}
