// Rows → the contract's shapes. Money leaves as 2-decimal strings, times as ISO 8601 UTC.
import type { Game, GameSession, PlayRoundResult } from '@bo/contracts';
import { formatMoney } from '@bo/service-kit';
import type { GameRoundRow, GameRow, GameSessionRow } from '../persistence/entities.ts';

export function toGame(row: GameRow): Game {
  return { id: row.id, name: row.name, provider: row.provider, category: row.category };
}

export function toGameSession(row: GameSessionRow, gameUrl: string): GameSession {
  return {
    id: row.id,
    playerId: row.playerId,
    gameId: row.gameId,
    gameUrl,
    mode: row.mode,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The fields of a round the reply shows (an entity, or a row read with plain SQL). */
export type RoundView = Pick<GameRoundRow, 'id' | 'sessionId' | 'amount' | 'payout' | 'win' | 'outcome' | 'balanceAfter' | 'createdAt'>;

export function toRoundResult(row: RoundView, gameId: string): PlayRoundResult {
  return {
    id: row.id,
    sessionId: row.sessionId,
    gameId,
    amount: formatMoney(row.amount),
    payout: formatMoney(row.payout),
    win: row.win,
    outcome: row.outcome,
    balanceAfter: row.balanceAfter == null ? null : formatMoney(row.balanceAfter),
    createdAt: row.createdAt.toISOString(),
  };
}
