// games.play.round (gateway launch page, POST /play/:token/rounds): plays one round of a built-in
// game. The outcome is drawn here (crypto random), never by the page. Demo rounds move only the
// session's fictitious balance (demo-round.ts); real rounds move the player's money through the
// ledger (real-round.ts). Both record the round in one transaction holding the session row lock,
// so concurrent clicks on one session are serialised and a clientRoundId is played at most once.
import { AppError, gamePlayMessages, validationError, type Environment } from '@bo/contracts';
import { type HandlerOf, internalScopeOf, parseInput, type SqlRunner } from '@bo/service-kit';
import { checkRoundInput, type BuiltInKind } from '../domain/rounds.ts';
import type { RoundView } from '../domain/views.ts';
import type { GamesContext } from './context.ts';
import { verifyLaunchToken } from './play-session.ts';
import { roundReply, sessionOver } from './round-records.ts';
import { playDemoRound } from './demo-round.ts';
import { playRealRound } from './real-round.ts';

interface FirstLook {
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
async function firstLook(sql: SqlRunner, sessionId: string, clientRoundId: string | undefined): Promise<FirstLook> {
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

/**
 * games.play.round with its body checked by the handler, after the launch token: a forged or
 * expired link is refused (403/410) before the body is looked at.
 */
export const playRoundMessage = { ...gamePlayMessages.round, body: undefined };

export function playRound(ctx: GamesContext): HandlerOf<typeof playRoundMessage> {
  return async (req) => {
    internalScopeOf(req);
    const { token } = req.params;
    // A forged or expired link is refused before the body is even looked at.
    const sessionId = verifyLaunchToken(ctx, token);
    const input = parseInput(gamePlayMessages.round.body, req.body, 'body');

    // A first look, without locks: which game and mode, and whether this click was played already.
    // The round's own transaction looks again under the session lock.
    const look = await firstLook(ctx.deps.sql, sessionId, input.clientRoundId);
    if (look.gameKind === 'external') throw new AppError('GAME_NOT_FOUND', 'This game is played at its provider, not on this page.');
    const kind = look.gameKind as BuiltInKind;
    if (look.prior) return roundReply(look.prior, { id: look.gameId });
    const issues = checkRoundInput(kind, input);
    if (issues.length > 0) throw validationError('body', issues);

    return look.mode === 'real'
      ? playRealRound(ctx, { token, kind, input, sessionId, session: look, requestId: req.ctx.requestId })
      : playDemoRound(ctx, { token, kind, input, session: look, requestId: req.ctx.requestId });
  };
}
