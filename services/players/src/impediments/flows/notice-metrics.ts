// bo_impediment_notices_overdue (issue #60 item 6): the players blocked after a hit more than a day ago
// whose operator has reported no notice to the bettor (`impediment_notice` in the communications log),
// by environment, read when scraped. Alert ImpedimentNoticeOverdue (deploy/k8s/monitoring, docs/runbook.md).
import { scrapedGauge, type ServiceDeps } from '@bo/service-kit';
import { noticesOverdue } from '../store/notices.ts';
import type { Clock } from './eligibility.ts';

/** The notice is due within this long of the block (IN SPA/MF 31/2025 as reported: one day). */
export const NOTICE_DUE_MS = 86_400_000;

export function registerNoticeMetrics(deps: Pick<ServiceDeps, 'metrics' | 'sql'>, clock: Clock): void {
  scrapedGauge(
    deps.metrics,
    'bo_impediment_notices_overdue',
    'Players blocked after an impediment hit more than a day ago whose operator has reported no notice to the bettor (impediment_notice), by environment, read when scraped.',
    ['environment'] as const,
    async (set) => {
      const counts = await noticesOverdue(deps.sql, new Date(clock().getTime() - NOTICE_DUE_MS));
      set({ environment: 'sandbox' }, counts.sandbox);
      set({ environment: 'production' }, counts.production);
    },
  );
}
