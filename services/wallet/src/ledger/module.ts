// The ledger module of the wallet: accounts, holds, the append-only double-entry ledger, the
// commands payments uses to move money (docs/money.md) and the clearing accounts' roll-up.
import type { ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { ledgerMigrations } from './migrations.ts';
import { ledgerHandlers } from './handlers.ts';
import { startClearingRollup } from './rollup.ts';
import { stakesHandlers } from './stakes.ts';
import { ledgerDayHandlers } from './ledger-day.ts';
import { regulatorMovesHandlers } from './regulator-moves.ts';

export const ledgerModule: ServiceModule<WalletConfig> = {
  entities: [],
  migrations: ledgerMigrations,
  handlers: (deps) => ({ ...ledgerHandlers(deps), ...stakesHandlers(deps.sql), ...ledgerDayHandlers(deps.sql), ...regulatorMovesHandlers(deps.sql) }),
  background: (deps) => [startClearingRollup(deps, deps.config.CLEARING_ROLLUP_MS)],
};
