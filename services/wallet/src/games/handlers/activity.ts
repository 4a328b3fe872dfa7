// Time played, from the game page's activity (docs/responsible-gaming.md): each round and each
// heartbeat of a real session counts the time since the session's previous activity, when that
// is at most PLAY_IDLE_SECONDS (a page idle longer stops counting), into the player's
// wallet.rg_usage of the hour it ends in. Runs under the player's account lock, which serialises
// every round and heartbeat of the player, so two activities never count one gap twice.
// Statements are few on purpose: a guarded round is lock, activity-with-usage, round (three
// statements in its transaction), since each round trip costs the round's throughput.
import { PLAY_IDLE_SECONDS } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import { periodUsage, type RoundUsage } from '../../ledger/rg-usage.ts';

export interface LockedPlay {
  /** The session's previous activity, read under the lock. */
  last: Date | null;
}

/**
 * Locks the player's account row (every money move of the player takes it first) and the
 * session's; undefined without an account. Its own statement: the statements after it see what
 * the rounds committed while it waited.
 */
export async function lockForPlay(tx: SqlRunner, accountId: string, sessionId: string): Promise<LockedPlay | undefined> {
  const [row] = await tx.query<{ last: Date | null }>(
    `select s.last_activity_at as last from wallet.accounts a join wallet.game_sessions s on s.id = ?
      where a.id = ? for update of a, s`,
    [sessionId, accountId],
  );
  return row ? { last: row.last ? new Date(row.last) : null } : undefined;
}

/** The session's activity at `at` as statement parts (CTEs and their params), and the seconds it counts. */
function activityParts(sessionId: string, accountId: string, locked: LockedPlay, at: Date) {
  const gap = locked.last ? Math.floor((at.getTime() - locked.last.getTime()) / 1000) : 0;
  const counted = gap > 0 && gap <= PLAY_IDLE_SECONDS ? gap : 0;
  return {
    counted,
    ctes: `touched as (update wallet.game_sessions set last_activity_at = ? where id = ? and ?::boolean returning 1),
       counted as (insert into wallet.rg_usage (account_id, hour, seconds_played)
                   select ?, date_trunc('hour', ?::timestamptz, 'UTC'), ?::int where ?::int > 0
                   on conflict (account_id, hour) do update set seconds_played = wallet.rg_usage.seconds_played + excluded.seconds_played returning 1)`,
    params: [at, sessionId, gap > 0 || !locked.last, accountId, at, counted, counted],
  };
}

/** Counts the session's activity at `at` (one statement); the caller holds lockForPlay's locks. Returns the seconds counted. */
export async function recordActivity(tx: SqlRunner, sessionId: string, accountId: string, locked: LockedPlay, at: Date): Promise<number> {
  const parts = activityParts(sessionId, accountId, locked, at);
  await tx.query(`with ${parts.ctes} select 1`, parts.params);
  return parts.counted;
}

/**
 * Counts the session's activity at `at` and reads the usage of the periods in one statement. The
 * read does not see the statement's own write, so the counted seconds are added to it here (`at`
 * is now: its hour lies in every current period).
 */
export async function recordActivityWithUsage(
  tx: SqlRunner,
  sessionId: string,
  accountId: string,
  locked: LockedPlay,
  at: Date,
  timeZone: string,
): Promise<RoundUsage> {
  const parts = activityParts(sessionId, accountId, locked, at);
  const usage = await periodUsage(tx, accountId, timeZone, at, parts);
  const plus = (s: number) => s + parts.counted;
  return { ...usage, seconds: { day: plus(usage.seconds.day), week: plus(usage.seconds.week), month: plus(usage.seconds.month) } };
}
