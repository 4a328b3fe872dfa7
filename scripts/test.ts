// `npm test`: the one test command (README, .ci/run). Finds or starts Postgres and NATS the way
// `npm start` does (scripts/local-infra.ts; throwaway servers, stopped afterwards), bundles the services the tests
// start as processes (scripts/test-service-bundles.ts), typechecks,
// lints, checks dependencies, runs every workspace's tap suite (through turbo, the e2e suite beside it), prints a line per finished test file as it
// finishes, and ends with one line `N passed, M failed` (assertions; the typecheck counts as one).
// `npm test -- <names>` is the fast path for a change: the typecheck, then only the named workspaces or
// test files (scripts/test-selection.ts), without turbo. The whole output is kept in .data/test-output.log, the
// time of each check and test file in .data/test-timings.json and the phases the test helpers note
// (process starts, service starts, waits, Chromium) in .data/test-phases.jsonl: `npm run test:timings`.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import readline from 'node:readline';
import { resolveInfra } from './local-infra.ts';
import { failureText, StartupError } from './startup-error.ts';
import { onStopRequest } from './stop-signals.ts';
import { failureRecap, TapProgress } from './tap-progress.ts';
import { findOrInstallChromium } from './test-browser.ts';
import { turboTestArgs } from './turbo-test-args.ts';
import { selectTests } from './test-selection.ts';
import { findOrInstallPromtool } from './test-promtool.ts';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data');
const say = (msg: string) => console.log(`[test] ${msg}`);
const startedAt = Date.now();
const cpuAtStart = os.cpus();
/** How many lines of each failure the run's last lines repeat. */
const FAILURE_RECAP_LINES = 12;

