// `npm run bench`: measures the gateway on this machine against a bare Fastify baseline, back to
// back. Starts everything it needs on a fresh database and NATS prefix and removes them after.
//
// Processes: this one (orchestration and the players service, in-process via startService), the
// gateway (bench/gateway-process.ts, startGateway on ephemeral ports), the baseline
// (bench/hello-process.ts) and one load generator per run (bench/load.ts, autocannon). Keeping
// the load generator out of the gateway's process keeps it off the gateway's event loop and lets
// the gateway's memory be read alone.
//
// Exits non-zero only when the benchmark cannot run (startup, a failed pre-check request, a
// crashed child), never because of a figure.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { OperatorClient, type CreatedOperator } from '@bo/contracts';
import { cleanupNatsPrefix, createTestDatabase, loadConfig, startService, testNatsUrl, testPrefix, waitFor, type RunningService, type TestDatabase } from '@bo/service-kit';
import { PlayersConfigSchema, playersService } from '@bo/players';
import { ask, forkReady, stopChild } from './child.ts';
import type { GatewayReady, MemoryReport } from './gateway-process.ts';
import type { LoadSpec, LoadSummary, ScenarioKind } from './load.ts';
import { formatTable, mb, toMemoryFigures, type BenchResults, type ScenarioResult } from './report.ts';
import { cpfFor } from './requests.ts';

const DURATION_SEC = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_SEC = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Which runs to do, e.g. BENCH_SCENARIOS=me to look at one path alone; default all.
const SCENARIOS = new Set((process.env.BENCH_SCENARIOS ?? 'hello,me,createPlayer').split(',').map((s) => s.trim()));
// The contract's maximum; 1,000,000 a minute is far above what one gateway serves here.
const RATE_LIMIT_PER_MINUTE = 1_000_000;
const RESULTS_FILE = new URL('./results/latest.json', import.meta.url);

process.env.LOG_LEVEL ??= 'warn';

const round2 = (n: number): number => Math.round(n * 100) / 100;

function log(line: string): void { process.stderr.write(`[bench] ${line}\n`); }

async function adminCall(adminUrl: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** One warm-up + measured run in a fresh load-generator process. */
async function runLoad(spec: LoadSpec): Promise<LoadSummary> {
  log(`${spec.name}: ${spec.warmupSec} s warm-up + ${spec.durationSec} s, ${spec.connections} connections`);
  const { proc } = await forkReady(new URL('./load.ts', import.meta.url), {});
  const { summary } = await ask<{ summary: LoadSummary }>(proc, { type: 'run', spec }, 'result');
  await new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())));
  return summary;
}

