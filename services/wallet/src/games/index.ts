// The games module's face: what the wallet's composition (service.ts, the package's index.ts)
// uses of it. No other module imports games: the ledger's verification reads its tables in SQL.
export { createGamesModule, type GamesModuleOptions } from './module.ts';
export type { Rng } from './domain/rounds.ts';
