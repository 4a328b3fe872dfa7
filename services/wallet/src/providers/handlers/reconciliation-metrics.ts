// Issue #59 item 2: reconciliation with providers on the wallet's metrics, read when scraped (the same
// on every replica; the alert reads max): bo_provider_reconciliation_untied_days, the production days
// of the last week whose provider statement does not tie with our transactions
// (deploy/k8s/monitoring: ProviderReconciliationDoesNotTie).
import { Gauge, type Registry } from 'prom-client';
import type { SqlRunner } from '@bo/service-kit';
import { untiedDays } from '../store/provider-money.ts';

export function registerReconciliationMetrics(registry: Registry, sql: SqlRunner): void {
  if (registry.getSingleMetric('bo_provider_reconciliation_untied_days')) return;
  new Gauge({
    name: 'bo_provider_reconciliation_untied_days',
    help: 'Production days of the last week whose provider statement does not tie with our transactions (ours only, theirs only, an amount or a status differs); read when scraped.',
    registers: [registry],
    async collect() {
      this.set(await untiedDays(sql));
    },
  });
}
