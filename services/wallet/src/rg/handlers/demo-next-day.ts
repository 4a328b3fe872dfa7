// wallet.rg.demoNextDay (players → wallet, for the sandbox's next day): the sandbox player's demo usage
// a day older (store/demo-usage.ts ageDemoUsage), and their play on the sandbox ledger's too (the
// built-in sandbox provider's bets, issue #61: ageSandboxPlayUsage). Only the responsible-gaming record
// moves: the ledger's entries keep their times, and a brand with production play is never aged.
import type { rgDemoMessages } from '@bo/contracts';
import { internalScopeOf, type HandlerOf, type Sql } from '@bo/service-kit';
import { ageDemoUsage, ageSandboxPlayUsage } from '../store/demo-usage.ts';

export function walletDemoNextDay(sql: Sql): HandlerOf<typeof rgDemoMessages.nextDay> {
  return async (req) => {
    internalScopeOf(req);
    const demo = await ageDemoUsage(sql, req.body.brandId, req.body.playerId);
    const played = await ageSandboxPlayUsage(sql, req.body.brandId, req.body.playerId);
    return { status: 200, body: { hours: demo + played } };
  };
}
