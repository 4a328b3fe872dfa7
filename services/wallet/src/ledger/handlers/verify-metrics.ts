// The last ledger verification on the wallet's metrics (internal METRICS_PORT): whether it held,
// how many problems it found, and when it ran, so an alert can watch what the team runs.
import { Gauge, type Registry } from 'prom-client';
import type { LedgerVerification } from '@bo/contracts';

export function ledgerVerifyRecorder(registry: Registry): (v: LedgerVerification) => void {
  // Registered at the first verification: an unset gauge would read 0, i.e. "broke".
  const get = (name: string, help: string) => (registry.getSingleMetric(name) as Gauge | undefined) ?? new Gauge({ name, help, registers: [registry] });
  return (v) => {
    get('bo_ledger_verify_ok', 'Result of the last ledger verification: 1 held, 0 broke (absent before the first).').set(v.ok ? 1 : 0);
    get('bo_ledger_verify_issues', 'Mismatched accounts plus unbalanced transactions found by the last verification.').set(
      v.mismatches.length + v.unbalancedTransactions.length,
    );
    get('bo_ledger_verify_last_run_timestamp_seconds', 'When the last ledger verification ran (Unix time).').set(Date.now() / 1000);
  };
}
