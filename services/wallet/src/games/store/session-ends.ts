// The end of game sessions before their time (issue #66 item 9, docs/games.md "Ending a session"):
// the operator's end of one session or of all of a player's, our team's, and the end a self-exclusion,
// pause or impediment hit asks for (games.sessions.endForPlayer). One transaction: the sessions' rows
// locked, then the provider sessions launched for them end (`expires_at` and `ended_at` set to now; a
// trigger keeps an ended provider session ended: providers/store/session-migrations.ts) and the sessions
// themselves (`expires_at` no later than now, `ended_at` now). So the page of the session is 410
// GAME_SESSION_ENDED at once and a provider's next bet on its token reads an ended session (401
// SESSION_TOKEN_EXPIRED, each connector's closest status); wins, rollbacks and corrections carry no
// live-session check and still settle.
import type { EndedGameSession, GameMode } from '@bo/contracts';
import type { Sql, SqlRunner } from '@bo/service-kit';

interface SessionEndRow {
  id: string;
  playerId: string;
  gameId: string;
  mode: GameMode;
  createdAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  /** The latest end of the provider sessions launched for it (null: not a provider's game). */
  providerExpiresAt: Date | null;
}

const COLUMNS = `s.id, s.player_id as "playerId", s.game_id as "gameId", s.mode, s.created_at as "createdAt", s.expires_at as "expiresAt",
       s.ended_at as "endedAt",
       (select max(p.expires_at) from wallet.provider_sessions p where p.game_session_id = s.id) as "providerExpiresAt"`;

/** Whether the session is still open at `now`: not ended, and its own time or its provider session's still running. */
function isOpen(r: SessionEndRow, now: Date): boolean {
  if (r.endedAt) return false;
  const t = now.getTime();
  return new Date(r.expiresAt).getTime() > t || (r.providerExpiresAt !== null && new Date(r.providerExpiresAt).getTime() > t);
}

/** When a session ended: its end before its time, else the later of its own end and its provider session's. */
function endOf(r: SessionEndRow): Date {
  if (r.endedAt) return new Date(r.endedAt);
  const own = new Date(r.expiresAt).getTime();
  const provider = r.providerExpiresAt ? new Date(r.providerExpiresAt).getTime() : 0;
  return new Date(Math.max(own, provider));
}

const view = (r: SessionEndRow, endedAt: Date): EndedGameSession => ({
  id: r.id,
  playerId: r.playerId,
  gameId: r.gameId,
  mode: r.mode,
  createdAt: new Date(r.createdAt).toISOString(),
  endedAt: endedAt.toISOString(),
});

/** Ends the open ones of `rows` (locked by the caller's transaction) at `now`; the ids it ended. */
async function endRows(tx: SqlRunner, rows: SessionEndRow[], now: Date): Promise<Set<string>> {
  const open = rows.filter((r) => isOpen(r, now)).map((r) => r.id);
  if (open.length === 0) return new Set();
  await endProviderSessions(tx, open, now);
  // A session ended in the millisecond it was created still ends after it (the table checks expires_at > created_at).
  await tx.query(
    `update wallet.game_sessions set expires_at = greatest(least(expires_at, ?::timestamptz), created_at + interval '1 millisecond'), ended_at = ?::timestamptz
     where id = any(?::text[]) and ended_at is null`,
    [now, now, open],
  );
  return new Set(open);
}

/** The provider sessions launched for `sessions`, ended at `now` (a trigger keeps them ended). */
async function endProviderSessions(tx: SqlRunner, sessions: string[], now: Date): Promise<void> {
  await tx.query(
    `update wallet.provider_sessions set expires_at = greatest(?::timestamptz, created_at + interval '1 millisecond'), ended_at = ?::timestamptz
     where game_session_id = any(?::text[]) and ended_at is null`,
    [now, now, sessions],
  );
}

/**
 * The end a self-exclusion or an impediment hit asks for (games.sessions.endForPlayer): the player's own
 * sessions of our games end (their page is 410 GAME_SESSION_ENDED), their provider sessions are left as
 * they are: the provider's next bet is refused by the player's check with the reason in the protocol's
 * status for it (RG_BLOCKED self_excluded / impeded: Hub88 RS_ERROR_USER_DISABLED, Evolution
 * ACCOUNT_LOCKED, Betsy 14 or 9), which tells the provider more than an expired token would; its wins and
 * rollbacks settle. How many ended.
 */
export async function endSessionsOfRestricted(sql: Sql, brandId: string, playerId: string, now: Date): Promise<number> {
  const rows = await sql.query(
    `update wallet.game_sessions set expires_at = greatest(?::timestamptz, created_at + interval '1 millisecond'), ended_at = ?::timestamptz
     where brand_id = ? and player_id = ? and expires_at > ? and ended_at is null returning id`,
    [now, now, brandId, playerId, now],
  );
  return rows.length;
}

/**
 * One session of the brand's player: undefined when it is not theirs (or does not exist). Ended at
 * `now` when open; answered as it ended otherwise (the same answer each time: idempotent).
 */
export async function endSession(
  sql: Sql,
  s: { brandId: string; playerId: string; sessionId: string },
  now: Date,
): Promise<{ session: EndedGameSession; ended: boolean } | undefined> {
  return sql.transaction(async (tx) => {
    const rows = await tx.query<SessionEndRow>(
      `select ${COLUMNS} from wallet.game_sessions s where s.id = ? and s.brand_id = ? and s.player_id = ? for update of s`,
      [s.sessionId, s.brandId, s.playerId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const ended = await endRows(tx, rows, now);
    return { session: view(row, ended.has(row.id) ? now : endOf(row)), ended: ended.has(row.id) };
  });
}

/** Every open session of the brand's player, ended at `now`; the sessions it ended (none open: empty). */
export async function endPlayerSessions(sql: Sql, brandId: string, playerId: string, now: Date): Promise<EndedGameSession[]> {
  return sql.transaction((tx) => endPlayerSessionsIn(tx, brandId, playerId, now));
}

/** endPlayerSessions in the caller's transaction (our team's end writes its audit row in it). */
export async function endPlayerSessionsIn(tx: SqlRunner, brandId: string, playerId: string, now: Date): Promise<EndedGameSession[]> {
  const rows = await tx.query<SessionEndRow>(
    `select ${COLUMNS} from wallet.game_sessions s
     where s.brand_id = ? and s.player_id = ? and s.ended_at is null
       and (s.expires_at > ?::timestamptz
            or exists (select 1 from wallet.provider_sessions p where p.game_session_id = s.id and p.expires_at > ?::timestamptz))
     order by s.created_at desc, s.id
     for update of s`,
    [brandId, playerId, now, now],
  );
  const ended = await endRows(tx, rows, now);
  return rows.filter((r) => ended.has(r.id)).map((r) => view(r, now));
}
