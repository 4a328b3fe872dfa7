// The impediments module (docs/eligibility.md): the br-spa eligibility rules on the SPA impediment
// registry and our internal impediments list (a login's and an activity's check, the sweep, the
// closing after a hit: background loops), the sandbox's control of the simulated registry and of a
// player's days, our team's internal list, and the closures after a hit (our team's report and the
// compliance service's SIGAP read). Made with the eligibility collaborators (registry/setup.ts).
import { afterHitAdminOperations, eligibilityMessages, eligibilityOperations, impededClosureMessages, internalImpedimentAdminOperations } from '@bo/contracts';
import { handle } from '@bo/service-kit';
import type { PlayersModule } from '../module.ts';
import type { Eligibility } from './flows/eligibility.ts';
import { eligibilityLoops } from './flows/loops.ts';
import { adminAddImpediment, adminListImpediments, adminRemoveImpediment } from './handlers/admin-impediments.ts';
import { activityCheck, reportLogin, sandboxAddImpediment, sandboxRemoveImpediment } from './handlers/eligibility.ts';
import { adminImpededClosures, regulatorImpededClosures } from './handlers/impeded-closures.ts';
import { sandboxCheckImpediments, sandboxNextDay } from './handlers/sandbox-days.ts';

export function impedimentsModule(elig: Eligibility): PlayersModule {
  return {
    entities: [],
    migrations: [],
    handlers: (deps) => ({
      ...handle(eligibilityMessages.activity, activityCheck(deps, elig)),
      ...handle(eligibilityOperations.reportLogin, reportLogin(deps, elig)),
      ...handle(eligibilityOperations.sandboxAddImpediment, sandboxAddImpediment(elig)),
      ...handle(eligibilityOperations.sandboxRemoveImpediment, sandboxRemoveImpediment(elig)),
      ...handle(eligibilityOperations.sandboxCheckImpediments, sandboxCheckImpediments(deps, elig)),
      ...handle(eligibilityOperations.sandboxNextDay, sandboxNextDay(deps, elig)),
      // Our internal impediments registry: a put restricts and announces the players it hits itself.
      ...handle(internalImpedimentAdminOperations.adminListImpediments, adminListImpediments(deps)),
      ...handle(internalImpedimentAdminOperations.adminAddImpediment, adminAddImpediment(deps, elig)),
      ...handle(internalImpedimentAdminOperations.adminRemoveImpediment, adminRemoveImpediment(deps)),
      // After an impediment hit (issue #46 item 4): the closures report.
      ...handle(afterHitAdminOperations.adminImpededClosures, adminImpededClosures(deps)),
      ...handle(impededClosureMessages.closures, regulatorImpededClosures(deps)),
    }),
    background: (deps) => [...eligibilityLoops(deps, elig), async () => elig.simulator.stop()],
  };
}
