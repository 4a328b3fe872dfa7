// games.play.heartbeat (gateway launch page, POST /play/:token/heartbeat): the page is in use. For
// a real session of a player with responsible-gaming rules the time since the session's last
// activity counts as played (activity.ts, under the account lock); the answer is the session's net
// result for the page's reality check.
import type { gamePlayMessages } from '@bo/contracts';
import { formatMoney, internalScopeOf, onlyRow, ruleClock, type HandlerOf } from '@bo/service-kit';
import { playerAccountId } from '../../ledger/accounts.ts';
import { needsRoundGuard } from '../domain/round-limits.ts';
import type { GamesContext } from './context.ts';
import { lockForPlay, recordActivity } from './activity.ts';
import { openSessionByToken } from './play-session.ts';
import { assertStillMayPlay } from './player-check.ts';

export function playHeartbeat(ctx: GamesContext): HandlerOf<typeof gamePlayMessages.heartbeat> {
  return async (req) => {
    internalScopeOf(req);
    const { session } = await openSessionByToken(ctx, ctx.deps.orm.em.fork(), req.params.token);
    const state = await assertStillMayPlay(ctx, session, req.ctx.requestId);
    const now = ruleClock.now();
    if (session.mode === 'real' && needsRoundGuard(state.rg, now)) {
      const accountId = playerAccountId(session.brandId, session.playerId, session.currency);
      await ctx.deps.sql.transaction(async (tx) => {
        const locked = await lockForPlay(tx, accountId, session.id);
        if (locked) await recordActivity(tx, session.id, accountId, locked, now);
      });
    }
    const { net, rounds } = onlyRow(
      await ctx.deps.sql.query<{ net: string; rounds: number }>(
        'select coalesce(sum(payout - amount), 0) as net, count(*)::int as rounds from wallet.game_rounds where session_id = ?',
        [session.id],
      ),
    );
    return { status: 200, body: { sessionId: session.id, netResult: formatMoney(net), roundsPlayed: rounds } };
  };
}
