// The games' rows read and written with the kit's plain SQL (no unit of work, no identity map):
// the real-money hot path's looks at a session and its rounds and the launch page's small reads (the
// end of sessions is session-ends.ts). The ORM's reads are session-rows.ts.
import { AppError, type Environment } from '@bo/contracts';
import { formatMoney, onlyRow, type SqlRunner } from '@bo/service-kit';
import { sessionOver } from '../domain/rounds.ts';
import type { RoundView } from '../domain/views.ts';

// Raw rows carry timestamps as text.
const withDate = (r: RoundView): RoundView => ({ ...r, createdAt: new Date(r.createdAt) });

const ROUND_COLUMNS = `id, session_id as "sessionId", amount, payout, win, outcome, balance_after as "balanceAfter", created_at as "createdAt"`;

/** findPriorRound (session-rows.ts) in plain SQL, for the real-money hot path. */
export async function findRoundByClientId(sql: SqlRunner, sessionId: string, clientRoundId: string): Promise<RoundView | undefined> {
  const rows = await sql.query<RoundView>(`select ${ROUND_COLUMNS} from wallet.game_rounds where session_id = ? and client_round_id = ?`, [
    sessionId,
    clientRoundId,
  ]);
  return rows[0] ? withDate(rows[0]) : undefined;
}

/** Whether the session is still open at `at` (its row's expires_at is authoritative: it can be shortened). */
/** Throws when the session is over at `at`: ended before its time (GAME_SESSION_ENDED) or expired. */
export async function assertSessionOpenAt(sql: SqlRunner, sessionId: string, at: Date): Promise<void> {
  const rows = await sql.query<{ open: boolean; ended_at: Date | null }>(
    'select expires_at > ?::timestamptz as open, ended_at from wallet.game_sessions where id = ?',
    [at, sessionId],
  );
  if (!rows[0]?.open) throw sessionOver(rows[0]?.ended_at ?? null);
}

export interface FirstLook {
  operatorId: string;
  environment: Environment;
  brandId: string;
  playerId: string;
  currency: string;
  mode: string;
  expiresAt: Date;
  gameId: string;
  gameKind: string;
  prior: RoundView | undefined;
}

/** The session, its game and a round already played with this clientRoundId: one unlocked select. */
export async function firstLook(sql: SqlRunner, sessionId: string, clientRoundId: string | undefined): Promise<FirstLook> {
  const rows = await sql.query<
    Omit<FirstLook, 'prior'> & {
      endedAt: Date | null;
      roundId: string | null;
      amount: string;
      payout: string;
      win: boolean;
      outcome: Record<string, unknown>;
      balanceAfter: string | null;
      createdAt: Date;
    }
  >(
    `select s.operator_id as "operatorId", s.environment, s.brand_id as "brandId", s.player_id as "playerId", s.currency, s.mode, s.expires_at as "expiresAt", s.ended_at as "endedAt", g.id as "gameId", g.kind as "gameKind",
            r.id as "roundId", r.amount, r.payout, r.win, r.outcome, r.balance_after as "balanceAfter", r.created_at as "createdAt"
     from wallet.game_sessions s join wallet.games g on g.id = s.game_id
     left join wallet.game_rounds r on r.session_id = s.id and r.client_round_id = ?
     where s.id = ?`,
    [clientRoundId ?? null, sessionId],
  );
  const row = rows[0];
  if (!row) throw new AppError('LAUNCH_TOKEN_INVALID');
  // The row's expires_at is authoritative (it can be shortened to end a session early).
  if (new Date(row.expiresAt).getTime() <= Date.now()) throw sessionOver(row.endedAt);
  const prior = row.roundId
    ? {
        id: row.roundId,
        sessionId,
        amount: row.amount,
        payout: row.payout,
        win: row.win,
        outcome: row.outcome,
        balanceAfter: row.balanceAfter,
        createdAt: new Date(row.createdAt),
      }
    : undefined;
  return { ...row, prior };
}

/** The session's net result (payouts − stakes) and rounds so far, for the page's reality check. */
export async function sessionNet(sql: SqlRunner, sessionId: string): Promise<{ netResult: string; roundsPlayed: number }> {
  const { net, rounds } = onlyRow(
    await sql.query<{ net: string; rounds: number }>(
      'select coalesce(sum(payout - amount), 0) as net, count(*)::int as rounds from wallet.game_rounds where session_id = ?',
      [sessionId],
    ),
  );
  return { netResult: formatMoney(net), roundsPlayed: rounds };
}

/** The operator whose session this is, or undefined when no such session exists. */
export async function sessionOperatorId(sql: SqlRunner, sessionId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ operatorId: string }>('select operator_id as "operatorId" from wallet.game_sessions where id = ?', [sessionId]);
  return row?.operatorId;
}
