// The AML duties' metrics (issue #46, docs/aml.md; alerts in deploy/k8s/monitoring, docs/runbook.md):
// the COS awaiting filing by where they stand against their deadline, and the risk register's reviews
// past due, read when scraped (indexed, small); and the operators whose yearly report to the SPA of
// last year is not made past its due date, counted by a loop every AML_DUTIES_INTERVAL_MS (it reads
// which operators the watch has seen: a scan too heavy for every scrape). Every series is there at 0
// from the start.
import { Gauge, type Registry } from 'prom-client';
import { COMPLIANCE_DEFAULTS, RISK_SUBJECT_KINDS } from '@bo/contracts';
import { startLoop, type BackgroundTask, type Logger, type ServiceDeps, type SqlRunner } from '@bo/service-kit';
import { annualDueDates, endOfDay, localDateOf } from '../domain/business-days.ts';
import { operatorsOfYear, operatorsWithReport } from '../store/annual-reports.ts';
import { analysisRunning, cosAwaiting } from '../store/case-counts.ts';
import { ANALYSIS_DAYS } from '../domain/analysis-clock.ts';
import { reviewsOverdueByKind } from '../store/risk-register-reads.ts';

const COS_STATES = ['due', 'near', 'overdue'] as const;

export function registerDutiesMetrics(registry: Registry, sql: SqlRunner, o: { now: () => Date; nearMs: number; analysisNearMs?: number }): void {
  // The alerts' 30-day analysis clocks (issue #60; Portaria SPA/MF 1.143/2024 art. 26 §2 as summarised).
  new Gauge({
    name: 'bo_aml_case_analysis',
    help: 'Active AML cases whose 30-day analysis is not concluded, by state against its end (due, near: less than AML_ANALYSIS_NEAR_MS left, overdue), read when scraped.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const row = await analysisRunning(sql, o.now(), o.analysisNearMs ?? 5 * 86_400_000, ANALYSIS_DAYS);
      for (const state of COS_STATES) this.set({ state }, row?.[state] ?? 0);
    },
  });
  new Gauge({
    name: 'bo_aml_cos_awaiting',
    help: 'COS decided and not yet filed with COAF, by state against their deadline (due, near: less than COS_NEAR_MS left, overdue), read when scraped.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const now = o.now();
      const row = await cosAwaiting(sql, now, o.nearMs);
      for (const state of COS_STATES) this.set({ state }, row?.[state] ?? 0);
    },
  });
  new Gauge({
    name: 'bo_aml_risk_reviews_overdue',
    help: 'Active subjects of the AML risk register (team members, partners, suppliers) whose review is past due, by kind, read when scraped.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const counts = await reviewsOverdueByKind(sql, o.now());
      for (const kind of RISK_SUBJECT_KINDS) this.set({ kind }, counts.get(kind) ?? 0);
    },
  });
}

/**
 * Operators whose report of last year (in the default zone: br-spa operators are Brazilian) is not
 * made once its due date (1 February) has ended: 0 before then.
 */
export async function annualReportsOverdue(sql: SqlRunner, now: Date): Promise<number> {
  const zone = COMPLIANCE_DEFAULTS.timeZone;
  const year = Number(localDateOf(now, zone).slice(0, 4)) - 1;
  if (now.getTime() < endOfDay(annualDueDates(year).dueDate, zone).getTime()) return 0;
  const operators = await operatorsOfYear(sql, year);
  if (operators.length === 0) return 0;
  const done = await operatorsWithReport(sql, year);
  return operators.filter((op) => !done.has(op)).length;
}

export function startAnnualReportsWatch(deps: Pick<ServiceDeps, 'sql' | 'metrics'>, o: { intervalMs: number; now: () => Date; log: Logger }): BackgroundTask {
  const overdue = new Gauge({
    name: 'bo_aml_annual_reports_overdue',
    help: 'Operators whose yearly AML report of last year is not made and its due date (1 February) is over, as of the last pass (every AML_DUTIES_INTERVAL_MS).',
    registers: [deps.metrics],
  });
  overdue.set(0);
  const loop = startLoop({
    name: 'AML yearly reports watch',
    intervalMs: o.intervalMs,
    maxBackoffMs: 15 * 60_000,
    log: o.log,
    run: async () => {
      overdue.set(await annualReportsOverdue(deps.sql, o.now()));
    },
  });
  return { name: 'AML yearly reports watch', stop: () => loop.stop(), problem: () => undefined };
}
