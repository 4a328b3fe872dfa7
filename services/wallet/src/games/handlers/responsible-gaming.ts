// The wallet's part of responsible gaming for the players service: the usage it counts
// (wallet.rg.usage: stakes, net loss and minutes played of the current periods) and the end of a
// self-excluded player's open game sessions (games.sessions.endForPlayer, asked before the
// self-exclusion is answered).
import { LIMIT_PERIODS, type endPlayerSessionsMessages, type rgUsageMessages } from '@bo/contracts';
import { Money, formatMoney, internalScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { periodUsage, type RoundUsage } from '../../ledger/rg-usage.ts';
import type { GamesContext } from './context.ts';

export function walletRgUsage(ctx: GamesContext): HandlerOf<typeof rgUsageMessages.wallet> {
  return async (req) => {
    internalScopeOf(req);
    const { brandId, playerId, timeZone, at } = req.body;
    // One account per player and currency: the player's accounts of the brand, summed.
    const accounts = await ctx.deps.sql.query<{ id: string }>("select id from wallet.accounts where kind = 'player' and brand_id = ? and player_id = ?", [
      brandId,
      playerId,
    ]);
    const usage = await Promise.all(accounts.map((a) => periodUsage(ctx.deps.sql, a.id, timeZone, new Date(at))));
    const money = (f: (u: RoundUsage) => string) => formatMoney(usage.reduce((acc, u) => acc.plus(f(u)), new Money(0)));
    const out = LIMIT_PERIODS.flatMap((period) => [
      { type: 'wager' as const, period, used: money((u) => u.wagered[period]) },
      { type: 'loss' as const, period, used: money((u) => u.netLoss[period]) },
      { type: 'time' as const, period, used: String(Math.floor(usage.reduce((acc, u) => acc + u.seconds[period], 0) / 60)) },
    ]);
    return { status: 200, body: { usage: out } };
  };
}

export function endPlayerSessions(ctx: GamesContext): HandlerOf<typeof endPlayerSessionsMessages.end> {
  return async (req) => {
    internalScopeOf(req);
    const rows = await ctx.deps.sql.query(
      'update wallet.game_sessions set expires_at = ?, ended_at = ? where brand_id = ? and player_id = ? and expires_at > ? returning id',
      [ruleClock.now(), ruleClock.now(), req.body.brandId, req.body.playerId, ruleClock.now()],
    );
    return { status: 200, body: { ended: rows.length } };
  };
}
