// What demo and real rounds share: the game's kind, the replay lookup by clientRoundId and the reply.
import { AppError, type PlayRoundInput } from '@bo/contracts';
import type { HandlerResult, SqlRunner } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GameRoundEntity, type GameRoundRow, type GameRow } from '../persistence/entities.ts';
import type { BuiltInKind } from '../domain/rounds.ts';
import { toRoundResult, type RoundView } from '../domain/views.ts';

export function builtInKindOf(game: GameRow): BuiltInKind {
  if (game.kind === 'external') throw new AppError('GAME_NOT_FOUND', 'This game is played at its provider, not on this page.');
  return game.kind as BuiltInKind;
}

/** A retried click: the round already played is the answer, nothing is drawn or paid again. */
export async function findPriorRound(em: EntityManager, sessionId: string, input: PlayRoundInput): Promise<GameRoundRow | null> {
  if (!input.clientRoundId) return null;
  return em.findOne(GameRoundEntity, { sessionId, clientRoundId: input.clientRoundId });
}

export function roundReply(round: RoundView, game: Pick<GameRow, 'id'>): HandlerResult {
  return { status: 201, body: toRoundResult(round, game.id) };
}

// Raw rows carry timestamps as text.
const withDate = (r: RoundView): RoundView => ({ ...r, createdAt: new Date(r.createdAt) });

const ROUND_COLUMNS = `id, session_id as "sessionId", amount, payout, win, outcome, balance_after as "balanceAfter", created_at as "createdAt"`;

/** findPriorRound in plain SQL, for the real-money hot path (no unit of work, no identity map). */
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

/** The refusal of a session that is over: neutral words for one ended before its time (never why). */
export function sessionOver(endedAt: Date | string | null | undefined): AppError {
  return new AppError(endedAt ? 'GAME_SESSION_ENDED' : 'LAUNCH_TOKEN_EXPIRED');
}

export interface RoundRequest {
  token: string | undefined;
  kind: BuiltInKind;
  input: PlayRoundInput;
}
