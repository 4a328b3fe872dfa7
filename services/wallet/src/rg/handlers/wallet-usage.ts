// The wallet's part of responsible gaming for the players service: the usage it counts
// (wallet.rg.usage: stakes, net loss and minutes played of the current periods; a sandbox player's
// from demo play).
import { LIMIT_PERIODS, type rgUsageMessages } from '@bo/contracts';
import { Money, formatMoney, internalScopeOf, type HandlerOf, type SqlRunner } from '@bo/service-kit';
import type { RoundUsage } from '../domain/round-limits.ts';
import { demoKeysOf } from '../store/demo-usage.ts';
import { periodUsage, playerAccountIdsOf } from '../store/usage.ts';

export function walletRgUsage(sql: SqlRunner): HandlerOf<typeof rgUsageMessages.wallet> {
  return async (req) => {
    internalScopeOf(req);
    const { brandId, playerId, timeZone, at } = req.body;
    // One account per player and currency: the player's accounts of the brand, summed. A sandbox
    // player's usage is demo play's (their sessions are all demo), a production player's has none.
    const [accounts, demo] = await Promise.all([playerAccountIdsOf(sql, brandId, playerId), demoKeysOf(sql, brandId, playerId)]);
    const usage = await Promise.all([
      ...accounts.map((id) => periodUsage(sql, id, timeZone, new Date(at))),
      ...demo.map((id) => periodUsage(sql, id, timeZone, new Date(at), 'wallet.rg_demo_usage')),
    ]);
    const money = (f: (u: RoundUsage) => string) => formatMoney(usage.reduce((acc, u) => acc.plus(f(u)), new Money(0)));
    const out = LIMIT_PERIODS.flatMap((period) => [
      { type: 'wager' as const, period, used: money((u) => u.wagered[period]) },
      { type: 'loss' as const, period, used: money((u) => u.netLoss[period]) },
      { type: 'time' as const, period, used: String(Math.floor(usage.reduce((acc, u) => acc + u.seconds[period], 0) / 60)) },
    ]);
    return { status: 200, body: { usage: out } };
  };
}
