// What the `npm start` tests share: run it (in this checkout or a copy) with its own embedded
// Postgres and nats-server, wait until it is up, and see every process it owns.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import { waitFor } from '@bo/service-kit/testing';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every live descendant of pid, with its command line (ps works on Linux and macOS). */
export function descendants(pid: number): Map<number, string> {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,command='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), command: m[3] }));
  const found = new Map<number, string>();
  const walk = (p: number) => {
    for (const r of rows)
      if (r.ppid === p && !found.has(r.pid)) {
        found.set(r.pid, r.command!);
        walk(r.pid);
      }
  };
  walk(pid);
  return found;
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The parent of each live process (ps works on Linux and macOS). */
function parents(): Map<number, number> {
  return new Map(
    execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]),
  );
}

/**
 * The one process of `tree` whose command line matches, not counting a child of another match: a
 * backend Postgres has just forked carries its postmaster's command line until it renames itself.
 */
export function pidOf(tree: Map<number, string>, command: RegExp): number {
  const matching = [...tree].filter(([, cmd]) => command.test(cmd));
  const parentOf = parents();
  const pids = new Set(matching.map(([pid]) => pid));
  const found = matching.filter(([pid]) => !pids.has(parentOf.get(pid) ?? 0));
  if (found.length !== 1) throw new Error(`expected one process matching ${command}, found ${JSON.stringify(found)} among ${JSON.stringify([...tree])}`);
  return found[0]![0];
}

export interface Started {
  npm: ChildProcess;
  /** What npm start printed so far. */
  output: () => string;
  /**
   * Everything it printed, once its output is closed (every process holding the pipe has exited;
   * at most a minute). After a stop, read this, not output(): the last line ("[start] stopped") can
   * still be in the pipe when the processes are already gone (a loaded run, 2026-11-27).
   */
  finalOutput: () => Promise<string>;
  /** Every process `npm start` ran once it was up. */
  tree: Map<number, string>;
  /** The start script's pid. */
  script: number;
}

/**
 * `npm start` in `root` (this checkout unless given), in its own process group as a terminal would
 * make it (so "Ctrl-C" can be sent to the group), on `port` (public), port+1 (admin) and
 * metricsPort … metricsPort+5 (default port+4000), with data in `dataDir` (default: the
 * checkout's .data); resolves once it is up.
 */
export async function startSystem(opts: {
  port: number;
  metricsPort?: number;
  dataDir?: string;
  root?: string;
  env?: Record<string, string>;
}): Promise<Started> {
  // DATABASE_URL / NATS_URL (which `npm test` sets) would win over START_OWN_SERVERS.
  const { DATABASE_URL: _db, NATS_URL: _nats, ...inherited } = process.env;
  const npm = spawn('npm', ['start'], {
    cwd: opts.root ?? ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      START_OWN_SERVERS: '1',
      ...(opts.dataDir ? { START_DATA_DIR: opts.dataDir } : {}),
      PORT: String(opts.port),
      ADMIN_PORT: String(opts.port + 1),
      METRICS_PORT: String(opts.metricsPort ?? opts.port + 4000),
      NATS_PREFIX: 'startstop',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
  });
  let out = '';
  let closed = false;
  npm.on('close', () => {
    closed = true;
  });
  npm.stdout!.on('data', (d: Buffer) => {
    out += d;
  });
  npm.stderr!.on('data', (d: Buffer) => {
    out += d;
  });
  await waitFor(async () => out.includes('Back-office API is up') || npm.exitCode !== null, {
    timeoutMs: 180_000,
    intervalMs: 200,
    what: 'npm start to be up',
  });
  if (!out.includes('Back-office API is up')) throw new Error(`npm start failed:\n${out}`);
  const tree = descendants(npm.pid!);
  const finalOutput = async () => {
    await waitFor(async () => closed, { timeoutMs: 60_000, intervalMs: 100, what: "npm start's output to close" }).catch(() => undefined);
    return out;
  };
  return { npm, output: () => out, finalOutput, tree, script: pidOf(tree, /scripts\/start\.ts/) };
}

/** Waits until none of these processes is left; returns those still alive after a minute. */
export async function leftAfterStop(tree: Map<number, string>, what: string): Promise<Array<[number, string]>> {
  return waitFor(
    async () => {
      const remaining = [...tree.keys()].filter(alive);
      return remaining.length === 0 ? [] : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200, what },
  ).catch(() => [...tree].filter(([pid]) => alive(pid)));
}

/**
 * A copy of this checkout in a fresh `mktemp -d` folder (0700, only its owner may enter), as a
 * checkout under /root would be: the sources copied, node_modules hard-linked (cp -al: no bytes
 * copied, and a path under the private folder is what matters). Its node_modules files are this
 * checkout's: replace one by removing it first, never write into it. Removed at teardown.
 */
export function privateCheckout(t: Test): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-checkout-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = path.join(dir, 'app');
  mkdirSync(app);
  // What `npm start` reads: the package files (its prestart checks the install), the scripts, the
  // workspaces it runs, and the docs the gateway serves.
  for (const entry of ['package.json', 'package-lock.json', 'scripts', 'services', 'packages', 'docs'])
    cpSync(path.join(ROOT, entry), path.join(app, entry), { recursive: true, verbatimSymlinks: true });
  execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), app]);
  return app;
}
