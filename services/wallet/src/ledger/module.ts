import type { ServiceModule } from '@bo/service-kit';

// Placeholder: the ledger module (balances, holds, append-only ledger) is built in issue #4.
export const ledgerModule: ServiceModule = { entities: [], migrations: [], handlers: () => ({}) };
