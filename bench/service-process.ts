// One domain service (players, wallet, payments, webhooks, operators, compliance) in a process of its own, started the
// way its main.ts starts it (config from env), so the benchmark can read each process's CPU time
// and memory alone (tracing too, started first as main.ts does: BENCH_TRACING). bench/run.ts drives
// it over IPC like the gateway process.
import type { RunningService } from '@bo/service-kit';
import { startTracing } from '@bo/service-kit/tracing';
import type { MemoryReport } from './gateway-process.ts';
import type { HistogramReading } from './aml-watch.ts';

export type ServiceName = 'players' | 'wallet' | 'payments' | 'webhooks' | 'operators' | 'compliance';

const name = process.env.BENCH_SERVICE as ServiceName;
await startTracing(name);
const { loadConfig, startService } = await import('@bo/service-kit');
const { PlayersConfigSchema, playersService } = await import('@bo/players');
const { PaymentsConfigSchema, paymentsService } = await import('@bo/payments');
const { WebhooksConfigSchema, webhooksService } = await import('@bo/webhooks');
const { ComplianceConfigSchema, complianceService } = await import('@bo/compliance');
const { WalletConfigSchema, walletService } = await import('@bo/wallet');
const { OperatorsConfigSchema, operatorsService } = await import('@bo/operators');

async function start(name: ServiceName): Promise<RunningService> {
  switch (name) {
    case 'players':
      return startService(playersService, loadConfig(PlayersConfigSchema));
    case 'wallet':
      return startService(walletService, loadConfig(WalletConfigSchema));
    case 'payments':
      return startService(paymentsService, loadConfig(PaymentsConfigSchema));
    case 'webhooks':
      return startService(webhooksService, loadConfig(WebhooksConfigSchema));
    case 'operators':
      return startService(operatorsService, loadConfig(OperatorsConfigSchema));
    case 'compliance':
      return startService(complianceService, loadConfig(ComplianceConfigSchema));
  }
}

const svc = await start(name);

function memory(gc: boolean): MemoryReport {
  if (gc) (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  return { type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external, cpuMicros: cpu.user + cpu.system };
}

/** A histogram of the service's registry (bench/aml-watch.ts reads the watch's lag), cumulative per bound. */
async function histogram(name: string): Promise<HistogramReading> {
  const metric = svc.metrics.getSingleMetric(name);
  const values = metric ? (await metric.get()).values : [];
  const buckets = values
    .filter((v) => (v as { metricName?: string }).metricName === `${name}_bucket`)
    .map((v) => ({ le: v.labels.le === '+Inf' ? null : Number(v.labels.le), count: v.value }));
  return { type: 'histogram', buckets };
}

process.on('message', (msg: { type?: string; gc?: boolean; name?: string }) => {
  if (msg?.type === 'memory') process.send!(memory(msg.gc === true));
  if (msg?.type === 'histogram') void histogram(msg.name!).then((h) => process.send!(h));
  if (msg?.type === 'stop') void svc.stop().finally(() => process.exit(0));
});
process.on('disconnect', () => void svc.stop().finally(() => process.exit(0)));
process.send!({ type: 'ready', pid: process.pid });
