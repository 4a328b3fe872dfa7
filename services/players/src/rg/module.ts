// The responsible-gaming module (docs/responsible-gaming.md): a player's limits, pauses and
// self-exclusion through the operator's API, our team's view, its lift of an indefinite
// self-exclusion, its pause of a player, stricter limit and more frequent reality check (also from a harm case), v1.1's admin limits, and the end of fixed self-exclusion terms (a loop). Every
// change is broadcast to the enforcing services' caches by the root (`announced`).
import { playerAdminOperations, responsibleGamingAdminOperations, responsibleGamingOperations, teamMeasureMessages } from '@bo/contracts';
import { handle } from '@bo/service-kit';
import { ANSWERED_BY_EFFECT, type PlayersModule } from '../module.ts';
import {
  adminGetResponsibleGaming,
  adminLiftSelfExclusion,
  adminPausePlayer,
  adminSetRealityCheck,
  adminSetStricterLimit,
} from './handlers/admin-responsible-gaming.ts';
import { adminSetPlayerLimits } from './handlers/admin-set-limits.ts';
import { getResponsibleGaming, pausePlayer, removeLimit, selfExclude, setLimit } from './handlers/responsible-gaming.ts';
import { startSelfExclusionTerms } from './handlers/self-exclusion-terms.ts';
import { takeTeamMeasure } from './handlers/team-measure.ts';

export const rgModule: PlayersModule = {
  entities: [],
  migrations: [],
  handlers: (deps) => ({
    ...handle(responsibleGamingOperations.getResponsibleGaming, getResponsibleGaming(deps)),
    ...handle(responsibleGamingAdminOperations.adminGetResponsibleGaming, adminGetResponsibleGaming(deps)),
  }),
  announced: (deps) => ({
    ...handle(responsibleGamingOperations.setLimit, setLimit(deps), ANSWERED_BY_EFFECT),
    ...handle(responsibleGamingOperations.removeLimit, removeLimit(deps), ANSWERED_BY_EFFECT),
    ...handle(responsibleGamingOperations.pausePlayer, pausePlayer(deps), ANSWERED_BY_EFFECT),
    ...handle(responsibleGamingOperations.selfExclude, selfExclude(deps), ANSWERED_BY_EFFECT),
    ...handle(responsibleGamingAdminOperations.adminLiftSelfExclusion, adminLiftSelfExclusion(deps)),
    ...handle(responsibleGamingAdminOperations.adminPausePlayer, adminPausePlayer(deps)),
    ...handle(responsibleGamingAdminOperations.adminSetStricterLimit, adminSetStricterLimit(deps)),
    ...handle(responsibleGamingAdminOperations.adminSetRealityCheck, adminSetRealityCheck(deps)),
    // The same measures taken from a harm case by the compliance service (issue #68).
    ...handle(teamMeasureMessages.take, takeTeamMeasure(deps)),
    ...handle(playerAdminOperations.adminSetPlayerLimits, adminSetPlayerLimits(deps)),
  }),
  background: (deps) => [startSelfExclusionTerms(deps, deps.config.RG_TERMS_INTERVAL_MS)],
};
