// The printed table and the shape of bench/results/latest.json.
import type { LoadSummary } from './load.ts';

export interface MemoryFigures { rssMb: number; heapUsedMb: number }

export interface ScenarioResult extends LoadSummary {
  /** Gateway runs only: CPU used during the run (warm-up included) as a percentage of one core. */
  cpuPercentOfOneCore?: { gateway: number; playersService: number };
  /** Gateway runs only: CPU time per answered request (warm-up included); steadier than req/s on a busy machine. */
  cpuMsPerRequest?: { gateway: number; playersService: number };
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  /** Other work on the machine shows here: the figures only compare within one run. */
  loadAverage1m: { atStart: number; atEnd: number };
  machine: { cpus: number; cpuModel: string; totalMemMb: number; node: string; platform: string };
  settings: { connections: number; durationSec: number; warmupSec: number; loopbackOnly: true; scenarios: string[] };
  scenarios: ScenarioResult[];
  /** The gateway process: before any load, highest sample during load, right after, after a forced GC. */
  gatewayMemory: { before: MemoryFigures; peakRssMb: number; after: MemoryFigures; afterGc: MemoryFigures };
  /**
   * Cross-check over warm-up, measured run and the pre-check: rows must lie between the 201 answers
   * autocannon counted and the requests it sent (requests in flight when a run stops are processed
   * but their answers are not counted).
   */
  playersCheck: { rowsInDatabase: number; created201: number; sent: number };
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
export const toMemoryFigures = (m: { rss: number; heapUsed: number }): MemoryFigures => ({ rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed) });
export { mb };

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
}

export function formatTable(r: BenchResults): string {
  const baseline = r.scenarios.filter((s) => s.kind === 'hello').map((s) => s.requestsPerSec);
  const baselineMean = baseline.length ? baseline.reduce((a, b) => a + b, 0) / baseline.length : 0;
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'requests', 'vs baseline', 'CPU % gw/players', 'CPU ms/req gw/players'];
  const rows = r.scenarios.map((s) => [
    s.name,
    Math.round(s.requestsPerSec).toLocaleString('en-US'),
    String(s.latencyMs.p50),
    String(s.latencyMs.p99),
    String(s.errors),
    s.non2xx > 0 ? `${s.non2xx} (${Object.entries(s.statusCodes).filter(([c]) => !c.startsWith('2')).map(([c, n]) => `${c}:${n}`).join(' ')})` : '0',
    s.total.toLocaleString('en-US'),
    s.kind === 'hello' || baselineMean === 0 ? '' : `${((s.requestsPerSec / baselineMean) * 100).toFixed(1)}%`,
    s.cpuPercentOfOneCore ? `${s.cpuPercentOfOneCore.gateway} / ${s.cpuPercentOfOneCore.playersService}` : '',
    s.cpuMsPerRequest ? `${s.cpuMsPerRequest.gateway} / ${s.cpuMsPerRequest.playersService}` : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const m = r.gatewayMemory;
  return [
    `${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}; ${r.settings.connections} connections, ${r.settings.durationSec} s per run after ${r.settings.warmupSec} s warm-up, loopback`,
    `load average (1 min): ${r.loadAverage1m.atStart} at start, ${r.loadAverage1m.atEnd} at end`,
    '',
    pad(header, widths),
    pad(widths.map((w) => '-'.repeat(w)), widths),
    ...rows.map((row) => pad(row, widths)),
    '',
    `gateway RSS: ${m.before.rssMb} MB before load, ${m.peakRssMb} MB peak, ${m.after.rssMb} MB after, ${m.afterGc.rssMb} MB after gc()`,
    `gateway heap used: ${m.before.heapUsedMb} MB before load, ${m.after.heapUsedMb} MB after, ${m.afterGc.heapUsedMb} MB after gc() (coarse)`,
    `players created: ${r.playersCheck.rowsInDatabase} rows in the database; ${r.playersCheck.created201} answered 201 of ${r.playersCheck.sent} sent (rows must lie between the two)`,
    'latency resolution is 1 ms (autocannon); CPU is a percentage of one core over warm-up and run',
  ].join('\n');
}
