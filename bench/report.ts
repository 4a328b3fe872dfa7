// The printed report and the shape of bench/results/latest.json (not tracked: results depend on
// the machine and its load; docs/benchmarks.md records one run with its method).
import type { LoadSummary } from './load.ts';

export interface ScenarioResult extends LoadSummary {
  /** 2 for a deposit (create + confirm), else 1. */
  requestsPerOp?: number;
  opsPerSec?: number;
  /** CPU time per operation (warm-up included), per process; steadier than ops/s on a busy machine. */
  cpuMsPerOp?: Record<string, number>;
  cpuPercentOfOneCore?: Record<string, number>;
  /** Write syscalls per operation (warm-up included, idle taken off), per process: each socket message costs its sender CPU. */
  writesPerOp?: Record<string, number>;
  /** Deposit runs: every confirmed deposit's webhook, and the lag from the event's createdAt to receipt. */
  webhooks?: {
    confirmedDeposits: number;
    delivered: number;
    deliveries: number;
    connections?: number;
    lagMs: { p50: number; p99: number; max: number } | null;
  };
  /** br-spa deposit runs: the AML watch's lag over the run (event creation to ack), read once it caught up. */
  amlWatch?: { events: number; p99AtMostS: number | null };
  /** Soak: RSS of every process every 10 s. */
  rssSamples?: Array<{ atSec: number; rssMb: Record<string, number>; heapMb?: Record<string, number> }>;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  /** Other work on the machine shows here: the figures only compare within one run. */
  loadAverage1m: { atStart: number; atEnd: number };
  machine: { cpus: number; cpuModel: string; totalMemMb: number; node: string; platform: string };
  settings: {
    connections: number;
    durationSec: number;
    warmupSec: number;
    players: number;
    brands: number;
    loopbackOnly: true;
    scenarios: string[];
    soakSec: number;
    /** `off`, or the percentage of traces sampled (BENCH_TRACING). */
    tracing?: string;
  };
  /** The Hub88 scenario (issue #58): one RSA-SHA256 verification of a bet's body, 2048-bit key prepared once, in µs. */
  hub88?: { verifyMicros: number };
  /** Tracing runs: what the local collector received (OTLP/HTTP protobuf exports). */
  traceExports?: { exports: number; bytes: number };
  scenarios: ScenarioResult[];
  /** verifyLedger after the runs. */
  ledger: { ok: boolean; accounts: number; mismatches: number | null; sumOfAllBalances: string };
  /** CPU each process uses with no load (background loops), measured before the runs. */
  idleCpuPercentOfOneCore: Record<string, number>;
  rssMb: Record<string, { before: number; afterGc: number }>;
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
export { mb };

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const pad = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : (c ?? '').padStart(widths[i]!))).join('  ');
  return [pad(header), pad(widths.map((w) => '-'.repeat(w))), ...rows.map(pad)];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatReport(r: BenchResults): string {
  const by = (kind: string) => r.scenarios.filter((s) => s.kind === kind);
  // The bare reference at full load; its run at half the rate is the provider p99's reference only.
  const atHalfRate = (s: ScenarioResult) => s.name.includes('at half');
  const bareAtFull = (kind: string) => by(kind).filter((s) => !atHalfRate(s));
  const bareSelect = mean(bareAtFull('bareSelect').map((s) => s.requestsPerSec));
  const bareUpdate = mean(bareAtFull('bareUpdate').map((s) => s.requestsPerSec));
  const bareUpdateHalf = by('bareUpdate').find(atHalfRate);
  // The responsible-gaming pair (scenario `rg`, ", profile x") and the br-spa pair (scenario
  // `brspa`, "(profile x)"), each A B B A, are reported on their own, as br-spa vs off.
  const profileRun = (s: ScenarioResult) => s.name.includes(', profile ') || s.name.includes('(profile ');
  const deposits = by('deposit').filter((s) => !profileRun(s));
  // Repeated runs of one kind (A B B A) are averaged.
  const averaged = (runs: ScenarioResult[]): ScenarioResult | undefined =>
    runs.length === 0
      ? undefined
      : {
          ...runs[0]!,
          opsPerSec: mean(runs.map((x) => x.opsPerSec!)),
          requestsPerSec: mean(runs.map((x) => x.requestsPerSec)),
          latencyMs: { ...runs[0]!.latencyMs, p99: Math.max(...runs.map((x) => x.latencyMs.p99)) },
        };
  const oneBrand = averaged(deposits.filter((s) => s.name.includes(', 1 brand')));
  const spread = averaged(deposits.filter((s) => !s.name.includes(', 1 brand') && !s.name.startsWith('soak')));
  const wallet = by('wallet')[0];
  const rounds = by('rounds').filter((s) => !profileRun(s))[0];
  const pair = (kind: string, profile: string) => averaged(r.scenarios.filter((s) => s.kind === kind && s.name.endsWith(`, profile ${profile}`)));

  const lines: string[] = [
    `${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}; ${r.settings.connections} connections, ${r.settings.durationSec} s per run after ${r.settings.warmupSec} s warm-up, loopback`,
    `load average (1 min): ${r.loadAverage1m.atStart} at start, ${r.loadAverage1m.atEnd} at end`,
    `tracing: ${!r.settings.tracing || r.settings.tracing === 'off' ? 'off' : `on, ${r.settings.tracing}% of traces sampled, to a local collector${r.traceExports ? ` (${r.traceExports.exports} exports, ${mb(r.traceExports.bytes)} MB)` : ''}`}`,
    '',
    ...table(
      ['scenario', 'req/s', 'ops/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'requests'],
      r.scenarios.map((s) => [
        s.name,
        Math.round(s.requestsPerSec).toLocaleString('en-US'),
        s.opsPerSec !== undefined ? Math.round(s.opsPerSec).toLocaleString('en-US') : '',
        String(s.latencyMs.p50),
        String(s.latencyMs.p99),
        String(s.errors + s.timeouts),
        s.non2xx > 0
          ? `${s.non2xx} (${Object.entries(s.statusCodes)
              .filter(([c]) => !c.startsWith('2'))
              .map(([c, n]) => `${c}:${n}`)
              .join(' ')})`
          : '0',
        s.total.toLocaleString('en-US'),
      ]),
    ),
  ];

  const targets: string[][] = [];
  const target = (what: string, value: string, goal: string, met: boolean | undefined) =>
    targets.push([what, value, goal, met === undefined ? '' : met ? 'met' : 'NOT met']);
  if (oneBrand && bareUpdate)
    target('deposit create+confirm ops/s vs bare update req/s', pct(oneBrand.opsPerSec! / bareUpdate), '>= 12%', oneBrand.opsPerSec! / bareUpdate >= 0.12);
  if (oneBrand) target('deposit p99 per request (ms)', String(oneBrand.latencyMs.p99), '<= 100', oneBrand.latencyMs.p99 <= 100);
  if (wallet && bareSelect)
    target('GET wallet req/s vs bare select req/s', pct(wallet.requestsPerSec / bareSelect), '>= 60%', wallet.requestsPerSec / bareSelect >= 0.6);
  if (rounds && bareUpdate)
    target('real-money rounds/s vs bare update req/s', pct(rounds.requestsPerSec / bareUpdate), '>= 30%', rounds.requestsPerSec / bareUpdate >= 0.3);
  const providerFull = by('provider').find((s) => !s.name.includes('half'));
  const providerHalf = by('provider').find((s) => s.name.includes('half'));
  if (providerFull && bareUpdate) {
    target(
      'provider calls/s (bets and wins) vs bare update req/s',
      pct(providerFull.requestsPerSec / bareUpdate),
      '>= 40%',
      providerFull.requestsPerSec / bareUpdate >= 0.4,
    );
    target('provider bet + win pairs/s vs bare update req/s', pct(providerFull.opsPerSec! / bareUpdate), '(figure)', undefined);
  }
  if (providerHalf) target('provider call p99 at half the maximum rate (ms)', String(providerHalf.latencyMs.p99), '<= 50', providerHalf.latencyMs.p99 <= 50);
  // Issue #58: Hub88's bet + win pairs on the connector against the native provider's in the same run
  // (the native runs before and after it, averaged), its p99 at half its maximum, and what a
  // signature's verification costs against the gateway's CPU per Hub88 call.
  const hub88Full = by('hub88').find((s) => !s.name.includes('half'));
  const hub88Half = by('hub88').find((s) => s.name.includes('half'));
  const nativeFull = mean(
    by('provider')
      .filter((s) => !s.name.includes('half'))
      .map((s) => s.requestsPerSec),
  );
  if (hub88Full && nativeFull > 0)
    target(
      'hub88 calls/s vs native provider calls/s, same run',
      pct(hub88Full.requestsPerSec / nativeFull),
      '>= 90%',
      hub88Full.requestsPerSec / nativeFull >= 0.9,
    );
  if (hub88Half) target('hub88 call p99 at half its maximum rate (ms)', String(hub88Half.latencyMs.p99), '<= 50', hub88Half.latencyMs.p99 <= 50);
  if (r.hub88) {
    const gatewayMsPerCall = (hub88Full?.cpuMsPerOp?.gateway ?? 0) / 2;
    target(
      'RSA-SHA256 verification per Hub88 call (µs), share of the gateway CPU per call',
      `${r.hub88.verifyMicros} µs${gatewayMsPerCall > 0 ? `, ${pct(r.hub88.verifyMicros / 1000 / gatewayMsPerCall)}` : ''}`,
      '(figure)',
      undefined,
    );
  }
  // The same machine's floor for that figure: the bare update paced at half its own maximum rate.
  if (bareUpdateHalf) target('bare update p99 at half its maximum rate (ms)', String(bareUpdateHalf.latencyMs.p99), '(figure)', undefined);
  // Issue #47 item 2: CPU per operation over every process (Postgres included) against the bare
  // update's, a ratio that moves less with the machine than the throughput ratios above.
  const cpuAll = (s?: ScenarioResult) => {
    const v = Object.values(s?.cpuMsPerOp ?? {});
    return v.length > 0 && v.every((x) => x >= 0) ? v.reduce((a, b) => a + b, 0) : undefined;
  };
  const bareUpdateCpu = mean(bareAtFull('bareUpdate').flatMap((s) => cpuAll(s) ?? []));
  const times = (x: number) => `${x.toFixed(1)}×`;
  if (bareUpdateCpu > 0) {
    const deposit = cpuAll(oneBrand);
    if (deposit) target('CPU per deposit vs per bare update, all processes', times(deposit / bareUpdateCpu), '<= 5× (#47)', deposit / bareUpdateCpu <= 5);
    const round = cpuAll(rounds);
    if (round) target('CPU per real-money round vs per bare update, all processes', times(round / bareUpdateCpu), '(figure)', undefined);
    const pairCpu = cpuAll(providerFull);
    if (pairCpu) target('CPU per provider bet + win pair vs per bare update, all processes', times(pairCpu / bareUpdateCpu), '(figure)', undefined);
  }
  if (oneBrand && spread) {
    const ratio = spread.opsPerSec! / oneBrand.opsPerSec!;
    target(`deposits ${r.settings.brands} brands vs 1 brand (ops/s)`, ratio.toFixed(2), '0.85 .. 1.15', Math.abs(ratio - 1) <= 0.15);
  }
  for (const kind of ['deposit', 'rounds']) {
    const off = pair(kind, 'off');
    const brSpa = pair(kind, 'br-spa');
    if (off && brSpa) {
      const ratio = brSpa.opsPerSec! / off.opsPerSec!;
      target(`${kind === 'deposit' ? 'deposits' : 'real-money rounds'} br-spa vs off, same operator, A B B A (ops/s)`, pct(ratio), '>= 85%', ratio >= 0.85);
    }
  }
  const abba = (kind: string, profile: string) => averaged(r.scenarios.filter((s) => s.kind === kind && s.name.endsWith(`(profile ${profile})`)));
  for (const [kind, label] of [
    ['createPlayer', 'registrations'],
    ['deposit', 'deposits'],
  ] as const) {
    const off = abba(kind, 'off');
    const brSpa = abba(kind, 'br-spa');
    if (off && brSpa) {
      const ratio = brSpa.opsPerSec! / off.opsPerSec!;
      target(`${label} br-spa vs off, two operators, A B B A (ops/s)`, pct(ratio), '>= 85%', ratio >= 0.85);
    }
  }
  for (const d of by('deposit')) {
    if (!d.webhooks) continue;
    const w = d.webhooks;
    target(`webhook lag p99 (ms), ${d.name}`, w.lagMs ? String(w.lagMs.p99) : 'none', '<= 1000', w.lagMs ? w.lagMs.p99 <= 1000 : false);
    target(`webhooks delivered / deposits confirmed, ${d.name}`, `${w.delivered} / ${w.confirmedDeposits}`, 'all', w.delivered === w.confirmedDeposits);
    if (w.connections !== undefined)
      target(
        `webhook connections opened per 1,000 deliveries, ${d.name}`,
        (Math.round((w.connections / Math.max(1, w.deliveries)) * 10_000) / 10).toFixed(1),
        '',
        undefined,
      );
    if (d.amlWatch) {
      const p99 = d.amlWatch.p99AtMostS;
      target(
        `AML watch lag p99 (s, bucket bound), ${d.name}`,
        p99 === null ? 'none' : `<= ${p99} (${d.amlWatch.events} events)`,
        '<= 2',
        p99 !== null && p99 <= 2,
      );
    }
  }
  if (targets.length) lines.push('', ...table(['ratio / figure', 'measured', 'target', ''], targets));
  if (bareSelect || bareUpdate) lines.push(`bare reference (mean of its runs): select ${Math.round(bareSelect)} req/s, update ${Math.round(bareUpdate)} req/s`);

  const perProcess = (title: string, of: (s: ScenarioResult) => Record<string, number> | undefined) => {
    const withFigures = r.scenarios.filter((s) => of(s));
    if (!withFigures.length) return;
    const procs = [...new Set(withFigures.flatMap((s) => Object.keys(of(s)!)))];
    lines.push(
      '',
      title,
      ...table(
        ['scenario', ...procs],
        withFigures.map((s) => [
          s.name,
          ...procs.map((p) => {
            const v = of(s)![p];
            // A pid set that changed under us (a restarted server) reads negative: not a figure.
            return v === undefined ? '' : v < 0 ? 'n/a' : String(v);
          }),
        ]),
      ),
    );
  };
  perProcess('CPU ms per operation (a deposit = create + confirm), per process, warm-up included, idle use taken off:', (s) => s.cpuMsPerOp);
  perProcess('write syscalls per operation (socket messages, mostly), per process, idle writes taken off:', (s) => s.writesPerOp);
  const soak = r.scenarios.find((s) => s.rssSamples);
  if (soak?.rssSamples?.length) {
    const procs = Object.keys(soak.rssSamples[0]!.rssMb);
    lines.push(
      '',
      'soak RSS (MB) every 10 s:',
      ...table(
        ['at s', ...procs],
        soak.rssSamples.map((x) => [String(x.atSec), ...procs.map((p) => String(x.rssMb[p]))]),
      ),
      '',
      'soak lowest–highest per 100 s window, RSS MB / V8 heap used MB (a leak shows as lows that keep rising):',
      ...table(['window', ...procs], soakWindows(soak.rssSamples, procs)),
    );
  }
  lines.push(
    `idle CPU % of one core (taken off above): ${Object.entries(r.idleCpuPercentOfOneCore)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  lines.push(
    '',
    `ledger after the runs: ${r.ledger.ok ? 'verifies' : 'DOES NOT VERIFY'} (${r.ledger.accounts} accounts, ${r.ledger.mismatches} mismatches, sum of all balances ${r.ledger.sumOfAllBalances})`,
    `RSS MB before → after gc(): ${Object.entries(r.rssMb)
      .map(([k, v]) => `${k} ${v.before} → ${v.afterGc}`)
      .join(', ')}`,
    'latency resolution is 1 ms (autocannon, and the paced runs at a set rate, timed from when each request was due); postgres CPU is the backends connected to the bench database (WAL writer, checkpointer not included)',
  );
  return lines.join('\n');
}

/** BENCH_TRACING with several modes: each mode's deposits and bare reference side by side. */
export function formatTracingComparison(runs: BenchResults[]): string {
  const rows = runs.map((r) => {
    const deposits = r.scenarios.filter((s) => s.kind === 'deposit' && s.name.includes(', 1 brand'));
    const bareUpdate = mean(r.scenarios.filter((s) => s.kind === 'bareUpdate').map((s) => s.requestsPerSec));
    const opsPerSec = mean(deposits.map((s) => s.opsPerSec!));
    const ours = (s: ScenarioResult) =>
      Object.entries(s.cpuMsPerOp ?? {})
        .filter(([p]) => p !== 'nats-server' && !p.startsWith('postgres'))
        .reduce((a, [, v]) => a + v, 0);
    return [
      r.settings.tracing === 'off' || !r.settings.tracing ? 'off' : `${r.settings.tracing}%`,
      Math.round(opsPerSec).toLocaleString('en-US'),
      bareUpdate ? pct(opsPerSec / bareUpdate) : '',
      String(Math.max(0, ...deposits.map((s) => s.latencyMs.p99))),
      mean(deposits.map(ours)).toFixed(2),
      `${r.loadAverage1m.atStart} / ${r.loadAverage1m.atEnd}`,
    ];
  });
  return [
    'tracing off and on (deposit create + confirm, 1 brand; CPU: gateway and services, per deposit):',
    ...table(['tracing', 'ops/s', 'vs bare update', 'p99 ms', 'CPU ms/op', 'load avg start / end'], rows),
  ].join('\n');
}

function soakWindows(samples: NonNullable<ScenarioResult['rssSamples']>, procs: string[]): string[][] {
  const span = (xs: number[]) => (xs.length ? `${Math.min(...xs)}–${Math.max(...xs)}` : '');
  const rows: string[][] = [];
  const end = samples.at(-1)?.atSec ?? 0;
  for (let from = 0; from < end; from += 100) {
    const w = samples.filter((x) => x.atSec >= from && (x.atSec < from + 100 || (from + 100 >= end && x.atSec <= end)));
    rows.push([
      `${from}–${Math.min(from + 100, end)} s`,
      ...procs.map((p) => `${span(w.map((x) => x.rssMb[p]!))} / ${span(w.flatMap((x) => (x.heapMb?.[p] !== undefined ? [x.heapMb[p]] : [])))}`),
    ]);
  }
  return rows;
}