/** Samples the gateway's RSS while `work` runs; returns its result and the highest sample. */
async function sampleRss<T>(gateway: ChildProcess, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const m = await ask<MemoryReport>(gateway, { type: 'memory' }, 'memory').catch(() => undefined);
      if (m) peak = Math.max(peak, m.rss);
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  try {
    return { result: await work(), peak };
  } finally {
    sampling = false;
    await loop;
  }
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = os.loadavg()[0];
  const runId = randomBytes(4).toString('hex');
  const adminToken = randomBytes(24).toString('hex');
  const cleanups: Array<() => Promise<unknown>> = [];
  let db: TestDatabase | undefined;
  let prefix: string | undefined;
  try {
    db = await createTestDatabase('bench');
    prefix = testPrefix('bench');
    const base = { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix };
    log(`database ${db.name}, NATS prefix ${prefix}`);

    const players: RunningService = await startService(playersService, loadConfig(PlayersConfigSchema, base));
    cleanups.push(() => players.stop());

    const gateway = await forkReady<GatewayReady>(new URL('./gateway-process.ts', import.meta.url), {
      ...base, PORT: '0', ADMIN_PORT: '0', ADMIN_TOKEN: adminToken,
      SECRETS_MASTER_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: process.env.LOG_LEVEL!,
    }, ['--expose-gc']);
    cleanups.push(() => stopChild(gateway.proc));
    const { publicUrl, adminUrl } = gateway.ready;
    log(`gateway pid ${gateway.ready.pid} at ${publicUrl} (admin ${adminUrl})`);

    const hello = await forkReady<{ type: 'ready'; url: string }>(new URL('./hello-process.ts', import.meta.url), {});
    cleanups.push(() => stopChild(hello.proc));

    // An operator whose limit the benchmark cannot reach, set through the admin API.
    const created = await adminCall(adminUrl, adminToken, 'POST', '/admin/operators', { name: 'Bench Operator' });
    if (created.status !== 201) throw new Error(`creating the operator failed: ${created.status} ${JSON.stringify(created.body)}`);
    const operator = created.body as CreatedOperator;
    const limited = await adminCall(adminUrl, adminToken, 'PUT', `/admin/operators/${operator.operator.id}/rate-limit`, { perMinute: RATE_LIMIT_PER_MINUTE });
    if (limited.status !== 200) throw new Error(`setting the rate limit failed: ${limited.status} ${JSON.stringify(limited.body)}`);
    const creds = { key: operator.sandbox.key, secret: operator.sandbox.secret };

    // Pre-checks: a signed request of each kind must succeed before any load is sent, and the new
    // limit must be in force (the credential cache sees the change within its TTL).
    const client = new OperatorClient({ baseUrl: `${publicUrl}/api/v1`, ...creds });
    await waitFor(async () => {
      const me = await client.get('/me');
      if (me.status !== 200) throw new Error(`pre-check GET /me answered ${me.status}: ${me.text}`);
      return me.headers.get('ratelimit-limit') === String(RATE_LIMIT_PER_MINUTE);
    }, { timeoutMs: 10_000, what: 'the new rate limit to be in force' });
    const first = await client.post('/players', {
      externalId: `bench-${runId}-precheck`, name: 'Bench Precheck', email: `precheck-${runId}@example.com`, cpf: cpfFor(999_999), birthDate: '1990-05-17',
    }, { 'idempotency-key': `bench-${runId}-precheck` });
    if (first.status !== 201) throw new Error(`pre-check POST /players answered ${first.status}: ${first.text}`);

    const before = await ask<MemoryReport>(gateway.proc, { type: 'memory', gc: true }, 'memory');
    const spec = (name: string, kind: ScenarioKind, url: string, idSuffix: string): LoadSpec => ({
      name, kind, url, runId: `${runId}${idSuffix}`, creds: kind === 'hello' ? undefined : creds,
      connections: CONNECTIONS, durationSec: DURATION_SEC, warmupSec: WARMUP_SEC,
    });

    // CPU the gateway process and this process (the players service) used during a gateway run,
    // warm-up included, as a share of one core: shows which side is saturated.
    const withCpu = async (s: LoadSpec): Promise<ScenarioResult> => {
      const g0 = await ask<MemoryReport>(gateway.proc, { type: 'memory' }, 'memory');
      const p0 = process.cpuUsage();
      const t0 = performance.now();
      const summary = await runLoad(s);
      const wallMicros = (performance.now() - t0) * 1000;
      const g1 = await ask<MemoryReport>(gateway.proc, { type: 'memory' }, 'memory');
      const p1 = process.cpuUsage(p0);
      const gatewayMicros = g1.cpuMicros - g0.cpuMicros;
      const playersMicros = p1.user + p1.system;
      const answered = summary.total + (summary.warmup?.total ?? 0);
      const pct = (micros: number) => Math.round((micros / wallMicros) * 100);
      const perRequestMs = (micros: number) => Math.round((micros / 1000 / Math.max(1, answered)) * 1000) / 1000;
      return {
        ...summary,
        cpuPercentOfOneCore: { gateway: pct(gatewayMicros), playersService: pct(playersMicros) },
        cpuMsPerRequest: { gateway: perRequestMs(gatewayMicros), playersService: perRequestMs(playersMicros) },
      };
    };

    // Baseline, gateway, baseline again: the two baselines bracket the gateway runs so drift shows.
    const scenarios: ScenarioResult[] = [];
    if (SCENARIOS.has('hello')) scenarios.push(await runLoad(spec('baseline: Fastify hello-world', 'hello', hello.ready.url, 'h1')));
    const gatewayRuns = await sampleRss(gateway.proc, async () => [
      ...(SCENARIOS.has('me') ? [await withCpu(spec('GET /api/v1/me (auth + rate limit)', 'me', publicUrl, 'me'))] : []),
      ...(SCENARIOS.has('createPlayer') ? [await withCpu(spec('POST /api/v1/players (NATS + Postgres)', 'createPlayer', publicUrl, 'p'))] : []),
    ]);
    scenarios.push(...gatewayRuns.result);
    if (SCENARIOS.has('hello')) scenarios.push(await runLoad(spec('baseline again', 'hello', hello.ready.url, 'h2')));

    const after = await ask<MemoryReport>(gateway.proc, { type: 'memory' }, 'memory');
    const afterGc = await ask<MemoryReport>(gateway.proc, { type: 'memory', gc: true }, 'memory');

    const rows = await players.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from players.players');
    const post = scenarios.find((s) => s.kind === 'createPlayer');
    const created201 = 1 + (post?.statusCodes['201'] ?? 0) + (post?.warmup?.statusCodes['201'] ?? 0);
    const sent = 1 + (post?.sent ?? 0) + (post?.warmup?.sent ?? 0);

    const results: BenchResults = {
      startedAt,
      finishedAt: new Date().toISOString(),
      loadAverage1m: { atStart: round2(loadBefore), atEnd: round2(os.loadavg()[0]) },
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown', totalMemMb: Math.round(mb(os.totalmem())), node: process.versions.node, platform: `${os.platform()} ${os.release()}` },
      settings: { connections: CONNECTIONS, durationSec: DURATION_SEC, warmupSec: WARMUP_SEC, loopbackOnly: true, scenarios: [...SCENARIOS] },
      scenarios,
      gatewayMemory: { before: toMemoryFigures(before), peakRssMb: mb(Math.max(gatewayRuns.peak, after.rss)), after: toMemoryFigures(after), afterGc: toMemoryFigures(afterGc) },
      playersCheck: { rowsInDatabase: rows[0]?.n ?? 0, created201, sent },
    };
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\n${formatTable(results)}\n\nwritten to bench/results/latest.json\n`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => log(`cleanup failed: ${String(err)}`));
    if (prefix) await cleanupNatsPrefix(prefix).catch((err) => log(`removing NATS prefix ${prefix} failed: ${String(err)}`));
    if (db) await db.drop().catch((err) => log(`dropping database ${db!.name} failed: ${String(err)}`));
  }
}

try {
  await main();
  process.exit(0);
} catch (err) {
  log(`the benchmark could not run: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  process.exit(1);
}
