// The providers module's face: what the wallet's composition (service.ts) uses of it, and the refund
// of a player's open bets the unclaimed module asks at an account's closing after an impediment hit.
// The ledger's verification reads its table in SQL.
export { providersModule } from './module.ts';
export { refundOpenBets, type OpenBetsRefund } from './handlers/refund-open-bets.ts';
