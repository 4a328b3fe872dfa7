// The scheduled job of the daily regulator files: every `intervalMs` (by default a few minutes, so
// shortly after each midnight), yesterday's file of every brand this service knows (brands whose
// money or players it has watched) is made, kept and checked if it was not yet, "yesterday" in
// each brand's own time zone (its operator's compliance profile: reports/brand-zone.ts).
import { startLoop, type BackgroundTask, type Logger, type ServiceDeps } from '@bo/service-kit';
import { brandZone, dayBefore, localDate } from './brand-zone.ts';
import { checkAndKeep } from './daily-file-check.ts';
import { ensureFile, keptFile } from './daily-file-maker.ts';

/** Makes the missing files of each known brand's yesterday; how many it made. */
export async function makeYesterdaysFiles(deps: Pick<ServiceDeps, 'sql' | 'call'>, now: Date): Promise<number> {
  const brands = await deps.sql.query<{ brand_id: string }>(
    'select brand_id from compliance.watched_money union select brand_id from compliance.screened_players order by brand_id',
  );
  let made = 0;
  for (const { brand_id: brandId } of brands) {
    const zone = await brandZone(deps, brandId);
    const yesterday = dayBefore(localDate(now, zone.timeZone));
    if ((await keptFile(deps, brandId, yesterday))?.lines_made_at) continue;
    const kept = await ensureFile(deps, brandId, yesterday, async () => zone, now);
    if ('notOver' in kept || !kept.made) continue;
    await checkAndKeep(deps, kept.row, now);
    made++;
  }
  return made;
}

export function startDailyFileJob(deps: Pick<ServiceDeps, 'sql' | 'call'>, o: { intervalMs: number; now: () => Date; log: Logger }): BackgroundTask {
  const loop = startLoop({
    name: 'daily regulator files',
    intervalMs: o.intervalMs,
    maxBackoffMs: 15 * 60_000,
    log: o.log,
    run: async () => void (await makeYesterdaysFiles(deps, o.now())),
  });
  return { name: 'daily regulator files', stop: () => loop.stop(), problem: () => undefined };
}
