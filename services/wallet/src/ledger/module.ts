// The ledger module of the wallet: accounts, holds, the append-only double-entry ledger, and the
// commands payments uses to move money (docs/money.md).
import type { ServiceModule } from '@bo/service-kit';
import { ledgerMigrations } from './migrations.ts';
import { ledgerHandlers } from './handlers.ts';

export const ledgerModule: ServiceModule = { entities: [], migrations: ledgerMigrations, handlers: ledgerHandlers };
