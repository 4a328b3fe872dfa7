// The services a test runs beside the one it tests, from their packages: the players service (the
// wallet asks it about every player it serves), and the games stack's pair, players and the
// wallet the test gives. Test support depends on them so that a service's own package does not
// depend on another service just for its tests.
import { PlayersConfigSchema, playersService } from '@bo/players';
import type { GamesServices } from './games.ts';

export { playersService };

/** The games stack's services: the real players service and `wallet` (with `rng`, its games module draws from it). */
export function gamesServicesWith(wallet: GamesServices['wallet']): GamesServices {
  return { players: { service: playersService, config: PlayersConfigSchema }, wallet };
}
