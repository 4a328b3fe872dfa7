// The game launch page: a Fastify plugin (the page and its rounds) the gateway mounts on its public
// port, the PlayGames port it asks, and that port over NATS to the wallet's games.
export { playRoutes, type PlayGames, type PlayRefusal, type PlayRoutesOptions } from './play-routes.ts';
export { walletGames, type WalletGamesOptions } from './wallet-games.ts';
export { sandboxProviderRoutes, sandboxProviderWallet, type SandboxProviderWallet } from './sandbox-provider.ts';
