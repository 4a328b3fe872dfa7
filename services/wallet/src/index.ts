// Public surface of the wallet service: how to build and configure it (tests, start script, bench),
// and the clearing roll-up, which operations may run by hand.
export { walletService, walletServiceWith } from './service.ts';
export { WalletConfigSchema, type WalletConfig } from './config.ts';
export type { GamesModuleOptions, Rng } from './games/index.ts';
export { rollUpClearing } from './ledger/index.ts';
export { walletPersonalData } from './store/index.ts';
