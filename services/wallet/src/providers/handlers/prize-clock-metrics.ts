// The prize clock on the wallet's metrics (issue #46 item 3): each provider win credited now (not a
// replay) that owes a prize, by whether it met its deadline (`on_time`, `late`), or `untimed` when a
// sports bet's win did not say when its event ended; and, for the timed ones, the seconds from the
// event's end to the credit. Every label from the start (0), so an absent series means a process down.
import { Counter, Histogram, type Registry } from 'prom-client';
import { PRIZE_CLOCKS, type PrizeClock } from '../domain/prize-clock.ts';

export interface PrizeClockRecorder {
  /** A win credited now: `eventEndedAt` undefined when the provider did not say. */
  record(clock: PrizeClock, delaySeconds?: number): void;
}

export function prizeClockRecorder(registry: Registry): PrizeClockRecorder {
  const credits =
    (registry.getSingleMetric('bo_prize_credits_total') as Counter<'clock'> | undefined) ??
    new Counter({
      name: 'bo_prize_credits_total',
      help: "Provider wins credited that owe a prize, by the prize clock: on_time, late (after the event's end + 120 minutes), untimed (a sports bet's win without eventEndedAt).",
      labelNames: ['clock'] as const,
      registers: [registry],
    });
  for (const clock of PRIZE_CLOCKS) credits.inc({ clock }, 0);
  const delay =
    (registry.getSingleMetric('bo_prize_credit_delay_seconds') as Histogram | undefined) ??
    new Histogram({
      name: 'bo_prize_credit_delay_seconds',
      help: "Seconds from the event's end (the provider's eventEndedAt) to the prize's credit; the deadline is 7200.",
      buckets: [60, 300, 900, 1800, 3600, 5400, 7200, 10800, 21600, 86400],
      registers: [registry],
    });
  return {
    record(clock, delaySeconds) {
      credits.inc({ clock });
      if (delaySeconds !== undefined) delay.observe(Math.max(0, delaySeconds));
    },
  };
}
