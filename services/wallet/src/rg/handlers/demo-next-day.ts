// wallet.rg.demoNextDay (players → wallet, for the sandbox's next day): the sandbox player's demo usage
// a day older (store/demo-usage.ts ageDemoUsage). Demo play's record only: real money's usage and
// counters are the ledger's and never move.
import type { rgDemoMessages } from '@bo/contracts';
import { internalScopeOf, type HandlerOf, type SqlRunner } from '@bo/service-kit';
import { ageDemoUsage } from '../store/demo-usage.ts';

export function walletDemoNextDay(sql: SqlRunner): HandlerOf<typeof rgDemoMessages.nextDay> {
  return async (req) => {
    internalScopeOf(req);
    return { status: 200, body: { hours: await ageDemoUsage(sql, req.body.brandId, req.body.playerId) } };
  };
}
