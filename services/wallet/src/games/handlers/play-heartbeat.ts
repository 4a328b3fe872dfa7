// games.play.heartbeat (gateway launch page, POST /play/:token/heartbeat): the page is in use. The
// time since the player's last activity counts as played (the rg module's recordActivity), for every
// real-money player; a demo session's for a player with responsible-gaming rules, on demo play's own
// record (recordDemoActivity); the answer is the session's net result for the page's reality check. A
// heartbeat that says the player acknowledged a reality check to play on counts it in the hour's
// usage of a real-money session (the harm markers read it, issue #68).
import type { gamePlayMessages } from '@bo/contracts';
import { internalScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { playerAccountId } from '../../ledger/index.ts';
import { needsRoundGuard, recordActivity, recordDemoActivity, recordRealityCheck } from '../../rg/index.ts';
import { sessionNet } from '../store/round-records.ts';
import type { GamesContext } from './context.ts';
import { openSessionByToken } from './play-session.ts';
import { assertStillMayPlay } from './player-check.ts';

export function playHeartbeat(ctx: GamesContext): HandlerOf<typeof gamePlayMessages.heartbeat> {
  return async (req) => {
    internalScopeOf(req);
    const { session } = await openSessionByToken(ctx, ctx.deps.orm.em.fork(), req.params.token);
    const state = await assertStillMayPlay(ctx, session, req.ctx.requestId);
    const now = ruleClock.now();
    const accountId = playerAccountId(session.brandId, session.playerId, session.currency);
    if (req.body?.realityCheck === 'acknowledged' && session.mode === 'real') await recordRealityCheck(ctx.deps.sql, accountId, now);
    // Real-money time counts for every player (the harm markers' minutes, issue #68), off the round's
    // statement: a player without limits has no time limit to check it against, only their days to read.
    if (session.mode === 'real') await recordActivity(ctx.deps.sql, accountId, now);
    else if (needsRoundGuard(state.rg, now)) await recordDemoActivity(ctx.deps.sql, { accountId, brandId: session.brandId, playerId: session.playerId }, now);
    return { status: 200, body: { sessionId: session.id, ...(await sessionNet(ctx.deps.sql, session.id)) } };
  };
}
