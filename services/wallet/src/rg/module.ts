// The responsible-gaming module of the wallet (docs/responsible-gaming.md): the usage real-money
// play counts (wallet.rg_usage by hour; the compliance service reads it into the harm days), the
// current periods' counters a round is checked against on the player's account row, the limit rules,
// and demo play's own usage in the sandbox. Its tables and columns are created by the games module's
// migrations (Games0005, Games0006, Games0009, Games0010), where
// they were first written: a migration's
// name and place in the list are recorded in the database, so they stay.
import { harmPlayMessages, rgDemoMessages, rgUsageMessages } from '@bo/contracts';
import { handle, internalScopeOf, type ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { walletDemoNextDay } from './handlers/demo-next-day.ts';
import { walletRgUsage } from './handlers/wallet-usage.ts';
import { lossesBefore, nextPlayHour, playHoursFrom } from './store/play-hours.ts';

export const rgModule: ServiceModule<WalletConfig> = {
  entities: [],
  migrations: [],
  handlers: (deps) => ({
    ...handle(rgUsageMessages.wallet, walletRgUsage(deps.sql)),
    ...handle(rgDemoMessages.nextDay, walletDemoNextDay(deps.sql)),
    // The compliance service's harm play pass (issue #68): the hours played since its last pass.
    ...handle(harmPlayMessages.playHours, async (req) => {
      internalScopeOf(req);
      const hours = await playHoursFrom(deps.sql, req.body);
      // The window's last page says where play resumes, so a pass skips the hours nobody played.
      const last = req.body.toHour !== undefined && hours.length < req.body.limit;
      return { body: { hours, ...(last ? { nextHour: await nextPlayHour(deps.sql, req.body.toHour!) } : {}) } };
    }),
    // The harm feed's deposits after a loss (the chasing marker).
    ...handle(harmPlayMessages.lossesBefore, async (req) => {
      internalScopeOf(req);
      return { body: { afterLoss: await lossesBefore(deps.sql, req.body.deposits) } };
    }),
  }),
};
