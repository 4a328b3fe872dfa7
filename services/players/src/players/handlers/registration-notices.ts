// The announcing loop (issue #60 item 1): every REGISTRATION_NOTICE_INTERVAL_MS each replica finds the
// br-spa players whose registration lacks something not yet announced (players registered before the
// profile was switched on or before this rule, a limit removed) or who completed it another way (a
// limit set), and announces each on its locked row, one transaction per player (handlers/registration.ts):
// two replicas announce a player once (the second finds it announced). PATCH announces at once itself.
import { ruleClock, startLoop, type BackgroundTask, type ServiceDeps } from '@bo/service-kit';
import { lockPlayer } from '../../store/index.ts';
import type { PlayersConfig } from '../../config.ts';
import { playersToAnnounce } from '../store/registration-notices.ts';
import { announceRegistration, registrationMissingOf } from './registration.ts';

const BATCH = 200;

/** One pass over every br-spa player due; how many announcements it wrote. */
export async function announceRegistrations(deps: ServiceDeps): Promise<number> {
  let after = '';
  let written = 0;
  for (;;) {
    const now = ruleClock.now();
    const ids = await playersToAnnounce(deps.sql, now, after, BATCH);
    for (const id of ids) {
      const wrote = await deps.orm.em.fork().transactional(async (tx) => {
        const player = await lockPlayer(tx, { id });
        const missing = await registrationMissingOf(tx, player, now);
        return missing ? announceRegistration(tx, deps, player, missing) : false;
      });
      if (wrote) written++;
    }
    if (written > 0) deps.outbox.poke();
    if (ids.length < BATCH) return written;
    after = ids[ids.length - 1]!;
  }
}

export function startRegistrationNotices(deps: ServiceDeps<PlayersConfig>): BackgroundTask {
  const name = 'registration notices';
  const loop = startLoop({
    name,
    intervalMs: deps.config.REGISTRATION_NOTICE_INTERVAL_MS,
    log: deps.log,
    run: async () => {
      await announceRegistrations(deps);
      return false;
    },
    maxBackoffMs: 10 * deps.config.REGISTRATION_NOTICE_INTERVAL_MS,
  });
  return { name, stop: loop.stop, problem: loop.problem };
}
