// The scheduled job of the daily regulator files: every `intervalMs` (by default a few minutes, so
// shortly after each midnight), yesterday's file of every brand this service knows (brands whose
// money or players it has watched) is made and kept if it was not yet, in the default time zone.
import { COMPLIANCE_DEFAULTS } from '@bo/contracts';
import { startLoop, type BackgroundTask, type Logger, type ServiceDeps } from '@bo/service-kit';
import { keptDailyFile } from '../handlers/admin-daily-report.ts';

/** Makes the missing files of the day before `now` (in the default zone); how many it made. */
export async function makeYesterdaysFiles(deps: Pick<ServiceDeps, 'sql' | 'call'>, now: Date): Promise<number> {
  const tz = COMPLIANCE_DEFAULTS.timeZone;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(now);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const yesterday = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  const brands = await deps.sql.query<{ brand_id: string }>(
    `select brand_id from compliance.watched_money union select brand_id from compliance.screened_players
     except select brand_id from compliance.daily_reports where date = ?`,
    [yesterday],
  );
  for (const b of brands) await keptDailyFile(deps, b.brand_id, yesterday, tz, now);
  return brands.length;
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
