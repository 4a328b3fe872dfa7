// The games module's face: what the wallet's composition (service.ts, the package's index.ts)
// uses of it, and what the providers module uses. The ledger's verification reads its tables in SQL.
export { createGamesModule, type GamesModuleOptions } from './module.ts';
export type { Rng } from './domain/rounds.ts';
// What the providers module holds a provider's bet to, as our own rounds are held: the player's
// standing (domain/eligibility.ts), the event of a limit reached, and the session token's hash.
export { assertPlayerExists, assertPlayerMayPlay } from './domain/eligibility.ts';
export { hashSessionToken } from './domain/provider-session-token.ts';
export { announceLimitReached } from './handlers/limit-reached.ts';
