// The scheduled job of the daily regulator files: every `intervalMs` (by default a few minutes, so
// shortly after each midnight), yesterday's file of every brand this service knows (brands whose
// money or players it has watched) is made, kept and checked if it was not yet, "yesterday" in
// each brand's own time zone (its operator's compliance profile: reports/brand-zone.ts). Each pass
// sets the job's gauges (METRICS_PORT): the brands whose yesterday is still without its file, and when
// a pass last got through every brand, so an alert sees a file late or a job stuck (docs/runbook.md).
// A brand counts as done only once its file ties to the ledger (issue #60 item 4): a kept file that
// does not tie is checked again on every pass (the ledger's late lines, a correction) and stays pending
// meanwhile, so the SIGAP alerts at 05:00 and 06:00 are not the first to say so.
import { Gauge } from 'prom-client';
import { startLoop, type BackgroundTask, type Logger, type ServiceDeps } from '@bo/service-kit';
import { brandZone, dayBefore, localDate } from './brand-zone.ts';
import { checkAndKeep } from './daily-file-check.ts';
import { knownBrands } from '../store/brands.ts';
import { keptFile } from '../store/daily-files.ts';
import { ensureFile } from './daily-file-maker.ts';

/**
 * Makes the missing files of each known brand's yesterday; how many it made. `pending` hears how many
 * are still missing or do not tie after the pass (a pass cut short counts the rest).
 */
export async function makeYesterdaysFiles(deps: Pick<ServiceDeps, 'sql' | 'call'>, now: Date, pending?: (missing: number) => void): Promise<number> {
  const brands = await knownBrands(deps.sql);
  let made = 0;
  let done = 0;
  try {
    for (const brandId of brands) {
      const zone = await brandZone(deps, brandId);
      const yesterday = dayBefore(localDate(now, zone.timeZone));
      const found = await keptFile(deps.sql, brandId, yesterday);
      if (found?.lines_made_at) {
        // Kept: done once it ties; one that does not (or was never checked) is checked again.
        if (found.ties === true || (await checkAndKeep(deps, found, now)).problems.length === 0) done++;
        continue;
      }
      const kept = await ensureFile(deps, brandId, yesterday, async () => zone, now);
      if ('notOver' in kept || !kept.made) continue;
      const { problems } = await checkAndKeep(deps, kept.row, now);
      made++;
      if (problems.length === 0) done++;
    }
  } finally {
    pending?.(brands.length - done);
  }
  return made;
}

export function startDailyFileJob(
  deps: Pick<ServiceDeps, 'sql' | 'call' | 'metrics'>,
  o: { intervalMs: number; now: () => Date; log: Logger },
): BackgroundTask {
  // At 0 from the start: no brand waits for its file, and no pass got through yet.
  const missing = new Gauge({
    name: 'bo_daily_files_pending',
    help: "Brands whose yesterday's daily regulator file is not made yet or does not tie to the ledger, as of the job's last pass.",
    registers: [deps.metrics],
  });
  const lastPass = new Gauge({
    name: 'bo_daily_files_last_pass_timestamp_seconds',
    help: 'When a pass of the daily regulator files job last went through every brand (Unix time; 0 before the first).',
    registers: [deps.metrics],
  });
  missing.set(0);
  lastPass.set(0);
  const loop = startLoop({
    name: 'daily regulator files',
    intervalMs: o.intervalMs,
    maxBackoffMs: 15 * 60_000,
    log: o.log,
    run: async () => {
      await makeYesterdaysFiles(deps, o.now(), (n) => missing.set(n));
      lastPass.set(Date.now() / 1000);
    },
  });
  return { name: 'daily regulator files', stop: () => loop.stop(), problem: () => undefined };
}
