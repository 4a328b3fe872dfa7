// The ledger's face: all the rest of the wallet may import of it (docs/architecture.md, "One
// template per service"). The games' round posts its money through postOnPlayerRow, the one
// ledger writer; every other write of the ledger stays inside this module.
export { ledgerModule } from './module.ts';
export { playerAccountId } from './domain/account-ids.ts';
export { createPlayerAccount, ensureClearingAccount, ensureProviderClearingAccount } from './store/accounts.ts';
export { postOnPlayerRow } from './store/ledger-writer.ts';
export { readWallet, stakeableNow } from './store/queries.ts';
export { rollUpClearing } from './store/rollup.ts';
