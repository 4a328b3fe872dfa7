// A provider session's activity (issue #59 item 4, docs/providers.md "Sessions end on inactivity"):
// an authenticate or a refresh moves the session's end on to its time + the session's inactivity
// window, as a bet's statement does (store/postings.ts); and what the player's play with the
// provider moved since the session started (the reality check's net result).
import type { SqlRunner } from '@bo/service-kit';

/** The session's new end, or undefined when it has ended at `at` (an ended session is never revived). */
export async function touchSession(sql: SqlRunner, sessionId: string, at: Date): Promise<Date | undefined> {
  const [row] = await sql.query<{ expiresAt: Date }>(
    `update wallet.provider_sessions set last_activity_at = greatest(coalesce(last_activity_at, ?::timestamptz), ?::timestamptz),
            expires_at = greatest(expires_at, ?::timestamptz + make_interval(secs => idle_seconds))
     where id = ? and expires_at > ?::timestamptz
     returning expires_at as "expiresAt"`,
    [at, at, at, sessionId, at],
  );
  return row ? new Date(row.expiresAt) : undefined;
}

/**
 * What the player's calls of this provider moved on them (signed: a loss negative) since the
 * session started, in its currency: bets, wins, rollbacks and corrections of every round.
 */
export async function sessionNetSince(
  sql: SqlRunner,
  s: { providerId: string; playerId: string; brandId: string; currency: string; startedAt: Date },
): Promise<string> {
  const [row] = await sql.query<{ net: string }>(
    `select coalesce(sum(moved), 0)::text as net from wallet.provider_transactions
     where player_id = ? and created_at >= ?::timestamptz and provider_id = ? and brand_id = ? and currency = ?`,
    [s.playerId, s.startedAt, s.providerId, s.brandId, s.currency],
  );
  return row?.net ?? '0';
}
