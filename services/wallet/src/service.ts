// The wallet service: the ledger and balances, responsible gaming's usage and counters, and the
// games domain and the game providers' wallet API, which live here because real-money play moves money and must share the ledger's
// transactions (see docs/architecture.md). Each module is reached through its face (index.ts).
import { composeService, personalDataHandlers } from '@bo/service-kit';
import { walletPersonalData } from './store/index.ts';
import { WalletConfigSchema } from './config.ts';
import { ledgerModule } from './ledger/index.ts';
import { rgModule } from './rg/index.ts';
import { createGamesModule, type GamesModuleOptions } from './games/index.ts';
import { providersModule } from './providers/index.ts';
import { unclaimedModule } from './unclaimed/index.ts';
import { integrityModule } from './integrity/index.ts';

/** The wallet; `games` replaces the games module's random source or provider adapter (tests). */
export function walletServiceWith(games: GamesModuleOptions = {}) {
  // unclaimed then integrity last: each migration changes what the one before set (the accounts' kinds).
  const wallet = composeService('wallet', 'wallet', WalletConfigSchema, [
    ledgerModule,
    rgModule,
    createGamesModule(games),
    providersModule,
    unclaimedModule,
    integrityModule,
    // What the wallet holds about a player, for the players service's data requests (issue #69).
    { entities: [], migrations: [], handlers: (deps) => personalDataHandlers(deps, walletPersonalData) },
  ]);
  // The return of unclaimed funds is a decision: its audit row goes to the internal stream, for the operators service's audit log.
  return { ...wallet, internalEvents: true };
}

export const walletService = walletServiceWith();
