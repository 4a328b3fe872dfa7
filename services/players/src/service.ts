// The players service: players, KYC submissions and status, player status, responsible-gaming
// limits, pauses and self-exclusion, each operator's compliance profile, and the br-spa eligibility
// rules with our internal impediments registry. Subjects come from the contract's operation table
// so the gateway and this service cannot disagree on a name.
import {
  afterHitAdminOperations,
  communicationOperations,
  impededClosureMessages,
  complianceAdminOperations,
  complianceProfileMessages,
  responsibleGamingAdminOperations,
  responsibleGamingOperations,
  eligibilityMessages,
  eligibilityOperations,
  internalImpedimentAdminOperations,
  playerAdminOperations,
  playerChangedSubject,
  playerMessages,
  playerOperations,
  sanctionsFreezeMessages,
  termsOperations,
  type PlayerChanged,
} from '@bo/contracts';
import { handle, type Handler, type ServiceDefinition, type ServiceDeps } from '@bo/service-kit';
import { PlayersConfigSchema } from './config.ts';
import { playerEntities } from './store/entities.ts';
import { playerMigrations } from './store/migrations.ts';
import { createPlayer } from './handlers/create-player.ts';
import { findPlayers } from './handlers/find-players.ts';
import { getPlayer } from './handlers/get-player.ts';
import { getKyc } from './handlers/get-kyc.ts';
import { submitKyc } from './handlers/submit-kyc.ts';
import { adminKycDecision, sandboxKycDecision } from './handlers/decide-kyc.ts';
import { adminSetPlayerStatus } from './handlers/admin-set-status.ts';
import { freezeForSanctions, liftSanctionsFreeze } from './handlers/sanctions-freeze.ts';
import { adminSetPlayerLimits } from './handlers/admin-set-limits.ts';
import { playerState } from './handlers/player-state.ts';
import { adminGetPlayer, adminKycQueue, adminSearchPlayers } from './handlers/admin-queries.ts';
import { adminGetCompliance, adminSetCompliance, operatorCompliance } from './handlers/operator-compliance.ts';
import { getResponsibleGaming, pausePlayer, removeLimit, selfExclude, setLimit } from './handlers/responsible-gaming.ts';
import { adminGetResponsibleGaming, adminLiftSelfExclusion } from './handlers/admin-responsible-gaming.ts';
import { startSelfExclusionTerms } from './handlers/self-exclusion-terms.ts';
import { activityCheck, reportLogin, sandboxAddImpediment, sandboxRemoveImpediment } from './handlers/eligibility.ts';
import { sandboxCheckImpediments, sandboxNextDay } from './handlers/sandbox-days.ts';
import { setupEligibility, type EligibilityOptions } from './impediments/setup.ts';
import type { Eligibility } from './impediments/eligibility.ts';
import { eligibilityLoops } from './impediments/loops.ts';
import { regulatorFileHandlers } from './handlers/regulator-file.ts';
import { adminAddImpediment, adminListImpediments, adminRemoveImpediment } from './handlers/admin-impediments.ts';
import { acceptTerms, listTermsAcceptances, listTermsVersions, publishTermsVersion } from './handlers/terms.ts';
import { adminListCommunications, listPlayerCommunications, recordPlayerCommunication } from './handlers/communications.ts';
import { adminImpededClosures, regulatorImpededClosures } from './handlers/impeded-closures.ts';

export const PLAYERS_SCHEMA = 'players';

/**
 * After a handler that may change what players.state answers succeeds, broadcasts the player's
 * id so the wallet's and payments' caches drop it (contracts' players-client.ts). Published
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
          const reply = await handler(req, env);
          deps.outbox.poke(); // a change may have written events
          return reply;
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

/** Handlers that store their answer in the transaction of their change (`runOnce`), not through the kit's claim (idempotency/kit-kept.ts). */
const ANSWERED_BY_EFFECT = { answers: 'effect' } as const;

