// `npm run test:timings`: where the last `npm test` run's time went. Reads what scripts/test.ts wrote
// (.data/test-timings.json: each check's and each test file's wall time) and what the test helpers
// noted (.data/test-phases.jsonl: databases made, services and processes started, whole systems
// started, waits, Chromium launched; @bo/service-kit/testing `notePhase`), and prints the run's
// figures, each workspace's share and the slowest files with their phases. `--top N` (default 30),
// `--json` for the figures as JSON, `--data DIR` to read another folder than .data.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileTiming } from './tap-progress.ts';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const given = option('--data');
// The checkout the run was made in: the one holding the data folder (another clone's, with --data), whose paths
// the phases name.
const dataDir = path.resolve(given ?? path.join(import.meta.dirname, '../.data'));
const root = given && existsSync(path.join(dataDir, '../test/e2e/package.json')) ? path.resolve(dataDir, '..') : path.resolve(import.meta.dirname, '..');

interface Run {
  startedAt: string;
  seconds: number;
  /** The share of the machine's cores busy over the run (0–1; runs before it was kept have none). */
  cpuBusy?: number;
  filters: string[];
  passed: number;
  failed: number;
  checks: Array<{ label: string; ms: number; ok: boolean }>;
  files: FileTiming[];
}

const PHASES = ['system start', 'process start', 'service start', 'database', 'wait', 'chromium'] as const;
/**
 * `process`: a test file's own process lifetime (scripts/test-process-clock.mjs), its wall time; `cpu`:
 * the CPU of that process and of the children it reaped (services, Chromium).
 */
type Phase = (typeof PHASES)[number] | 'process' | 'cpu';

/** Workspace name → its folder, from the workspaces' package.json files. */
function workspaceDirs(): Map<string, string> {
  const dirs = new Map<string, string>();
  for (const parent of ['packages', 'services']) {
    for (const entry of readdirSync(path.join(root, parent))) {
      const pkg = path.join(root, parent, entry, 'package.json');
      if (existsSync(pkg)) dirs.set(JSON.parse(readFileSync(pkg, 'utf8')).name, path.join(root, parent, entry));
    }
  }
  dirs.set(JSON.parse(readFileSync(path.join(root, 'test/e2e/package.json'), 'utf8')).name, path.join(root, 'test/e2e'));
  return dirs;
}

/** Phase totals per test file (by its absolute path). */
function phasesByFile(): Map<string, Record<Phase, number>> {
  const file = path.join(dataDir, 'test-phases.jsonl');
  const out = new Map<string, Record<Phase, number>>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    let note: { file?: string; phase?: Phase; ms?: number };
    try {
      note = JSON.parse(line);
    } catch {
      continue;
    }
    if (!note.file || !note.phase || typeof note.ms !== 'number' || !(note.phase === 'process' || note.phase === 'cpu' || PHASES.includes(note.phase)))
      continue;
    const sums = out.get(note.file) ?? (Object.fromEntries([...PHASES, 'process', 'cpu'].map((p) => [p, 0])) as Record<Phase, number>);
    sums[note.phase] += note.ms;
    out.set(note.file, sums);
  }
  return out;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));

