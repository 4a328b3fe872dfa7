// The games' rows through the ORM (entities.ts): a game, a session (locked for a demo
// round's unit of work), the round a retried demo click already played, a new session and a demo
// round. Plain-SQL reads are round-records.ts; no file here holds both.
import type { PlayRoundInput } from '@bo/contracts';
import { LockMode, type RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GameEntity, GameRoundEntity, GameSessionEntity, type GameRoundRow, type GameRow, type GameSessionRow } from './entities.ts';

export function findEnabledGame(em: EntityManager, id: string): Promise<GameRow | null> {
  return em.findOne(GameEntity, { id, enabled: true });
}

/** The session (locked for update with `lock`) and its game; null when no such session exists. */
export async function findSessionWithGame(
  em: EntityManager,
  sessionId: string,
  opts: { lock?: boolean } = {},
): Promise<{ session: GameSessionRow; game: GameRow } | null> {
  const session = await em.findOne(GameSessionEntity, { id: sessionId }, opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!session) return null;
  return { session, game: await em.findOneOrFail(GameEntity, { id: session.gameId }) };
}

/** A retried click: the round already played is the answer, nothing is drawn or paid again. */
export async function findPriorRound(em: EntityManager, sessionId: string, input: PlayRoundInput): Promise<GameRoundRow | null> {
  if (!input.clientRoundId) return null;
  return em.findOne(GameRoundEntity, { sessionId, clientRoundId: input.clientRoundId });
}

/** Stores a new session. */
export async function addSession(em: EntityManager, data: RequiredEntityData<GameSessionRow>): Promise<GameSessionRow> {
  const row = em.create(GameSessionEntity, data);
  await em.flush();
  return row;
}

/** Stores a demo round and the session's fictitious balance after it, in the caller's unit of work (the session row is locked). */
export async function addDemoRound(
  em: EntityManager,
  session: GameSessionRow,
  balanceAfter: string,
  data: RequiredEntityData<GameRoundRow>,
): Promise<GameRoundRow> {
  const round = em.create(GameRoundEntity, data);
  session.demoBalance = balanceAfter;
  await em.flush();
  return round;
}
