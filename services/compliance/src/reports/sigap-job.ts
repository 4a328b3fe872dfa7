// The SIGAP job (issue #46 item 1): every SIGAP_INTERVAL_MS, for every brand this service knows,
// yesterday in the brand's own time zone: its SIGAP files are made (from its daily file, made
// first if the daily job has not yet), sent, and SIGAP is asked about those pending. Each pass sets
// the gauges an alert reads (docs/runbook.md, "SigapFilesDueSoon", "SigapFilesNotAccepted"): the
// brands whose yesterday is not accepted yet, those of them at or past 05:00 in the brand's zone with
// the deadline still ahead (issue #60 item 4: a warning an hour before), and those past SIGAP's
// deadline, 06:00 in the brand's zone (São Paulo for br-spa). A brand whose daily file does not tie
// has no SIGAP file and is counted as not accepted. A brand that fails (SIGAP or a service down) is
// counted as not accepted and the pass goes on.
import { Counter, Gauge, type Registry } from 'prom-client';
import { startLoop, type BackgroundTask, type Logger, type ServiceDeps } from '@bo/service-kit';
import { knownBrands } from '../store/brands.ts';
import { dayBounds } from '../domain/daily-file.ts';
import { dayAccepted, deadlineOf, sendDay, ensureSigapDay, yesterdayOf, type SigapDeps } from './sigap-files.ts';

/** How long before the deadline (06:00) the warning starts: 05:00 in the brand's zone. */
const WARNING_HOUR = 5;

/** 05:00 of the day after `date` in `timeZone`: from then on a day not accepted is due soon. */
export function warningOf(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return new Date(dayBounds(next, timeZone).from.getTime() + WARNING_HOUR * 3_600_000);
}

const OUTCOMES = ['accepted', 'rejected', 'pending', 'unavailable'] as const;

/** Counts SIGAP's answers by outcome (at 0 for each from the start). */
export function sigapAnswerCounter(registry: Registry): (outcome: (typeof OUTCOMES)[number]) => void {
  const counter = new Counter({
    name: 'bo_sigap_submissions_total',
    help: "SIGAP's answers to the files sent and the pending ones asked about: accepted, rejected, pending, unavailable (not delivered).",
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const o of OUTCOMES) counter.inc({ outcome: o }, 0);
  return (outcome) => counter.inc({ outcome });
}

/**
 * One pass over the known brands' yesterdays: how many are not accepted, how many of them are due
 * soon (05:00 to 06:00 in the brand's zone) and how many are past the deadline (06:00 there).
 */
export async function sigapPass(deps: SigapDeps, now: Date, log?: Logger): Promise<{ notAccepted: number; dueSoon: number; overdue: number }> {
  const brands = await knownBrands(deps.sql);
  let notAccepted = 0;
  let dueSoon = 0;
  let overdue = 0;
  for (const brandId of brands) {
    let date: string | undefined;
    let timeZone: string | undefined;
    let accepted = false;
    try {
      date = await yesterdayOf(deps, brandId, now);
      const day = await ensureSigapDay(deps, brandId, date, now);
      timeZone = day.timeZone;
      if (!day.accepted && day.files.length > 0) await sendDay(deps, brandId, date, now);
      accepted = await dayAccepted(deps, brandId, date);
    } catch (err) {
      log?.error({ err, brandId, date }, 'SIGAP files of a brand not made or not sent; the next pass tries again');
    }
    if (accepted) continue;
    notAccepted++;
    if (date === undefined || now.getTime() >= deadlineOf(date, timeZone).getTime()) overdue++;
    else if (now.getTime() >= warningOf(date, timeZone ?? 'America/Sao_Paulo').getTime()) dueSoon++;
  }
  return { notAccepted, dueSoon, overdue };
}

export function startSigapJob(deps: SigapDeps & Pick<ServiceDeps, 'metrics'>, o: { intervalMs: number; now: () => Date; log: Logger }): BackgroundTask {
  // At 0 from the start: nothing is late before a pass says so.
  const pending = new Gauge({
    name: 'bo_sigap_files_pending',
    help: "Brands whose yesterday's SIGAP files are not all accepted yet, as of the SIGAP job's last pass.",
    registers: [deps.metrics],
  });
  const dueSoon = new Gauge({
    name: 'bo_sigap_files_due_soon',
    help: "Brands whose yesterday's SIGAP files are not all accepted at or after 05:00 in the brand's zone, the 06:00 deadline still ahead, as of the SIGAP job's last pass.",
    registers: [deps.metrics],
  });
  const overdue = new Gauge({
    name: 'bo_sigap_files_overdue',
    help: "Brands whose yesterday's SIGAP files are not all accepted at or after 06:00 in the brand's zone (São Paulo for br-spa), as of the SIGAP job's last pass.",
    registers: [deps.metrics],
  });
  pending.set(0);
  dueSoon.set(0);
  overdue.set(0);
  const loop = startLoop({
    name: 'SIGAP files',
    intervalMs: o.intervalMs,
    maxBackoffMs: 15 * 60_000,
    log: o.log,
    run: async () => {
      const pass = await sigapPass(deps, o.now(), o.log);
      pending.set(pass.notAccepted);
      dueSoon.set(pass.dueSoon);
      overdue.set(pass.overdue);
    },
  });
  return { name: 'SIGAP files', stop: () => loop.stop(), problem: () => undefined };
}
