// Rows → the contract's shapes. Money leaves as 2-decimal strings, times as ISO 8601 UTC. The
// rows are described by the fields read here, so entities (store/entities.ts) and rows read with
// plain SQL both fit.
import type { Game, GameMode, GameSession, PlayRoundResult } from '@bo/contracts';
import { formatMoney } from '@bo/service-kit';

/** The fields of a session the reply shows. */
interface SessionView {
  id: string;
  playerId: string;
  gameId: string;
  mode: GameMode;
  expiresAt: Date;
  createdAt: Date;
}

export function toGame(row: Game): Game {
  return { id: row.id, name: row.name, provider: row.provider, category: row.category };
}

export function toGameSession(row: SessionView, gameUrl: string): GameSession {
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
export interface RoundView {
  id: string;
  sessionId: string;
  amount: string;
  payout: string;
  win: boolean;
  outcome: Record<string, unknown>;
  balanceAfter?: string | null;
  createdAt: Date;
}

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
