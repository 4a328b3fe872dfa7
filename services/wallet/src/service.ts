// The wallet service: the ledger and balances, and the games domain, which lives here because
// real-money play moves money and must share the ledger's transactions (see docs/architecture.md).
import { composeService } from '@bo/service-kit';
import { WalletConfigSchema } from './config.ts';
import { ledgerModule } from './ledger/module.ts';
import { createGamesModule, type GamesModuleOptions } from './games/module.ts';

/** The wallet; `games` replaces the games module's random source or provider adapter (tests). */
export function walletServiceWith(games: GamesModuleOptions = {}) {
  return composeService('wallet', 'wallet', WalletConfigSchema, [ledgerModule, createGamesModule(games)]);
}

export const walletService = walletServiceWith();
