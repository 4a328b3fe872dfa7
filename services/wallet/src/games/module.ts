// The games module of the wallet service: catalogue, game sessions and the rounds played on the
// launch page. It lives in the wallet because real-money play moves money and must share the
// ledger's transactions (docs/games.md). Configuration is read when the service starts.
import { endPlayerSessionsMessages, gameOperations, gamePlayMessages, gameSessionAdminOperations } from '@bo/contracts';
import { handle, type ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { createLaunchTokenSigner } from './domain/launch-token.ts';
import { cryptoRng, type Rng } from './domain/rounds.ts';
import { betsyProvider, evolutionProvider, hub88Provider, remoteProvider, type GameProvider } from './providers/game-provider.ts';
import { gameEntities } from './store/entities.ts';
import { gameMigrations } from './store/migrations.ts';
import type { GamesContext } from './handlers/context.ts';
import { listGames } from './handlers/list-games.ts';
import { createGameSession } from './handlers/create-session.ts';
import { playSession } from './handlers/play-session.ts';
import { playOwner } from './handlers/play-owner.ts';
import { playRound, playRoundMessage } from './handlers/play-round.ts';
import { adminEndGameSessions, endAllGameSessions, endGameSession, endPlayerSessions } from './handlers/end-sessions.ts';
import { playHeartbeat } from './handlers/play-heartbeat.ts';

import { ROUND_GROUP, roundStatements, type RoundPosting } from './store/game-round.ts';

export interface GamesModuleOptions {
  /** Replaces the external provider adapter. */
  remote?: GameProvider;
  rng?: Rng;
}

export function createGamesModule(opts: GamesModuleOptions = {}): ServiceModule<WalletConfig> {
  return {
    entities: gameEntities,
    migrations: gameMigrations,
    handlers: (deps) => {
      const config = { ...deps.config, PUBLIC_BASE_URL: deps.config.PUBLIC_BASE_URL.replace(/\/+$/, '') };
      const ctx: GamesContext = {
        deps,
        config,
        tokens: createLaunchTokenSigner(config.GAME_LAUNCH_SECRET),
        remote: opts.remote ?? remoteProvider({ defaultBaseUrl: config.GAME_PROVIDER_URL, timeoutMs: config.GAME_PROVIDER_TIMEOUT_MS }),
        connectors: {
          hub88: hub88Provider(deps.config.SECRETS_MASTER_KEY),
          evolution: evolutionProvider(deps.config.SECRETS_MASTER_KEY),
          betsy: betsyProvider(),
        },
        rng: opts.rng ?? cryptoRng,
        // Concurrent rounds of different players share one statement (docs/money.md, "Group commit").
        rounds: deps.statementGroup<RoundPosting, { balance_after: string }>(ROUND_GROUP, roundStatements),
      };
      return {
        ...handle(gameOperations.listGames, listGames(ctx)),
        ...handle(gameOperations.createGameSession, createGameSession(ctx)),
        ...handle(gamePlayMessages.session, playSession(ctx)),
        ...handle(gamePlayMessages.owner, playOwner(ctx)),
        ...handle(playRoundMessage, playRound(ctx)),
        ...handle(gamePlayMessages.heartbeat, playHeartbeat(ctx)),
        ...handle(endPlayerSessionsMessages.end, endPlayerSessions(ctx)),
        ...handle(gameOperations.endGameSession, endGameSession(ctx)),
        ...handle(gameOperations.endPlayerGameSessions, endAllGameSessions(ctx)),
        ...handle(gameSessionAdminOperations.adminEndGameSessions, adminEndGameSessions(ctx)),
      };
    },
    groupCommits: [ROUND_GROUP],
  };
}
