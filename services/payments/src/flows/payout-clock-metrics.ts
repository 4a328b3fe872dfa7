// The prize clock on payments' metrics (issue #46 item 3; docs/eligibility.md, "The prize clock"):
// br-spa withdrawals waiting for their payout (under review, approved, being paid), by where they
// stand against their deadline when scraped: `ahead`, `near` (less than NEAR_DEADLINE_MINUTES left)
// or `overdue`. Every state from the start (0), so an absent series means the process is down. The
// time is the rule clock's (tests move it); the deadline is the row's.
import { Gauge, type Registry } from 'prom-client';
import { ruleClock, type SqlRunner } from '@bo/service-kit';
import { CLOCK_STATES, NEAR_DEADLINE_MINUTES } from '../domain/prize-clock.ts';
import { payoutClockCounts } from '../store/withdrawal-store.ts';

export function registerPayoutClockMetrics(registry: Registry, sql: SqlRunner): void {
  if (registry.getSingleMetric('bo_withdrawals_payout_clock')) return;
  new Gauge({
    name: 'bo_withdrawals_payout_clock',
    help: `br-spa withdrawals waiting for their payout, by state against the 120-minute deadline: ahead, near (under ${NEAR_DEADLINE_MINUTES} minutes left), overdue; read when scraped.`,
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await payoutClockCounts(sql, ruleClock.now(), NEAR_DEADLINE_MINUTES);
      for (const state of CLOCK_STATES) this.set({ state }, counts[state]);
    },
  });
}
