// games.play.heartbeat (gateway launch page, POST /play/:token/heartbeat): the page is in use. For
// a player with responsible-gaming rules the time since the player's last activity counts as
// played (the rg module's recordActivity; a demo session's on demo play's own record,
// recordDemoActivity); the answer is the session's net result for the page's reality check.
import type { gamePlayMessages } from '@bo/contracts';
import { internalScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { playerAccountId } from '../../ledger/index.ts';
import { needsRoundGuard, recordActivity, recordDemoActivity } from '../../rg/index.ts';
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
    if (needsRoundGuard(state.rg, now)) {
      const accountId = playerAccountId(session.brandId, session.playerId, session.currency);
      if (session.mode === 'real') await recordActivity(ctx.deps.sql, accountId, now);
      else await recordDemoActivity(ctx.deps.sql, { accountId, brandId: session.brandId, playerId: session.playerId }, now);
    }
    return { status: 200, body: { sessionId: session.id, ...(await sessionNet(ctx.deps.sql, session.id)) } };
  };
}