/** The service with its eligibility collaborators chosen (tests pass a clock they move, and see the simulator). */
export function playersServiceWith(opts: EligibilityOptions = {}): ServiceDefinition<typeof PlayersConfigSchema, Eligibility> {
  return {
    name: 'players',
    schema: PLAYERS_SCHEMA,
    config: PlayersConfigSchema,
    entities: playerEntities,
    migrations: playerMigrations,
    // A decision's audit row goes to the internal stream, for the operators service's audit log.
    internalEvents: true,
    setup: (deps) => setupEligibility(deps, opts),
    handlers: (deps, elig) => ({
      ...handle(playerOperations.createPlayer, createPlayer(deps, elig), ANSWERED_BY_EFFECT),
      ...handle(eligibilityMessages.activity, activityCheck(deps, elig)),
      ...handle(eligibilityOperations.reportLogin, reportLogin(deps, elig)),
      ...handle(eligibilityOperations.sandboxAddImpediment, sandboxAddImpediment(elig)),
      ...handle(eligibilityOperations.sandboxRemoveImpediment, sandboxRemoveImpediment(elig)),
      ...handle(eligibilityOperations.sandboxCheckImpediments, sandboxCheckImpediments(deps, elig)),
      ...handle(eligibilityOperations.sandboxNextDay, sandboxNextDay(deps, elig)),
      ...handle(playerOperations.findPlayers, findPlayers(deps)),
      ...handle(playerOperations.getPlayer, getPlayer(deps)),
      ...handle(playerOperations.getKyc, getKyc(deps)),
      ...handle(playerMessages.state, playerState(deps, elig)),
      ...handle(playerAdminOperations.adminKycQueue, adminKycQueue(deps)),
      ...handle(playerAdminOperations.adminSearchPlayers, adminSearchPlayers(deps)),
      ...handle(playerAdminOperations.adminGetPlayer, adminGetPlayer(deps)),
      ...handle(complianceProfileMessages.get, operatorCompliance(deps)),
      ...handle(complianceAdminOperations.adminGetCompliance, adminGetCompliance(deps)),
      ...handle(complianceAdminOperations.adminSetCompliance, adminSetCompliance(deps)),
      ...handle(responsibleGamingOperations.getResponsibleGaming, getResponsibleGaming(deps)),
      ...handle(responsibleGamingAdminOperations.adminGetResponsibleGaming, adminGetResponsibleGaming(deps)),
      ...regulatorFileHandlers(deps.sql),
      // Our internal impediments registry: a put restricts and announces the players it hits itself.
      ...handle(internalImpedimentAdminOperations.adminListImpediments, adminListImpediments(deps)),
      ...handle(internalImpedimentAdminOperations.adminAddImpediment, adminAddImpediment(deps, elig)),
      ...handle(internalImpedimentAdminOperations.adminRemoveImpediment, adminRemoveImpediment(deps)),
      // The compliance service's sanctions freeze and its lift: each announces the player itself.
      ...handle(sanctionsFreezeMessages.freeze, freezeForSanctions(deps)),
      ...handle(sanctionsFreezeMessages.lift, liftSanctionsFreeze(deps)),
      // Terms versions: a publication announces every player itself (after its commit).
      ...handle(termsOperations.publishTermsVersion, publishTermsVersion(deps), ANSWERED_BY_EFFECT),
      ...handle(termsOperations.listTermsVersions, listTermsVersions(deps)),
      ...handle(termsOperations.listTermsAcceptances, listTermsAcceptances(deps)),
      // After an impediment hit (issue #46 item 4): the communications log and the closures report.
      ...handle(communicationOperations.recordCommunication, recordPlayerCommunication(deps), ANSWERED_BY_EFFECT),
      ...handle(communicationOperations.listCommunications, listPlayerCommunications(deps)),
      ...handle(afterHitAdminOperations.adminListCommunications, adminListCommunications(deps)),
      ...handle(afterHitAdminOperations.adminImpededClosures, adminImpededClosures(deps)),
      ...handle(impededClosureMessages.closures, regulatorImpededClosures(deps)),
      ...announcesChange(deps, {
        ...handle(responsibleGamingOperations.setLimit, setLimit(deps), ANSWERED_BY_EFFECT),
        ...handle(responsibleGamingOperations.removeLimit, removeLimit(deps), ANSWERED_BY_EFFECT),
        ...handle(responsibleGamingOperations.pausePlayer, pausePlayer(deps), ANSWERED_BY_EFFECT),
        ...handle(responsibleGamingOperations.selfExclude, selfExclude(deps), ANSWERED_BY_EFFECT),
        ...handle(responsibleGamingAdminOperations.adminLiftSelfExclusion, adminLiftSelfExclusion(deps)),
        ...handle(playerOperations.submitKyc, submitKyc(deps), ANSWERED_BY_EFFECT),
        ...handle(playerOperations.sandboxKycDecision, sandboxKycDecision(deps)),
        ...handle(playerAdminOperations.adminSetPlayerStatus, adminSetPlayerStatus(deps)),
        ...handle(playerAdminOperations.adminSetPlayerLimits, adminSetPlayerLimits(deps)),
        ...handle(playerAdminOperations.adminKycDecision, adminKycDecision(deps)),
        ...handle(termsOperations.acceptTerms, acceptTerms(deps), ANSWERED_BY_EFFECT),
      }),
    }),
    background: (deps, elig) => [
      ...eligibilityLoops(deps, elig),
      startSelfExclusionTerms(deps, deps.config.RG_TERMS_INTERVAL_MS),
      async () => elig.simulator.stop(),
    ],
  };
}

export const playersService = playersServiceWith();