function report(run: Run, phases: Map<string, Record<Phase, number>>, dirs: Map<string, string>, top: number) {
  // A file's wall time is its process's lifetime where it noted it; else the time its line took to come.
  const files = run.files.map((f) => {
    const abs = path.join(dirs.get(f.workspace) ?? root, f.file);
    const noted = phases.get(abs);
    return { ...f, wallMs: noted?.process || f.wallMs, path: path.relative(root, abs), phases: noted };
  });
  const sum = files.reduce((a, f) => a + f.wallMs, 0);
  const checks = run.checks.reduce((a, c) => a + c.ms, 0);
  const byWorkspace = new Map<string, { files: number; ms: number; cpuMs: number }>();
  for (const f of files) {
    const w = byWorkspace.get(f.workspace) ?? { files: 0, ms: 0, cpuMs: 0 };
    w.files++;
    w.ms += f.wallMs;
    w.cpuMs += f.phases?.cpu ?? 0;
    byWorkspace.set(f.workspace, w);
  }
  const cpuSum = files.reduce((a, f) => a + (f.phases?.cpu ?? 0), 0);
  const phaseTotals = Object.fromEntries(PHASES.map((p) => [p, files.reduce((a, f) => a + (f.phases?.[p] ?? 0), 0)])) as Record<Phase, number>;
  return {
    startedAt: run.startedAt,
    seconds: run.seconds,
    ...(run.cpuBusy === undefined ? {} : { cpuBusy: run.cpuBusy }),
    filters: run.filters,
    passed: run.passed,
    failed: run.failed,
    checksMs: checks,
    files: files.length,
    fileWallSumMs: sum,
    fileCpuSumMs: cpuSum,
    phaseTotalsMs: phaseTotals,
    workspaces: [...byWorkspace].map(([name, w]) => ({ name, ...w })).sort((a, b) => b.ms - a.ms),
    slowest: [...files].sort((a, b) => b.wallMs - a.wallMs).slice(0, top),
    costliest: files
      .filter((f) => f.phases?.cpu)
      .sort((a, b) => b.phases!.cpu - a.phases!.cpu)
      .slice(0, top),
  };
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const top = Number(option('--top') ?? 30);
  const timingsFile = path.join(dataDir, 'test-timings.json');
  if (!existsSync(timingsFile)) {
    console.error('No timings yet: run npm test (or npm test -- <workspace>) first; it writes .data/test-timings.json.');
    process.exit(1);
  }
  const r = report(JSON.parse(readFileSync(timingsFile, 'utf8')) as Run, phasesByFile(), workspaceDirs(), top);
  if (args.includes('--json')) {
    console.log(JSON.stringify(r, null, 1));
    process.exit(0);
  }
  console.log(
    `npm test${r.filters.length ? ` -- ${r.filters.join(' ')}` : ''} of ${r.startedAt}: ${r.seconds} s in all${r.cpuBusy === undefined ? '' : ` (cores ${Math.round(r.cpuBusy * 100)}% busy)`}, ${r.passed} passed, ${r.failed} failed`,
  );
  console.log(`  static checks ${s(r.checksMs)}; ${r.files} test files, ${s(r.fileWallSumMs)} of their wall times added up (several run at once)`);
  if (r.fileCpuSumMs > 0)
    console.log(`  their CPU (each file's process and the services and browsers it started; not Postgres's or NATS's): ${s(r.fileCpuSumMs)}`);
  console.log(`  noted phases, all files: ${PHASES.map((p) => `${p} ${s(r.phaseTotalsMs[p])}`).join(', ')}`);
  console.log('\nBy workspace (file wall time, CPU, files):');
  for (const w of r.workspaces) console.log(`  ${pad(w.name, 18)} ${pad(s(w.ms), 9)} ${pad(w.cpuMs ? s(w.cpuMs) : '', 9)} ${w.files}`);
  console.log(`\nThe slowest ${r.slowest.length} files (wall; phases noted by the test helpers; phases may overlap):`);
  for (const f of r.slowest) {
    const noted = PHASES.filter((p) => (f.phases?.[p] ?? 0) >= 50)
      .map((p) => `${p} ${s(f.phases![p])}`)
      .join(', ');
    console.log(`  ${pad(s(f.wallMs), 8)} ${pad(f.path, 52)} ${pad(`${f.assertions} assertions`, 17)} ${noted}`);
  }
  if (r.costliest.length > 0) {
    console.log(
      `\nThe costliest ${r.costliest.length} files (CPU, their children's included; the suite is bound by CPU: this is what a file takes from the others):`,
    );
    for (const f of r.costliest) console.log(`  ${pad(s(f.phases!.cpu), 8)} ${pad(f.path, 52)} wall ${s(f.wallMs)}`);
  }
}
