// The eligibility rules' background work: the sweep and the closing, each a kit loop at
// IMPEDIMENT_LOOP_MS (a pass that says more is waiting runs again at once); and the one-day notice's gauge.
import { startLoop, type BackgroundTask, type ServiceDeps } from '@bo/service-kit';
import type { Eligibility } from './eligibility.ts';
import { sweepBatch, sweepMetrics } from './sweep.ts';
import { closeDuePlayers } from './closing.ts';
import { registerNoticeMetrics } from './notice-metrics.ts';

export function eligibilityLoops(deps: ServiceDeps, elig: Eligibility): BackgroundTask[] {
  sweepMetrics(deps);
  registerNoticeMetrics(deps, elig.clock);
  const loop = (name: string, run: () => Promise<boolean>): BackgroundTask => {
    const l = startLoop({ name, intervalMs: elig.config.IMPEDIMENT_LOOP_MS, log: deps.log, run, maxBackoffMs: 10 * elig.config.IMPEDIMENT_LOOP_MS });
    return { name, stop: l.stop, problem: l.problem };
  };
  return [loop('impediment sweep', () => sweepBatch(deps, elig)), loop('impediment closing', () => closeDuePlayers(deps, elig))];
}
