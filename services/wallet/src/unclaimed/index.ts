// The unclaimed module's face: what the wallet's composition (service.ts) uses of it. The ledger's
// verification reads its tables in SQL.
export { unclaimedModule } from './module.ts';
