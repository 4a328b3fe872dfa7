// The responsible-gaming module of the wallet (docs/responsible-gaming.md): the usage real-money
// play counts (wallet.rg_usage by hour), the current periods' counters a round is checked against
// on the player's account row, the limit rules, and demo play's own usage in the sandbox. Its tables
// and columns are created by the games module's migrations (Games0005, Games0006, Games0009), where
// they were first written: a migration's
// name and place in the list are recorded in the database, so they stay.
import { rgDemoMessages, rgUsageMessages } from '@bo/contracts';
import { handle, type ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { walletDemoNextDay } from './handlers/demo-next-day.ts';
import { walletRgUsage } from './handlers/wallet-usage.ts';

export const rgModule: ServiceModule<WalletConfig> = {
  entities: [],
  migrations: [],
  handlers: (deps) => ({
    ...handle(rgUsageMessages.wallet, walletRgUsage(deps.sql)),
    ...handle(rgDemoMessages.nextDay, walletDemoNextDay(deps.sql)),
  }),
};
