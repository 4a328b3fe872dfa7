import type { ServiceDeps } from '@bo/service-kit';
import type { GamesConfig } from '../config.ts';
import type { LaunchTokenSigner } from '../domain/launch-token.ts';
import type { Rng } from '../domain/rounds.ts';
import type { ConnectorLaunchers, GameProvider } from '../providers/game-provider.ts';
import type { PostRounds } from '../store/game-round.ts';

export interface GamesContext {
  deps: ServiceDeps;
  config: GamesConfig;
  tokens: LaunchTokenSigner;
  /** The adapter of games whose provider is external. */
  remote: GameProvider;
  /** The adapters of games whose provider speaks a connector's protocol (docs/connectors.md), by protocol. */
  connectors: ConnectorLaunchers;
  rng: Rng;
  /** Real-money rounds' statements, shared by the rounds running at once (store/game-round.ts). */
  rounds: PostRounds;
}
