// The ledger module of the wallet: accounts, holds, the append-only double-entry ledger, the
// commands payments uses to move money (docs/money.md) and the clearing accounts' roll-up.
import type { ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { ledgerMigrations } from './store/migrations.ts';
import { ledgerHandlers } from './handlers/ledger.ts';
import { complianceReadHandlers } from './handlers/compliance-reads.ts';
import { startClearingRollup } from './store/rollup.ts';
import { CREDIT_GROUP } from './store/commands.ts';

export const ledgerModule: ServiceModule<WalletConfig> = {
  entities: [],
  migrations: ledgerMigrations,
  handlers: (deps) => ({ ...ledgerHandlers(deps), ...complianceReadHandlers(deps.sql) }),
  background: (deps) => [startClearingRollup(deps, deps.config.CLEARING_ROLLUP_MS)],
  groupCommits: [CREDIT_GROUP],
};
