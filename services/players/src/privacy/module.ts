// The privacy module (issue #69; docs/privacy.md): players' data requests under the LGPD (filed by the
// operator, answered across every service, 15 days at most), what this schema holds about a player
// (the export and the anonymisation every service serves), the retention sweep, and their metrics.
import { ENVIRONMENTS, dataRequestAdminOperations, dataRequestOperations } from '@bo/contracts';
import { handle, personalDataHandlers, ruleClock, scrapedGauge, startLoop, type BackgroundTask, type ServiceDeps } from '@bo/service-kit';
import type { PlayersConfig } from '../config.ts';
import { ANSWERED_BY_EFFECT, type PlayersModule } from '../module.ts';
import { playersPersonalData } from './store/catalogue.ts';
import { answerWithFile } from './flows/answer.ts';
import { anonymisedCounter, retentionSweepPass } from './flows/retention-sweep.ts';
import {
  adminGetDataRequestFile,
  adminListDataRequests,
  fileDataRequest,
  getDataRequest,
  getDataRequestFile,
  listDataRequests,
} from './handlers/data-requests.ts';
import { dataRequestCounts, openDataRequests } from './store/data-requests.ts';

const BATCH = 20;

/** Answers the requests a service did not answer before, then sweeps what passed its retention. */
function startPrivacyLoop(deps: ServiceDeps<PlayersConfig>): BackgroundTask {
  anonymisedCounter(deps);
  scrapedGauge(
    deps.metrics,
    'bo_data_requests',
    "Players' data requests waiting for their answer (open) and those past the LGPD's 15 days (overdue), by environment, read when scraped.",
    ['environment', 'state'],
    async (set) => {
      const counts = await dataRequestCounts(deps.sql, ruleClock.now());
      for (const environment of ENVIRONMENTS) {
        const c = counts.get(environment) ?? { open: 0, overdue: 0 };
        set({ environment, state: 'open' }, c.open);
        set({ environment, state: 'overdue' }, c.overdue);
      }
    },
  );
  const loop = startLoop({
    name: 'privacy',
    intervalMs: deps.config.PRIVACY_LOOP_MS,
    log: deps.log,
    maxBackoffMs: deps.config.PRIVACY_LOOP_MS * 8,
    run: async () => {
      const open = (await openDataRequests(deps.sql, BATCH)).filter((r) => r.type === 'access' || r.type === 'portability');
      // A request a service cannot answer yet waits for the next pass; it never holds up the others or the sweep.
      for (const r of open)
        await answerWithFile(deps, r).catch((err) => deps.log.warn({ err, dataRequest: r.id }, 'data request not answered yet: the privacy loop tries again'));
      const swept = await retentionSweepPass(deps, deps.config.RETENTION_SWEEP_BATCH);
      return swept.more;
    },
  });
  return { name: 'privacy', stop: () => loop.stop(), problem: () => loop.problem() };
}

export const privacyModule: PlayersModule = {
  entities: [],
  migrations: [],
  handlers: (deps) => ({
    ...personalDataHandlers(deps, playersPersonalData),
    ...handle(dataRequestOperations.fileDataRequest, fileDataRequest(deps), ANSWERED_BY_EFFECT),
    ...handle(dataRequestOperations.listDataRequests, listDataRequests(deps)),
    ...handle(dataRequestOperations.getDataRequest, getDataRequest(deps)),
    ...handle(dataRequestOperations.getDataRequestFile, getDataRequestFile(deps)),
    ...handle(dataRequestAdminOperations.adminListDataRequests, adminListDataRequests(deps)),
    ...handle(dataRequestAdminOperations.adminGetDataRequestFile, adminGetDataRequestFile(deps)),
  }),
  background: (deps) => [startPrivacyLoop(deps)],
};
