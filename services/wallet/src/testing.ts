// What tests need beyond the public surface (`@bo/wallet/testing`): signing launch tokens as the
// wallet does, to forge, expire or replay them.
export { createLaunchTokenSigner, type LaunchTokenSigner } from './games/domain/launch-token.ts';

import type { GamesServices } from '@bo/test-support';
import { PlayersConfigSchema, playersService } from '@bo/players';
import { WalletConfigSchema } from './config.ts';
import { walletServiceWith } from './service.ts';

/** The players and wallet services as the games stack of `@bo/test-support` starts them. */
export const gamesServices: GamesServices = {
  players: { service: playersService, config: PlayersConfigSchema },
  wallet: (rng) => ({ service: walletServiceWith(rng ? { rng } : {}), config: WalletConfigSchema }),
};
