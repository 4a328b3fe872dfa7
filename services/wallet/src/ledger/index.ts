// The ledger's face: all the rest of the wallet may import of it (docs/architecture.md, "One
// template per service"). The games' round and the providers' calls post their money through
// postOnPlayerRow, the unclaimed funds of closed accounts through postTransaction over the account
// they locked (lockAccountById): the one ledger writer either way; every other write of the ledger
// stays inside this module.
export { ledgerModule } from './module.ts';
export { clearingAccountId, playerAccountId } from './domain/account-ids.ts';
export { createPlayerAccount, ensureClearingAccount, ensureProviderClearingAccount, lockAccountById } from './store/accounts.ts';
export { playerRowPart, postOnPlayerRow, postTransaction, type PlayerRowPosting } from './store/ledger-writer.ts';
export { readWallet, stakeableNow } from './store/queries.ts';
export { rollUpClearing } from './store/rollup.ts';