if (!process.versions.node.startsWith('24.')) {
  console.error(`npm test must run on the pinned Node 24 (got ${process.versions.node}); run npm install so the node devDependency is installed.`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

let infra: Awaited<ReturnType<typeof resolveInfra>> | undefined;
let turbo: ReturnType<typeof spawn> | undefined;
/** The tap runs started without turbo (the e2e suite; a selection's workspaces), stopped with it. */
const taps = new Set<ReturnType<typeof spawn>>();
const E2E_WORKSPACE = '@bo/e2e';
// The database every test database is cloned from (scripts/test-template-db.ts), dropped at the end.
const templateDb = `bo_template_${randomBytes(4).toString('hex')}`;
let templateMade = false;
const dropTemplate = () => {
  if (templateMade && infra) spawnSync(process.execPath, [path.join(root, 'scripts/test-template-db.ts'), 'drop', infra.postgres.url, templateDb]);
};
let interrupted = false;
onStopRequest((why) => {
  if (interrupted) return;
  interrupted = true;
  say(`stopping (${why})…`);
  for (const child of taps) child.kill('SIGTERM');
  if (turbo && turbo.exitCode === null) turbo.kill('SIGTERM');
  else if (taps.size === 0) {
    dropTemplate();
    void infra?.stop().then(() => process.exit(130));
  }
});

/** A failure outside the suites: what went wrong and the fix, servers stopped, one failed assertion. */
async function fail(err: unknown): Promise<never> {
  console.error(`[test] ${failureText(err, 'npm test')}`);
  if (turbo && turbo.exitCode === null) turbo.kill('SIGTERM');
  for (const child of taps) child.kill('SIGTERM');
  dropTemplate();
  await infra?.stop().catch(() => undefined);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
process.on('uncaughtException', (err) => void fail(err));
process.on('unhandledRejection', (err) => void fail(err));

// `npm test -- <names>`: the typecheck and the named suites only (a minute, not the whole run).
const names = process.argv.slice(2);
const selection = names.length > 0 ? selectTests(root, names) : undefined;
if (selection?.unmatched.length) {
  await fail(
    new StartupError(
      `no workspace or test file matches ${selection.unmatched.map((n) => `"${n}"`).join(', ')}.\n  Fix: name a workspace (@bo/players, players, e2e) or a piece of a test file's path (standing, players/test/kyc).`,
    ),
  );
}
if (selection) say(`running ${selection.runs.map((r) => (r.files ? `${r.name} (${r.files.join(', ')})` : r.name)).join('; ')}`);

infra = await resolveInfra({ purpose: 'test', dataDir, log: say }).catch(fail);
say(`using ${infra.postgres.describe}`);
say(`using ${infra.nats.describe}`);
mkdirSync(dataDir, { recursive: true });
const phasesFile = path.join(dataDir, 'test-phases.jsonl');
rmSync(phasesFile, { force: true });
// Made while the static checks run; the suites wait for it. A fast-path run of a few files goes
// without (each service migrates its own schema in its test database: the same work, done once).
const wantsTemplate = !selection || selection.runs.some((r) => !r.files || r.files.length > 3);
const templateStarted = Date.now();
let templateErrors = '';
const templateReady = !wantsTemplate
  ? Promise.resolve(false)
  : new Promise<boolean>((resolve) => {
      const build = spawn(process.execPath, [path.join(root, 'scripts/test-template-db.ts'), 'create', infra!.postgres.url, templateDb], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      build.stderr!.on('data', (d: Buffer) => (templateErrors = (templateErrors + d.toString()).slice(-2000)));
      build.once('close', (code) => resolve(code === 0));
      build.once('error', () => resolve(false));
    });
// The services' processes start from bundles of their sources (scripts/test-service-bundles.ts: a third
// of the CPU of a start, over a thousand starts a run), made beside the template; from the sources
// when the build fails, said so.
const bundlesDir = path.join(dataDir, 'service-bundles');
let bundleErrors = '';
const bundlesReady = !wantsTemplate
  ? Promise.resolve(false)
  : new Promise<boolean>((resolve) => {
      const build = spawn(process.execPath, [path.join(root, 'scripts/test-service-bundles.ts'), bundlesDir], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      build.stderr!.on('data', (d: Buffer) => (bundleErrors = (bundleErrors + d.toString()).slice(-2000)));
      build.once('close', (code) => resolve(code === 0));
      build.once('error', () => resolve(false));
    });
const chromium = findOrInstallChromium(say);
const promtool = findOrInstallPromtool(say);
const env = {
  ...process.env,
  DATABASE_URL: infra.postgres.url,
  NATS_URL: infra.nats.url,
  TURBO_TELEMETRY_DISABLED: '1',
  FORCE_COLOR: '0',
  BO_TEST_PHASES: phasesFile,
  // Node's on-disk code cache: every test file and every process it starts loads its modules about
  // twice as fast (a module's cached code is used only while its source is unchanged).
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(dataDir, 'compile-cache'),
  // Each test file's process notes its own lifetime (scripts/test-process-clock.mjs).
  NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${pathToFileURL(path.join(root, 'scripts/test-process-clock.mjs')).href}`].filter(Boolean).join(' '),
  ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
  ...(promtool ? { PROMTOOL_PATH: promtool } : {}),
};

let passed = 0;
let failed = 0;
// Static checks, one assertion each: types, lint and format (biome.json), every package.json
// declaring exactly what its package imports (knip.jsonc), the import rules (no circles, the
// gateway's edge imports no domain code, no service imports another, a module reached through its face, domain/
// without store/: .dependency-cruiser.json), and the k8s manifests
// (deploy/k8s/check-manifests.ts, on this pinned Node: it is TypeScript).
const checks: Array<[string, string, string[]]> = [
  ['typecheck', 'tsc', ['--noEmit', '-p', '.']],
  ['lint and format', 'biome', ['ci', '--colors=off', '.']],
  ['dependencies', 'knip', ['--no-progress']],
  ['import rules', 'depcruise', ['--config', '.dependency-cruiser.json', 'services/*/src', 'packages/*/src']],
  ['k8s manifests', process.execPath, ['deploy/k8s/check-manifests.ts']],
];
const checkTimings: Array<{ label: string; ms: number; ok: boolean }> = [];
for (const [label, cmd, args] of selection ? checks.slice(0, 1) : checks) {
  const checkStarted = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env });
  checkTimings.push({ label, ms: Date.now() - checkStarted, ok: r.status === 0 });
  if (r.status === 0) {
    passed++;
    say(`ok   ${label}`);
  } else {
    failed++;
    // A command that could not be started (not on PATH) has no output, only its error.
    process.stdout.write(`${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `${r.error.message}\n` : ''}`);
    say(`FAIL ${label} (${cmd} ${args.join(' ')})`);
  }
}

templateMade = await templateReady;
if (templateMade) {
  say(`test databases are clones of ${templateDb}, every service's schema migrated (${((Date.now() - templateStarted) / 1000).toFixed(1)} s)`);
  Object.assign(env, { BO_TEST_TEMPLATE_DB: templateDb });
} else if (wantsTemplate) {
  say(`no template database (each service migrates its own schema in every test database): ${templateErrors.trim().split('\n').at(-1) ?? ''}`);
}

if (await bundlesReady) {
  say(`service processes start from bundles of their sources (${path.relative(root, bundlesDir)})`);
  Object.assign(env, { BO_TEST_SERVICE_BUNDLES: bundlesDir });
} else if (wantsTemplate) {
  say(`service processes start from their sources (the bundles were not made): ${bundleErrors.trim().split('\n').at(-1) ?? ''}`);
}

const logFile = path.join(dataDir, 'test-output.log');
const raw = createWriteStream(logFile);
const progress = new TapProgress((line) => console.log(line));
const code = selection ? await runSelected(selection.runs) : await runEverySuite();
await new Promise<void>((resolve) => raw.end(resolve));

/**
 * Every workspace's suite; the worst exit code. The e2e suite, the longest by far (two files at a time,
 * ~60% of the files' time), starts at once beside turbo's two at a time for the rest: turbo would start it
 * last (it orders workspaces by their dependencies, and e2e depends on them all), leaving its last ten
 * minutes alone on the machine.
 */
async function runEverySuite(): Promise<number> {
  turbo = spawn('turbo', turboTestArgs([`!${E2E_WORKSPACE}`]), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  readline.createInterface({ input: turbo.stdout! }).on('line', (line) => {
    raw.write(`${line}\n`);
    progress.line(line);
  });
  turbo.stderr!.on('data', (d: Buffer) => raw.write(d));
  turbo.once(
    'error',
    (err) => void fail(new StartupError(`turbo could not be started (${err.message}).\n  Fix: run npm ci, so node_modules/.bin/turbo is installed.`)),
  );
  const turboExit = new Promise<number>((resolve) => turbo!.once('close', (c) => resolve(c ?? 1)));
  const codes = await Promise.all([turboExit, runTap({ name: E2E_WORKSPACE, dir: path.join(root, 'test/e2e') })]);
  return codes.find((c) => c !== 0) ?? 0;
}

/** The selected workspaces' tap runs (their own tap settings, the named files or all), two at a time; 0 when every one exited 0. */
async function runSelected(runs: NonNullable<typeof selection>['runs']): Promise<number> {
  const queue = [...runs];
  let worst = 0;
  const one = async (): Promise<void> => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const exit = await runTap(r);
      if (exit !== 0) worst = exit;
    }
  };
  await Promise.all([one(), one()]);
  return worst;
}

/** One workspace's tap run (its own tap settings; the given files or all), its lines prefixed as turbo prefixes them; its exit code. */
async function runTap(run: { name: string; dir: string; files?: string[] }): Promise<number> {
  const child = spawn(path.join(root, 'node_modules/.bin/tap'), run.files ?? [], { cwd: run.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  taps.add(child);
  const prefixed = (line: string) => {
    const text = `${run.name}:test: ${line}`;
    raw.write(`${text}\n`);
    progress.line(text);
  };
  readline.createInterface({ input: child.stdout! }).on('line', prefixed);
  child.stderr!.on('data', (d: Buffer) => raw.write(d));
  return new Promise<number>((resolve) => {
    child.once('close', (c) => {
      taps.delete(child);
      resolve(c ?? 1);
    });
    child.once('error', () => resolve(1));
  });
}

const totals = progress.totals();
passed += totals.passed;
failed += totals.failed;
if (code !== 0 && totals.failed === 0) {
  failed++;
  say(`a suite's runner exited with ${code} although no assertion failed (a suite crashed?): see ${path.relative(root, logFile)}`);
}
if (totals.suites === 0) {
  failed++;
  say('no test suite reported a result');
}
// A failure's reason again at the end, where a reader of the output's last lines (a CI log cut to
// its tail) finds it: its assertions and diffs, the whole of it printed above and in the log file.
for (const { file, details } of progress.failures()) {
  say(`failed: ${file}`);
  const recap = failureRecap(details);
  for (const line of recap.slice(0, FAILURE_RECAP_LINES)) console.log(`       ${line}`);
  if (recap.length > FAILURE_RECAP_LINES) console.log(`       … ${recap.length - FAILURE_RECAP_LINES} more lines above`);
}
dropTemplate();
await infra.stop();
const seconds = Math.round((Date.now() - startedAt) / 1000);
// How busy the machine's cores were over the run (this run and anything beside it): near 100% the run is
// bound by CPU, and only less work makes it shorter; well below, more at once would (docs/testing.md).
const cpuBusy = machineBusy(cpuAtStart, os.cpus());
writeFileSync(
  path.join(dataDir, 'test-timings.json'),
  `${JSON.stringify({ startedAt: new Date(startedAt).toISOString(), seconds, cpuBusy, filters: process.argv.slice(2), passed, failed, checks: checkTimings, files: progress.timings() }, null, 1)}\n`,
);
say(
  `${seconds} s (the machine's ${os.cpus().length} cores ${Math.round(cpuBusy * 100)}% busy); the whole output is in ${path.relative(root, logFile)} (npm run test:timings: the slowest files)`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(interrupted ? 130 : failed === 0 ? 0 : 1);

/** The share of the cores' time spent busy between two readings of os.cpus(). */
function machineBusy(before: os.CpuInfo[], after: os.CpuInfo[]): number {
  let busy = 0;
  let all = 0;
  after.forEach((cpu, i) => {
    const was = before[i]?.times;
    if (!was) return;
    const idle = cpu.times.idle - was.idle;
    const total = Object.values(cpu.times).reduce((a, b) => a + b, 0) - Object.values(was).reduce((a, b) => a + b, 0);
    busy += total - idle;
    all += total;
  });
  return all > 0 ? Number((busy / all).toFixed(3)) : 0;
}
