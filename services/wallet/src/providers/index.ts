// The providers module's face: what the wallet's composition (service.ts) uses of it. No other
// module imports providers: the ledger's verification reads its table in SQL.
export { providersModule } from './module.ts';
