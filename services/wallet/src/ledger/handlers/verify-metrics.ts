// The last ledger verification on the wallet's metrics (internal METRICS_PORT): whether it held,
// how many problems it found, and when it ran, so an alert can watch what the team runs.
import { Gauge, type Registry } from 'prom-client';
import type { LedgerVerification } from '@bo/contracts';

export function ledgerVerifyRecorder(registry: Registry): (v: LedgerVerification) => void {
  // Registered at start, at 0, so the series are there before the first verification (absent means
  // down): `ok` reads 0 then too, which `last_run` at 0 tells apart from "broke" (the alert reads both).
  const get = (name: string, help: string) => {
    const found = registry.getSingleMetric(name) as Gauge | undefined;
    if (found) return found;
    const made = new Gauge({ name, help, registers: [registry] });
    made.set(0);
    return made;
  };
  const ok = get('bo_ledger_verify_ok', 'Result of the last ledger verification: 1 held, 0 broke (or none yet: last run 0).');
  const issues = get('bo_ledger_verify_issues', 'Mismatched accounts plus unbalanced transactions found by the last verification.');
  const lastRun = get('bo_ledger_verify_last_run_timestamp_seconds', 'When the last ledger verification ran (Unix time; 0 before the first).');
  return (v) => {
    ok.set(v.ok ? 1 : 0);
    issues.set(v.mismatches.length + v.unbalancedTransactions.length);
    lastRun.set(Date.now() / 1000);
  };
}
