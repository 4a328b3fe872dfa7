// `npm run test:load`: the suite shaken as CI's busy machine will shake it (issue #71). Runs the README's
// test command (`npm test`, or `npm test -- <names>` for a selection) several times in a row, each with
// CPU-bound processes beside it, and says which files failed in which run. A test whose deadline is shorter
// than a loaded machine needs, or that counts rows a background loop also writes, fails here first.
//
//   npm run test:load -- [--runs N] [--burners K] [names…]     (defaults: 3 runs, 2 burners, the whole suite)
//
// Each run's output goes to .data/test-load/run-N.log and its timings to .data/test-load/run-N-timings.json
// (`npm run test:timings -- --data` reads neither: it wants the folder; copy one to test-timings.json there).
// Exits 1 when any run failed. docs/testing.md, "The suite under load".
import { spawn } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FileTiming } from './tap-progress.ts';

export interface LoadOptions {
  runs: number;
  burners: number;
  names: string[];
}

/** The command line: `--runs N`, `--burners K` (whole numbers), the rest names for `npm test --`. */
export function parseLoadArgs(args: string[]): LoadOptions {
  const out: LoadOptions = { runs: 3, burners: 2, names: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--runs' || arg === '--burners') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < (arg === '--runs' ? 1 : 0))
        throw new Error(`${arg} takes a whole number${arg === '--runs' ? ' of at least 1' : ''}`);
      out[arg === '--runs' ? 'runs' : 'burners'] = value;
    } else if (arg !== '--') out.names.push(arg);
  }
  return out;
}

export interface RunResult {
  run: number;
  passed: number;
  failed: number;
  seconds: number;
  /** The highest 1-minute load average seen during the run. */
  maxLoad: number;
  failedFiles: string[];
}

/** The closing table: a line per run, then every file that failed with the runs it failed in. */
export function loadSummary(results: RunResult[], burners: number): string[] {
  const lines = results.map(
    (r) =>
      `run ${r.run}: ${r.passed} passed, ${r.failed} failed in ${r.seconds} s (${burners} CPU-bound process${burners === 1 ? '' : 'es'} beside it, load average up to ${r.maxLoad.toFixed(1)})`,
  );
  const byFile = new Map<string, number[]>();
  for (const r of results) for (const f of r.failedFiles) byFile.set(f, [...(byFile.get(f) ?? []), r.run]);
  for (const [file, runs] of byFile) lines.push(`failed: ${file} (run ${runs.join(', ')})`);
  const green = results.filter((r) => r.failed === 0).length;
  lines.push(`${green} of ${results.length} runs green`);
  return lines;
}

/** The last `N passed, M failed` line of a run's output. */
export function closingCount(output: string): { passed: number; failed: number } | undefined {
  const m = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : undefined;
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  const outDir = path.join(root, '.data/test-load');
  mkdirSync(outDir, { recursive: true });
  let options: LoadOptions;
  try {
    options = parseLoadArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`[test:load] ${(err as Error).message}: npm run test:load -- [--runs N] [--burners K] [names…]`);
    process.exit(2);
  }
  const results: RunResult[] = [];
  let stopping = false;
  let current: ReturnType<typeof spawn> | undefined;
  const burners: Array<ReturnType<typeof spawn>> = [];
  const stopBurners = () => {
    for (const b of burners.splice(0)) b.kill('SIGKILL');
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopping = true;
      stopBurners();
      current?.kill('SIGTERM');
    });
  }
  for (let run = 1; run <= options.runs && !stopping; run++) {
    // A busy loop each: the CPU-bound work of another engineer or another CI job on the same cores.
    for (let i = 0; i < options.burners; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    console.log(
      `[test:load] run ${run} of ${options.runs}: npm test${options.names.length ? ` -- ${options.names.join(' ')}` : ''}, ${options.burners} CPU-bound beside it`,
    );
    const log = path.join(outDir, `run-${run}.log`);
    const out = createWriteStream(log);
    let maxLoad = os.loadavg()[0]!;
    const sampler = setInterval(() => (maxLoad = Math.max(maxLoad, os.loadavg()[0]!)), 5_000);
    const started = Date.now();
    const timings = path.join(root, '.data/test-timings.json');
    rmSync(timings, { force: true });
    let text = '';
    // The README's command itself, as .ci/run runs it (npm puts node_modules/.bin on the PATH).
    current = spawn('npm', ['test', ...(options.names.length ? ['--', ...options.names] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    current.stdout!.on('data', (d: Buffer) => {
      out.write(d);
      text = (text + d.toString()).slice(-20_000);
    });
    current.stderr!.on('data', (d: Buffer) => out.write(d));
    await new Promise<void>((resolve) => current!.once('close', () => resolve()));
    clearInterval(sampler);
    stopBurners();
    await new Promise<void>((resolve) => out.end(resolve));
    const files: FileTiming[] = existsSync(timings) ? JSON.parse(readFileSync(timings, 'utf8')).files : [];
    if (existsSync(timings)) copyFileSync(timings, path.join(outDir, `run-${run}-timings.json`));
    const count = closingCount(text) ?? { passed: 0, failed: 1 };
    const result: RunResult = {
      run,
      ...count,
      seconds: Math.round((Date.now() - started) / 1000),
      maxLoad,
      failedFiles: files.filter((f) => !f.ok).map((f) => `${f.workspace} ${f.file}`),
    };
    results.push(result);
    console.log(`[test:load] ${loadSummary([result], options.burners)[0]} (output: ${path.relative(root, log)})`);
  }
  for (const line of loadSummary(results, options.burners)) console.log(`[test:load] ${line}`);
  process.exit(results.every((r) => r.failed === 0) && !stopping ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
