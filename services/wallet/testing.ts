// `@bo/wallet/testing`: kept only while the gateway's play tests import from it (they would import
// `gamesServicesWith` from `@bo/test-support` and the launch token signer from the wallet's
// domain). Nothing here is under src/: the running service holds no test code.
export { createLaunchTokenSigner, type LaunchTokenSigner } from './src/games/domain/launch-token.ts';
export { gamesServices } from './test/support/games-services.ts';
