// The ledger module of the wallet: accounts, holds, the append-only double-entry ledger, the
// commands payments uses to move money (docs/money.md) and the clearing accounts' roll-up.
import type { ServiceModule } from '@bo/service-kit';
import { ledgerMigrations } from './migrations.ts';
import { ledgerHandlers } from './handlers.ts';
import { startClearingRollup } from './rollup.ts';
import { ledgerSettings } from '../config.ts';

export const ledgerModule: ServiceModule = {
  entities: [], migrations: ledgerMigrations, handlers: ledgerHandlers,
  background: (deps) => [startClearingRollup(deps, ledgerSettings(deps.config).rollupMs)],
};
