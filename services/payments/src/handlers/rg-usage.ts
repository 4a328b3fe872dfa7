// payments.rg.usage (internal): what the player's deposits of the current day, week and month add
// up to, for the responsible-gaming view the players service answers.
import { LIMIT_PERIODS, type rgUsageMessages } from '@bo/contracts';
import { formatMoney, internalScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { depositUsage } from '../store/deposit-store.ts';

export function depositRgUsage(deps: ServiceDeps): HandlerOf<typeof rgUsageMessages.payments> {
  return async (req) => {
    internalScopeOf(req);
    const { brandId, playerId, timeZone, at } = req.body;
    const usage = await depositUsage(deps.sql, brandId, playerId, new Date(at), timeZone);
    return { status: 200, body: { usage: LIMIT_PERIODS.map((period) => ({ type: 'deposit' as const, period, used: formatMoney(usage.used[period]) })) } };
  };
}
