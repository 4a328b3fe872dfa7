// The end of game sessions before their time (issue #66 item 9, docs/games.md "Ending a session"):
// - games.sessions.end / games.sessions.endAll: the operator's (the player logged out), one session
//   or every open one of the player; idempotent (an ended session is answered as it ended);
// - games.admin.sessions.end: our team's, every open one of the player, audited with the reason in the
//   change's own transaction;
// - games.sessions.endForPlayer: asked by the players service after a self-exclusion or an impediment
//   hit commits and before it answers: our games' sessions end; a provider's bets are refused by the
//   player's check with the reason (store/session-ends.ts endSessionsOfRestricted).
// The operator's and our team's end the provider sessions launched for them too: a provider's next bet
// on the token is refused as on an expired session, its wins and rollbacks still settle.
import {
  AppError,
  PLAYER_STATE_SUBJECT,
  type endPlayerSessionsMessages,
  type gameOperations,
  type gameSessionAdminOperations,
  type PlayerState,
  type PlayerStateRequest,
} from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, internalScopeOf, operatorScopeOf, ruleClock, writeDecisionAudit, type HandlerOf } from '@bo/service-kit';
import { assertPlayerExists } from '../domain/eligibility.ts';
import { endPlayerSessions as endAllOf, endPlayerSessionsIn, endSession, endSessionsOfRestricted } from '../store/session-ends.ts';
import type { GamesContext } from './context.ts';

async function playerOf(ctx: GamesContext, brandId: string, playerId: string, requestId: string): Promise<PlayerState> {
  const player = await ctx.deps.call<PlayerState>(PLAYER_STATE_SUBJECT, { brandId, playerId } satisfies PlayerStateRequest, { requestId });
  assertPlayerExists(player);
  return player;
}

export function endGameSession(ctx: GamesContext): HandlerOf<typeof gameOperations.endGameSession> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { playerId, sessionId } = req.params;
    await playerOf(ctx, scope.brandId, playerId, req.ctx.requestId);
    // Another brand's session (another operator's, or the other environment's) is not found.
    const ended = await endSession(ctx.deps.sql, { brandId: scope.brandId, playerId, sessionId }, ruleClock.now());
    if (!ended) throw new AppError('GAME_SESSION_NOT_FOUND');
    if (ended.ended) ctx.deps.log.info({ sessionId, playerId, by: 'operator' }, 'game session ended');
    return { status: 200, body: ended.session };
  };
}

export function endAllGameSessions(ctx: GamesContext): HandlerOf<typeof gameOperations.endPlayerGameSessions> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { playerId } = req.params;
    await playerOf(ctx, scope.brandId, playerId, req.ctx.requestId);
    const data = await endAllOf(ctx.deps.sql, scope.brandId, playerId, ruleClock.now());
    if (data.length > 0) ctx.deps.log.info({ playerId, sessions: data.length, by: 'operator' }, 'game sessions ended');
    return { status: 200, body: { data } };
  };
}

export function adminEndGameSessions(ctx: GamesContext): HandlerOf<typeof gameSessionAdminOperations.adminEndGameSessions> {
  return async (req) => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const { brandId, reason } = req.body;
    const playerId = req.params.id;
    await playerOf(ctx, brandId, playerId, req.ctx.requestId);
    const now = ruleClock.now();
    const data = await ctx.deps.sql.transaction(async (tx) => {
      const ended = await endPlayerSessionsIn(tx, brandId, playerId, now);
      await writeDecisionAudit(tx, ctx.deps.schema, by, {
        action: 'adminEndGameSessions',
        target: `player:${playerId}`,
        before: { openSessions: ended.map((s) => s.id) },
        after: { openSessions: [], ended: ended.map((s) => s.id), endedAt: now.toISOString(), reason },
      });
      return ended;
    });
    ctx.deps.outbox.poke();
    return { status: 200, body: { data } };
  };
}

export function endPlayerSessions(ctx: GamesContext): HandlerOf<typeof endPlayerSessionsMessages.end> {
  return async (req) => {
    internalScopeOf(req);
    return { status: 200, body: { ended: await endSessionsOfRestricted(ctx.deps.sql, req.body.brandId, req.body.playerId, ruleClock.now()) } };
  };
}
