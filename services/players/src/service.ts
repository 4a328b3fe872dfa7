// The players service: players, KYC submissions and status, player status, responsible-gaming
// limits, and each operator's compliance profile. Subjects come from the contract's operation table so the gateway and this service
// cannot disagree on a name.
import {
  complianceAdminOperations,
  complianceProfileMessages,
  playerAdminOperations,
  playerChangedSubject,
  playerMessages,
  playerOperations,
  type PlayerChanged,
} from '@bo/contracts';
import { handle, type Handler, type ServiceDefinition, type ServiceDeps } from '@bo/service-kit';
import { PlayersConfigSchema } from './config.ts';
import { playerEntities } from './persistence/entities.ts';
import { playerMigrations } from './persistence/migrations.ts';
import { createPlayer } from './handlers/create-player.ts';
import { findPlayers } from './handlers/find-players.ts';
import { getKyc } from './handlers/get-kyc.ts';
import { submitKyc } from './handlers/submit-kyc.ts';
import { adminKycDecision, sandboxKycDecision } from './handlers/decide-kyc.ts';
import { adminSetPlayerStatus } from './handlers/admin-set-status.ts';
import { adminSetPlayerLimits } from './handlers/admin-set-limits.ts';
import { playerState } from './handlers/player-state.ts';
import { adminGetPlayer, adminKycQueue, adminSearchPlayers } from './handlers/admin-queries.ts';
import { adminGetCompliance, adminSetCompliance, operatorCompliance } from './handlers/operator-compliance.ts';

export const PLAYERS_SCHEMA = 'players';

/**
 * After a handler that may change what players.state answers succeeds, broadcasts the player's
 * id so the wallet's and payments' caches drop it (service-kit player-state-cache.ts). Published
 * before the reply on the same connection, so whoever sees the reply and then asks the wallet is
 * answered after the wallet has dropped the entry.
 */
function announcesChange(deps: ServiceDeps, handlers: Record<string, Handler>): Record<string, Handler> {
  return Object.fromEntries(
    Object.entries(handlers).map(([subject, handler]) => [
      subject,
      async (req: Parameters<Handler>[0], env: Parameters<Handler>[1]) => {
        try {
          // `env` carries the stored answers: the wrapped handler keeps its key's answer as if unwrapped.
          return await handler(req, env);
        } finally {
          // Also after a failure: it may have come after the commit, and a needless drop costs one call.
          const params = req.params as { id?: string; playerId?: string } | undefined;
          const playerId = params?.id ?? params?.playerId;
          if (playerId) deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId } satisfies PlayerChanged));
        }
      },
    ]),
  );
}

export const playersService: ServiceDefinition<typeof PlayersConfigSchema> = {
  name: 'players',
  schema: PLAYERS_SCHEMA,
  config: PlayersConfigSchema,
  entities: playerEntities,
  migrations: playerMigrations,
  handlers: (deps) => ({
    ...handle(playerOperations.createPlayer, createPlayer(deps), { answers: 'effect' }),
    ...handle(playerOperations.findPlayers, findPlayers(deps)),
    ...handle(playerOperations.getKyc, getKyc(deps)),
    ...handle(playerMessages.state, playerState(deps)),
    ...handle(playerAdminOperations.adminKycQueue, adminKycQueue(deps)),
    ...handle(playerAdminOperations.adminSearchPlayers, adminSearchPlayers(deps)),
    ...handle(playerAdminOperations.adminGetPlayer, adminGetPlayer(deps)),
    ...handle(complianceProfileMessages.get, operatorCompliance(deps)),
    ...handle(complianceAdminOperations.adminGetCompliance, adminGetCompliance(deps)),
    ...handle(complianceAdminOperations.adminSetCompliance, adminSetCompliance(deps)),
    ...announcesChange(deps, {
      ...handle(playerOperations.submitKyc, submitKyc(deps), { answers: 'effect' }),
      ...handle(playerOperations.sandboxKycDecision, sandboxKycDecision(deps)),
      ...handle(playerAdminOperations.adminSetPlayerStatus, adminSetPlayerStatus(deps)),
      ...handle(playerAdminOperations.adminSetPlayerLimits, adminSetPlayerLimits(deps)),
      ...handle(playerAdminOperations.adminKycDecision, adminKycDecision(deps)),
    }),
  }),
};
