// The players service: players, KYC submissions and status, player status, responsible-gaming
// limits. Subjects come from the contract's operation table so the gateway and this service
// cannot disagree on a name.
import { PLAYER_STATE_SUBJECT, playerAdminOperations, playerOperations } from '@bo/contracts';
import type { ServiceDefinition } from '@bo/service-kit';
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

export const PLAYERS_SCHEMA = 'players';

export const playersService: ServiceDefinition = {
  name: 'players',
  schema: PLAYERS_SCHEMA,
  entities: playerEntities,
  migrations: playerMigrations,
  handlers: (deps) => ({
    [playerOperations.createPlayer.subject]: createPlayer(deps),
    [playerOperations.findPlayers.subject]: findPlayers(deps),
    [playerOperations.getKyc.subject]: getKyc(deps),
    [playerOperations.submitKyc.subject]: submitKyc(deps),
    [playerOperations.sandboxKycDecision.subject]: sandboxKycDecision(deps),
    [playerAdminOperations.adminSetPlayerStatus.subject]: adminSetPlayerStatus(deps),
    [playerAdminOperations.adminSetPlayerLimits.subject]: adminSetPlayerLimits(deps),
    [playerAdminOperations.adminKycDecision.subject]: adminKycDecision(deps),
    [PLAYER_STATE_SUBJECT]: playerState(deps),
  }),
};
