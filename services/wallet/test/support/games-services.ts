// The games stack of the wallet's tests (test-support's startGamesStack): the real players service
// and this wallet, its games module drawing from the test's random source when one is given.
import { gamesServicesWith } from '@bo/test-support';
import { WalletConfigSchema } from '../../src/config.ts';
import { walletServiceWith } from '../../src/service.ts';

export const gamesServices = gamesServicesWith((rng) => ({ service: walletServiceWith(rng ? { rng } : {}), config: WalletConfigSchema }));
