// Test resources: every test file gets its own database and NATS prefix and removes them after.
import { randomBytes, randomInt } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { eventsStreamName, internalStreamName } from '@bo/contracts';

export { setRuleClockOffset } from './clock.ts';

/** What a test file's time goes to, as `npm run test:timings` reports it. */
export type TestPhase = 'database' | 'service start' | 'process start' | 'system start' | 'wait' | 'chromium';

/**
 * Notes that this test file spent `ms` in `phase`, when `npm test` asks for it (BO_TEST_PHASES names
 * the file; scripts/test.ts). Phases of one file may overlap (two waits at once): they say where
 * time goes, they do not add up to the file's wall time.
 */
export function notePhase(phase: TestPhase, ms: number): void {
  const file = process.env.BO_TEST_PHASES;
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify({ file: process.argv[1], phase, ms: Math.round(ms) })}\n`);
  } catch {
    // a report, never a reason for a test to fail
  }
}

/** Runs `fn` and notes its time under `phase`, whether it resolves or throws. */
export async function timedPhase<T>(phase: TestPhase, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    notePhase(phase, performance.now() - started);
  }
}
export function serverDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}
export function testNatsUrl(): string {
  return process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A database of the test's own. Under `npm test` it is a clone of the run's template
 * (BO_TEST_TEMPLATE_DB, made by scripts/test-template-db.ts: every service's schema already
 * migrated, so the services that start on it find nothing to migrate); `empty: true`, or a run
 * without a template (one file run by hand), gives an empty one, where each service migrates its
 * own schema as in production. A test about migrations themselves asks for an empty one.
 */
export async function createTestDatabase(label = 't', opts: { empty?: boolean } = {}): Promise<TestDatabase> {
  const started = performance.now();
  const name = `bo_${label
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const template = opts.empty ? undefined : process.env.BO_TEST_TEMPLATE_DB;
  const admin = new pg.Client({ connectionString: withDatabase(serverDatabaseUrl(), 'postgres') });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  notePhase('database', performance.now() - started);
  return {
    url: withDatabase(serverDatabaseUrl(), name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: withDatabase(serverDatabaseUrl(), 'postgres') });
      await c.connect();
      try {
        // A pg Pool's end() resolves once its clients were told to end, not once their backends are
        // gone: forced at once, the drop could terminate a backend still closing, and its client would
        // get FATAL 57P01 as an unhandled error (seen under load). Each goes within milliseconds of its
        // client's end, so wait for the last one (for a second at most), then force away what is left.
        for (let tries = 0; tries < 50; tries++) {
          const { rows } = await c.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0]!.n === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export function testPrefix(label = 't'): string {
  return `t${label
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 12)}${randomBytes(4).toString('hex')}`;
}

/** Removes the stream, consumers and KV buckets a test prefix created. */
export async function cleanupNatsPrefix(prefix: string): Promise<void> {
  const nc = await connect({ servers: testNatsUrl().split(',') });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(eventsStreamName(prefix)).catch(() => undefined);
    await jsm.streams.delete(internalStreamName(prefix)).catch(() => undefined);
    const kvm = new Kvm(nc);
    for await (const status of kvm.list()) {
      if (status.bucket.startsWith(prefix)) await jsm.streams.delete(`KV_${status.bucket}`).catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}

export async function waitFor<T>(
  fn: () => Promise<T | undefined | null | false>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  // Generous by default: a busy machine is slow, and a condition that holds returns at once.
  const started = performance.now();
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  try {
    for (;;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}`);
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
    }
  } finally {
    notePhase('wait', performance.now() - started);
  }
}

/** A random CPF with valid check digits (never all one digit), for tests and benchmarks. */
export function randomCpf(): string {
  const d = Array.from({ length: 9 }, () => randomInt(0, 10));
  if (d.every((x) => x === d[0])) d[0] = (d[0]! + 1) % 10;
  const digit = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += d[i]! * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  d.push(digit(9));
  d.push(digit(10));
  return d.join('');
}

export interface ServiceProcess {
  pid: number;
  /** Resolves when the process ends (at a crash point: killed by SIGKILL). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last 8000 characters the process wrote to stderr (its logs). */
  stderrTail(): string;
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM (graceful), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/**
 * The file a test starts a service process from: under `npm test` its bundle
 * (BO_TEST_SERVICE_BUNDLES, scripts/test-service-bundles.ts: the same code in one file, a third of
 * the CPU to start), else `main` itself (a test file run by hand).
 */
export function serviceEntry(main: string | URL): string {
  const file = main instanceof URL ? fileURLToPath(main) : main;
  const bundles = process.env.BO_TEST_SERVICE_BUNDLES;
  const service = /[/\\]services[/\\]([^/\\]+)[/\\]src[/\\]main\.ts$/.exec(file)?.[1];
  if (!bundles || !service) return file;
  const bundle = path.join(bundles, `${service}.mjs`);
  return existsSync(bundle) ? bundle : file;
}

/**
 * A service as a real child process (`node services/<svc>/src/main.ts`, or its bundle: serviceEntry), for crash tests: start it
 * with CRASH_AT=<point>, let it die there, start it again without, check the invariants. Resolves
 * once the service logged that it started (its subscriptions are registered by then).
 */
export async function spawnServiceProcess(name: string, main: string | URL, env: Record<string, string | number | undefined>): Promise<ServiceProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete childEnv.CRASH_AT;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = String(v);
  const proc: ChildProcess = spawn(process.execPath, [serviceEntry(main)], {
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await timedPhase(
    'process start',
    () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} did not start in time:\n${tail}`)), 120_000);
        proc.stderr!.on('data', (chunk: Buffer) => {
          tail = (tail + chunk.toString()).slice(-8000);
          if (tail.includes(`"msg":"${name} service started"`)) {
            clearTimeout(timer);
            resolve();
          }
        });
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${tail}`));
        });
      }),
  );
  return {
    pid: proc.pid!,
    exited,
    stderrTail: () => tail,
    kill: (signal = 'SIGKILL') => {
      proc.kill(signal);
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
