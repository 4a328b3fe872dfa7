// The SIGAP job (issue #46 item 1): every SIGAP_INTERVAL_MS, for every brand this service knows,
// yesterday in the brand's own time zone: its SIGAP files are made (from its daily file, made
// first if the daily job has not yet), sent, and SIGAP is asked about those pending. Each pass sets
// the gauges an alert reads (docs/runbook.md, "SigapFilesNotAccepted"): the brands whose
// yesterday is not accepted yet, and those of them past SIGAP's deadline, 06:00 São Paulo time.
// A brand that fails (SIGAP or a service down) is counted as not accepted and the pass goes on.
import { Counter, Gauge, type Registry } from 'prom-client';
import { startLoop, type BackgroundTask, type Logger, type ServiceDeps } from '@bo/service-kit';
import { knownBrands } from '../store/brands.ts';
import { dayAccepted, deadlineOf, sendDay, ensureSigapDay, yesterdayOf, type SigapDeps } from './sigap-files.ts';

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

/** One pass over the known brands' yesterdays: how many are not accepted, and how many of them are past the deadline. */
export async function sigapPass(deps: SigapDeps, now: Date, log?: Logger): Promise<{ notAccepted: number; overdue: number }> {
  const brands = await knownBrands(deps.sql);
  let notAccepted = 0;
  let overdue = 0;
  for (const brandId of brands) {
    let date: string | undefined;
    let accepted = false;
    try {
      date = await yesterdayOf(deps, brandId, now);
      const day = await ensureSigapDay(deps, brandId, date, now);
      if (!day.accepted && day.files.length > 0) await sendDay(deps, brandId, date, now);
      accepted = await dayAccepted(deps, brandId, date);
    } catch (err) {
      log?.error({ err, brandId, date }, 'SIGAP files of a brand not made or not sent; the next pass tries again');
    }
    if (accepted) continue;
    notAccepted++;
    if (date === undefined || now.getTime() >= deadlineOf(date).getTime()) overdue++;
  }
  return { notAccepted, overdue };
}

export function startSigapJob(deps: SigapDeps & Pick<ServiceDeps, 'metrics'>, o: { intervalMs: number; now: () => Date; log: Logger }): BackgroundTask {
  // At 0 from the start: nothing is late before a pass says so.
  const pending = new Gauge({
    name: 'bo_sigap_files_pending',
    help: "Brands whose yesterday's SIGAP files are not all accepted yet, as of the SIGAP job's last pass.",
    registers: [deps.metrics],
  });
  const overdue = new Gauge({
    name: 'bo_sigap_files_overdue',
    help: "Brands whose yesterday's SIGAP files are not all accepted at or after 06:00 São Paulo time, as of the SIGAP job's last pass.",
    registers: [deps.metrics],
  });
  pending.set(0);
  overdue.set(0);
  const loop = startLoop({
    name: 'SIGAP files',
    intervalMs: o.intervalMs,
    maxBackoffMs: 15 * 60_000,
    log: o.log,
    run: async () => {
      const pass = await sigapPass(deps, o.now(), o.log);
      pending.set(pass.notAccepted);
      overdue.set(pass.overdue);
    },
  });
  return { name: 'SIGAP files', stop: () => loop.stop(), problem: () => undefined };
}
