// `npm run bench`: measures the system on this machine against bare references, back to back in
// one run, as ratios. Starts everything it needs on a fresh database and NATS prefix and removes
// them after. docs/benchmarks.md has the method and a recorded run.
//
// Processes: this one (orchestration only: it does nothing while a run is under way), the gateway
// (gateway-process.ts), each domain service (service-process.ts: players, wallet, payments,
// webhooks), the references (hello-process.ts; bare-process.ts as a bare gateway and a bare
// service), a local webhook receiver (webhook-receiver.ts) and one load generator per run
// (load.ts, autocannon). Every process reports its own CPU time, so CPU per operation is read per
// process.
//
// Exits non-zero only when the benchmark cannot run (startup, a failed setup request, a crashed
// child), never because of a figure.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { OperatorClient, type CreatedOperator } from '@bo/contracts';
import { cleanupNatsPrefix, createTestDatabase, testPrefix, waitFor, type TestDatabase } from '@bo/service-kit/testing';
import { ask, forkReady, stopChild } from './child.ts';
import { resolveInfrastructure } from './infrastructure.ts';
import type { GatewayReady, MemoryReport } from './gateway-process.ts';
import type { LoadSpec, LoadSummary, ScenarioKind } from './load.ts';
import type { BenchPlayer, BenchSession, ProviderBenchSession, ProviderCredentials } from './money-requests.ts';
import type { ReceiverStats } from './webhook-receiver.ts';
import { formatReport, formatTracingComparison, mb, type BenchResults, type ScenarioResult } from './report.ts';
import type { SinkStats } from './otlp-sink.ts';
import { cpfFor, type Credentials } from './requests.ts';
import { lagBetween, readLagHistogram, watchDrained, type WatchLag } from './aml-watch.ts';
import { setUpHub88 } from './hub88-setup.ts';

const DURATION_SEC = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_SEC = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 200);
const BRANDS = Number(process.env.BENCH_BRANDS ?? 32);
/** BENCH_SOAK=600: instead of the scenarios, deposits at a steady rate for that many seconds, RSS sampled. */
const SOAK_SEC = Number(process.env.BENCH_SOAK ?? 0);
const SOAK_RATE = Number(process.env.BENCH_SOAK_RATE ?? 100);
// `rg`: the same operator with its compliance profile `off`, then `br-spa` (players with limits out
// of reach), then `off` again, A B B A: deposits and real-money rounds side by side (docs/responsible-gaming.md).
// `brspa` (not in the default set): registrations and deposits of an operator under the compliance
// profile off and one under br-spa (simulated registry answering at once), in the order A B B A.
const ALL = 'bare,hello,me,createPlayer,deposit,wallet,spread,rounds,provider,hub88,rg';
const SCENARIOS = new Set((process.env.BENCH_SCENARIOS ?? ALL).split(',').map((s) => s.trim()));
const RATE_LIMIT_PER_MINUTE = 1_000_000;
const RESULTS_DIR = new URL('./results/', import.meta.url);
/**
 * BENCH_TRACING=off,100,10: the whole run once per mode, tracing off or on with that percentage of
 * traces sampled (the SDK's parentbased_traceidratio), exporting to a local collector that drops
 * what it gets (otlp-sink.ts); then the modes side by side. Default: off.
 */
const TRACING = (process.env.BENCH_TRACING ?? 'off').split(',').map((s) => s.trim());
for (const m of TRACING) if (m !== 'off' && !(Number(m) > 0 && Number(m) <= 100)) throw new Error(`BENCH_TRACING: '${m}' is neither off nor a percentage`);
const SERVICES = ['players', 'wallet', 'payments', 'webhooks', 'operators', 'compliance'] as const;

process.env.LOG_LEVEL ??= 'warn';

const round2 = (n: number): number => Math.round(n * 100) / 100;
function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** `actor`: the stand-in person ADMIN_TOKEN is outside production (X-Admin-Actor, a label): four eyes tells two apart. */
async function adminCall(
  adminUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  actor?: string,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${adminUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(actor ? { 'x-admin-actor': actor } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function expectStatus(what: string, res: { status: number; text?: string; body?: unknown }, status: number): void {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${res.text ?? JSON.stringify(res.body)}`);
}

/** Runs `fn` over `items` with at most `limit` in flight (setup only). */
async function inBatches<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

async function runLoad(spec: LoadSpec): Promise<LoadSummary> {
  log(`${spec.name}: ${spec.warmupSec} s warm-up + ${spec.durationSec} s, ${spec.connections} connections`);
  const { proc } = await forkReady(new URL('./load.ts', import.meta.url), {});
  const { summary } = await ask<{ summary: LoadSummary }>(proc, { type: 'run', spec }, 'result');
  await new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())));
  return summary;
}

/** What a process has used so far: CPU time and write syscalls (/proc/<pid>/io `syscw`, socket writes included). */
interface Usage {
  micros: number;
  writes: number;
}

const TICK_MICROS = 1_000_000 / 100;

async function usageOfPid(pid: number | string): Promise<Usage | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => '');
  return { micros: (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * TICK_MICROS, writes: Number(/syscw:\s*(\d+)/.exec(io)?.[1] ?? 0) };
}

/** Usage of processes outside ours by name (nats-server), summed over their pids. */
async function externalUsage(name: string): Promise<Usage> {
  let pids: string[] = [];
  try {
    pids = execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return { micros: 0, writes: 0 };
  }
  const total = { micros: 0, writes: 0 };
  for (const pid of pids) {
    const u = await usageOfPid(pid);
    total.micros += u?.micros ?? 0;
    total.writes += u?.writes ?? 0;
  }
  return total;
}

type Proc = { name: string; proc: ChildProcess };

/**
 * Usage of each Postgres backend serving our database, by pid. Pools open and close connections
 * (idle timeouts), so a difference is taken per pid: a backend present at both ends counts its
 * delta, one that appeared counts all of it, one that went away is lost (an underestimate).
 */
async function backendUsageByPid(sql: pg.Client, database: string): Promise<Map<number, Usage>> {
  const { rows } = await sql.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
  const out = new Map<number, Usage>();
  for (const { pid } of rows) {
    const u = await usageOfPid(pid);
    if (u) out.set(pid, u);
  }
  return out;
}

interface UsageSnapshot {
  byProcess: Record<string, Usage>;
  backends?: Map<number, Usage>;
}

async function usageSnapshot(procs: Proc[], pgBackends?: () => Promise<Map<number, Usage>>): Promise<UsageSnapshot> {
  const byProcess: Record<string, Usage> = {};
  for (const p of procs) {
    const cpuMicros = (await ask<MemoryReport>(p.proc, { type: 'memory' }, 'memory')).cpuMicros;
    byProcess[p.name] = { micros: cpuMicros, writes: (p.proc.pid ? await usageOfPid(p.proc.pid) : undefined)?.writes ?? 0 };
  }
  byProcess['nats-server'] = await externalUsage('nats-server');
  return { byProcess, backends: pgBackends ? await pgBackends() : undefined };
}

/** BENCH_CPU_PROF=wallet,gateway: V8 CPU profiles of those processes, written to bench/results/ when they stop. */
function cpuProfileFlags(name: string): string[] {
  const wanted = (process.env.BENCH_CPU_PROF ?? '').split(',').map((s) => s.trim());
  return wanted.includes(name) ? ['--cpu-prof', `--cpu-prof-dir=${new URL('./results/', import.meta.url).pathname}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
}

/** CPU microseconds and write syscalls each process used between two snapshots. */
function usageBetween(a: UsageSnapshot, b: UsageSnapshot): Record<string, Usage> {
  const out: Record<string, Usage> = {};
  for (const [k, u] of Object.entries(b.byProcess)) {
    const before = a.byProcess[k] ?? { micros: 0, writes: 0 };
    out[k] = { micros: u.micros - before.micros, writes: u.writes - before.writes };
  }
  if (a.backends && b.backends) {
    const total = { micros: 0, writes: 0 };
    for (const [pid, u] of b.backends) {
      const before = a.backends.get(pid) ?? { micros: 0, writes: 0 };
      total.micros += u.micros - before.micros;
      total.writes += u.writes - before.writes;
    }
    out['postgres (our db)'] = total;
  }
  return out;
}

/** What the local collector received: its exports and their bytes. */
async function sinkStats(proc: ChildProcess): Promise<{ exports: number; bytes: number }> {
  const { exports, bytes } = await ask<SinkStats>(proc, { type: 'stats' }, 'stats');
  return { exports, bytes };
}

/** The children's tracing settings for a mode: off explicitly, whatever this shell has set. */
function tracingEnv(mode: string, endpoint: string | undefined): Record<string, string> {
  if (mode === 'off' || !endpoint) return { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_TRACES_EXPORTER: '' };
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: String(Number(mode) / 100),
  };
}

async function main(tracing: string): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const loadBefore = os.loadavg()[0];
  const runId = randomBytes(4).toString('hex');
  const adminToken = randomBytes(24).toString('hex');
  const masterKey = randomBytes(32).toString('base64');
  const cleanups: Array<() => Promise<unknown>> = [];
  let db: TestDatabase | undefined;
  let prefix: string | undefined;
  try {
    const infra = await resolveInfrastructure(log);
    cleanups.unshift(() => infra.stop()); // runs last: the servers outlive the database and prefix cleanup
    process.env.DATABASE_URL = infra.databaseUrl;
    process.env.NATS_URL = infra.natsUrl;
    db = await createTestDatabase('bench');
    prefix = testPrefix('bench');
    const sink = tracing === 'off' ? undefined : await forkReady<{ url: string }>(new URL('./otlp-sink.ts', import.meta.url), {});
    if (sink) cleanups.push(() => stopChild(sink.proc));
    const base = {
      DATABASE_URL: db.url,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: prefix,
      LOG_LEVEL: process.env.LOG_LEVEL!,
      SECRETS_MASTER_KEY: masterKey,
      ...tracingEnv(tracing, sink?.ready.url),
    };
    log(`database ${db.name}, NATS prefix ${prefix}, tracing ${tracing === 'off' ? 'off' : `on, ${tracing}% sampled`}`);
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    cleanups.push(() => sql.end());

    // Services first (each runs its migrations), one at a time so migrations do not race.
    const measured: Proc[] = [];
    for (const name of SERVICES) {
      const profile = cpuProfileFlags(name);
      const child = await forkReady(new URL('./service-process.ts', import.meta.url), { ...base, BENCH_SERVICE: name }, ['--expose-gc', ...profile]);
      cleanups.push(() => stopChild(child.proc));
      measured.push({ name, proc: child.proc });
    }
    const gateway = await forkReady<GatewayReady>(
      new URL('./gateway-process.ts', import.meta.url),
      {
        ...base,
        PORT: '0',
        ADMIN_PORT: '0',
        ADMIN_TOKEN: adminToken,
      },
      ['--expose-gc', ...cpuProfileFlags('gateway')],
    );
    cleanups.push(() => stopChild(gateway.proc));
    measured.unshift({ name: 'gateway', proc: gateway.proc });
    const { publicUrl, adminUrl } = gateway.ready;
    log(`gateway pid ${gateway.ready.pid} at ${publicUrl} (admin ${adminUrl})`);

    const bareService = await forkReady<{ pid: number }>(new URL('./bare-process.ts', import.meta.url), {
      ...base,
      BARE_ROLE: 'service',
      BARE_PREFIX: `${prefix}.bare`,
    });
    cleanups.push(() => stopChild(bareService.proc));
    const bareGateway = await forkReady<{ url: string }>(new URL('./bare-process.ts', import.meta.url), {
      ...base,
      BARE_ROLE: 'gateway',
      BARE_PREFIX: `${prefix}.bare`,
    });
    cleanups.push(() => stopChild(bareGateway.proc));
    const bare: Proc[] = [
      { name: 'bare gateway', proc: bareGateway.proc },
      { name: 'bare service', proc: bareService.proc },
    ];
    const hello = await forkReady<{ type: 'ready'; url: string }>(new URL('./hello-process.ts', import.meta.url), {});
    cleanups.push(() => stopChild(hello.proc));
    const receiver = await forkReady<{ url: string }>(new URL('./webhook-receiver.ts', import.meta.url), {});
    cleanups.push(() => stopChild(receiver.proc));

    // Operators: the first one takes every single-brand scenario; BRANDS of them (the first
    // included) take the spread deposit run. Limits out of reach, webhooks to the receiver.
    const operatorCount = SCENARIOS.has('spread') ? BRANDS : 1;
    const newOperator = async (i: number | string): Promise<CreatedOperator> => {
      const created = await adminCall(adminUrl, adminToken, 'POST', '/admin/operators', { name: `Bench Operator ${i}` });
      expectStatus('creating an operator', created, 201);
      const op = created.body as CreatedOperator;
      expectStatus(
        'setting the rate limit',
        await adminCall(adminUrl, adminToken, 'PUT', `/admin/operators/${op.operator.id}/rate-limit`, { perMinute: RATE_LIMIT_PER_MINUTE }),
        200,
      );
      expectStatus(
        'setting the webhook URL',
        await adminCall(adminUrl, adminToken, 'PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.ready.url }),
        200,
      );
      return op;
    };
    const operators = await inBatches(
      Array.from({ length: operatorCount }, (_, i) => i),
      4,
      newOperator,
    );
    // The responsible-gaming pair's own operator (profile off until its second half).
    const rgOperator = SCENARIOS.has('rg') ? await newOperator('RG') : undefined;
    const sandboxOf = (op: CreatedOperator): Credentials => ({ key: op.sandbox.key, secret: op.sandbox.secret });
    const productionOf = (op: CreatedOperator): Credentials => ({ key: op.production.key, secret: op.production.secret });
    const clientOf = (c: Credentials) => new OperatorClient({ baseUrl: `${publicUrl}/api/v1`, ...c });
    const creds = sandboxOf(operators[0]!);
    await waitFor(
      async () => {
        const me = await clientOf(creds).get('/me');
        expectStatus('pre-check GET /me', me, 200);
        return me.headers.get('ratelimit-limit') === String(RATE_LIMIT_PER_MINUTE);
      },
      { timeoutMs: 10_000, what: 'the new rate limit to be in force' },
    );

    let seq = 0;
    /** `payer`: confirms carry the player's CPF as payer; `limits`: the loss and time limits br-spa requires, at registration. */
    const newPlayer = async (c: Credentials, o: { payer?: boolean; limits?: boolean } = {}): Promise<BenchPlayer> => {
      const n = seq++;
      const res = await clientOf(c).post(
        '/players',
        {
          externalId: `bench-${runId}-setup-${n}`,
          name: 'Bench Player',
          email: `setup-${runId}-${n}@example.com`,
          cpf: cpfFor(900_000 + n),
          birthDate: '1990-05-17',
          // A br-spa player deposits only with its registration data and a loss and a time limit: collected at registration, out of reach.
          ...(o.limits
            ? {
                phone: '+5511987654321',
                gender: 'feminino',
                signupIp: '198.51.100.7',
                address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
                limits: [
                  { type: 'loss', period: 'day', value: '1000000.00' },
                  { type: 'time', period: 'day', value: 44_640 },
                ],
              }
            : {}),
        },
        { 'idempotency-key': `setup-${runId}-${n}` },
      );
      expectStatus('creating a setup player', res, 201);
      return { id: (res.body as { id: string }).id, creds: c, ...(o.payer ? { payerCpf: cpfFor(900_000 + n) } : {}) };
    };
    // The br-spa pair: a second operator switched to br-spa (the same rate limit and receiver).
    let brSpaOp: CreatedOperator | undefined;
    if (SCENARIOS.has('brspa')) {
      const created = await adminCall(adminUrl, adminToken, 'POST', '/admin/operators', { name: 'Bench Operator br-spa' });
      expectStatus('creating the br-spa operator', created, 201);
      brSpaOp = created.body as CreatedOperator;
      const id = brSpaOp.operator.id;
      expectStatus(
        'setting the rate limit',
        await adminCall(adminUrl, adminToken, 'PUT', `/admin/operators/${id}/rate-limit`, { perMinute: RATE_LIMIT_PER_MINUTE }),
        200,
      );
      expectStatus(
        'setting the webhook URL',
        await adminCall(adminUrl, adminToken, 'PUT', `/admin/operators/${id}/webhooks/sandbox`, { url: receiver.ready.url }),
        200,
      );
      expectStatus(
        'switching br-spa on',
        await adminCall(adminUrl, adminToken, 'PUT', `/admin/operators/${id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' }),
        200,
      );
    }
    const money = ['deposit', 'wallet', 'spread', 'rounds', 'brspa'].some((s) => SCENARIOS.has(s)) || SOAK_SEC > 0;
    const oneBrand = money ? await inBatches(Array.from({ length: PLAYERS }), 16, () => newPlayer(creds)) : [];
    const spread = SCENARIOS.has('spread') ? await inBatches(Array.from({ length: PLAYERS }), 16, (_, i) => newPlayer(sandboxOf(operators[i % BRANDS]!))) : [];
    const brSpaPlayers = brSpaOp
      ? await inBatches(Array.from({ length: PLAYERS }), 16, () => newPlayer(sandboxOf(brSpaOp!), { payer: true, limits: true }))
      : [];
    // Real-money play: production players, KYC approved by the team, funded, one session each.
    const fundedSessions = (
      op: CreatedOperator,
      tag: string,
      gameId = 'gm_aviator_demo',
    ): Promise<(BenchSession & { playerId: string; sessionId: string })[]> => {
      const live = productionOf(op);
      return inBatches(Array.from({ length: PLAYERS }), 16, async (_, i) => {
        const p = await newPlayer(live);
        expectStatus('approving KYC', await adminCall(adminUrl, adminToken, 'POST', `/admin/players/${p.id}/kyc/decision`, { status: 'aprovado' }), 200);
        const c = clientOf(live);
        const dep = await c.post(
          `/players/${p.id}/deposits`,
          { amount: '100000.00', currency: 'BRL', method: 'pix', externalReference: `fund${tag}-${runId}-${i}` },
          { 'idempotency-key': `fund${tag}-${runId}-${i}` },
        );
        expectStatus('funding deposit', dep, 201);
        expectStatus(
          'funding confirm',
          await c.post(`/deposits/${(dep.body as { id: string }).id}/confirm`, {}, { 'idempotency-key': `fundc${tag}-${runId}-${i}` }),
          200,
        );
        const session = await c.post(`/players/${p.id}/game-sessions`, { gameId });
        expectStatus('game session', session, 201);
        const { id, gameUrl } = session.body as { id: string; gameUrl: string };
        return { playerId: p.id, sessionId: id, roundsPath: `${new URL(gameUrl).pathname}/rounds` };
      });
    };
    const sessions: BenchSession[] = SCENARIOS.has('rounds') ? await fundedSessions(operators[0]!, '') : [];
    // The provider scenario: a provider registered by our team, offered to the first operator,
    // whose launch endpoint (here, in this process, during setup only) keeps each session's token.
    const providerSetup = async (): Promise<{ sessions: ProviderBenchSession[]; provider: ProviderCredentials }> => {
      const tokens = new Map<string, string>();
      const launcher = http.createServer(async (req, res) => {
        let raw = '';
        for await (const chunk of req) raw += chunk;
        const b = JSON.parse(raw) as { sessionId: string; token: string };
        tokens.set(b.sessionId, b.token);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: `https://provider.bench/${b.sessionId}` }));
      });
      await new Promise<void>((resolve) => launcher.listen(0, '127.0.0.1', resolve));
      try {
        const launchUrl = `http://127.0.0.1:${(launcher.address() as AddressInfo).port}`;
        const created = await adminCall(adminUrl, adminToken, 'POST', '/admin/providers', { name: `Bench aggregator ${runId}`, kind: 'casino', launchUrl });
        expectStatus('registering the provider', created, 201);
        const providerId = (created.body as { id: string }).id;
        const game = await adminCall(adminUrl, adminToken, 'PUT', `/admin/providers/${providerId}/games/bench-slot`, { name: 'Bench Slot', category: 'slots' });
        expectStatus("the provider's game", game, 200);
        const operatorId = operators[0]!.operator.id;
        expectStatus(
          'offering the provider',
          await adminCall(adminUrl, adminToken, 'PUT', `/admin/providers/${providerId}/operators/${operatorId}`, { enabled: true }),
          200,
        );
        const key = await adminCall(adminUrl, adminToken, 'POST', `/admin/providers/${providerId}/credentials`, { environment: 'production' });
        expectStatus("the provider's key", key, 201);
        const funded = await fundedSessions(operators[0]!, 'prv', (game.body as { id: string }).id);
        const { key: k, secret } = key.body as { key: string; secret: string };
        return {
          sessions: funded.map((f) => ({ playerId: f.playerId, token: tokens.get(f.sessionId)! })),
          provider: { key: k, secret, gameCode: 'bench-slot' },
        };
      } finally {
        launcher.close();
      }
    };
    const providerBench = SCENARIOS.has('provider') ? await providerSetup() : undefined;
    // Issue #58: Hub88's calls on a connector, over the same provider wallet (bench/hub88-setup.ts).
    const hub88Bench = SCENARIOS.has('hub88')
      ? await setUpHub88({
          admin: (method, path, body) => adminCall(adminUrl, adminToken, method, path, body),
          runId,
          operatorId: operators[0]!.operator.id,
          fundedSessions: (gameId) => fundedSessions(operators[0]!, 'hb', gameId),
        })
      : undefined;
    const rgDepositors = rgOperator ? await inBatches(Array.from({ length: PLAYERS }), 16, () => newPlayer(sandboxOf(rgOperator), { payer: true })) : [];
    const rgSessions = rgOperator ? await fundedSessions(rgOperator, 'rg') : [];
    log(
      `setup: ${operators.length + (rgOperator ? 1 : 0)} operators, ${oneBrand.length + spread.length + sessions.length + rgDepositors.length + rgSessions.length} players`,
    );

    const memoryBefore = Object.fromEntries(
      await Promise.all(measured.map(async (p) => [p.name, await ask<MemoryReport>(p.proc, { type: 'memory', gc: true }, 'memory')] as const)),
    );
    const spec = (name: string, kind: ScenarioKind, url: string, extra: Partial<LoadSpec> = {}): LoadSpec => ({
      name,
      kind,
      url,
      runId: `${runId}${kind}${seq++}`,
      creds: kind === 'me' || kind === 'createPlayer' ? creds : undefined,
      connections: CONNECTIONS,
      durationSec: DURATION_SEC,
      warmupSec: WARMUP_SEC,
      ...extra,
    });

    const pgBackends = () => backendUsageByPid(sql, db!.name);
    // What each process spends with no load at all (relays, reconciler, roll-up, delivery polls):
    // taken off the per-operation figures, shown on its own.
    const IDLE_SEC = 5;
    const i0 = await usageSnapshot([...measured, ...bare], pgBackends);
    await new Promise((r) => setTimeout(r, IDLE_SEC * 1000));
    const i1 = await usageSnapshot([...measured, ...bare], pgBackends);
    const idlePercent: Record<string, number> = {};
    const idleWritesPerSec: Record<string, number> = {};
    for (const [k, v] of Object.entries(usageBetween(i0, i1))) {
      idlePercent[k] = Math.round((v.micros / (IDLE_SEC * 1e6)) * 1000) / 10;
      idleWritesPerSec[k] = v.writes / IDLE_SEC;
    }
    log(
      `idle CPU % of a core: ${Object.entries(idlePercent)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );

    /**
     * The bench's tables are new, and fill in seconds. On a live database autovacuum analyzes a
     * table once 50 rows + 10% of it changed, at its next look (autovacuum_naptime, 1 min): its
     * statistics, and the plans every connection cached, follow the table. A bench run is shorter
     * than that minute, so without this each connection kept the generic plan it made while the
     * table was nearly empty: a sequential scan for a lookup by key, slower with every row (the
     * outbox's mark took 2–4 ms a call by the end of a deposit run). Before each run, the tables
     * autovacuum would analyze by now are analyzed, and the cached plans made again. Not the others:
     * an empty table analyzed is known to be empty, and plans made on that (the rounds' and provider
     * calls' tables before their first run) scan it whole as it fills; one never analyzed is planned
     * as if it had ten pages (docs/benchmarks.md, session 46).
     */
    const analyzeLikeAutovacuum = async () => {
      if (process.env.BENCH_ANALYZE === '0') return; // the bench as before session 46, for comparisons
      const { rows } = await sql.query<{ name: string }>(
        `select format('%I.%I', s.schemaname, s.relname) as name
           from pg_stat_user_tables s join pg_class c on c.oid = s.relid
          where s.n_mod_since_analyze >= 50 + 0.1 * greatest(c.reltuples, 0)`,
      );
      if (rows.length > 0) await sql.query(`analyze ${rows.map((r) => r.name).join(', ')}`);
    };
    /** One run with the CPU every process used (warm-up included, idle use taken off) per operation. */
    const measure = async (s: LoadSpec, procs: Proc[], requestsPerOp = 1): Promise<ScenarioResult> => {
      await analyzeLikeAutovacuum();
      const c0 = await usageSnapshot(procs, pgBackends);
      const t0 = performance.now();
      const summary = await runLoad(s);
      const wallMicros = (performance.now() - t0) * 1000;
      const c1 = await usageSnapshot(procs, pgBackends);
      const ops = (summary.total + (summary.warmup?.total ?? 0)) / requestsPerOp;
      const cpuMsPerOp: Record<string, number> = {};
      const cpuPercent: Record<string, number> = {};
      const writesPerOp: Record<string, number> = {};
      for (const [k, used] of Object.entries(usageBetween(c0, c1))) {
        // nats-server and Postgres serve the bare reference too: nothing to take off for them.
        const ours = procs.some((p) => p.name === k);
        const idle = ours ? ((idlePercent[k] ?? 0) / 100) * wallMicros : 0;
        const idleWrites = ours ? (idleWritesPerSec[k] ?? 0) * (wallMicros / 1e6) : 0;
        cpuMsPerOp[k] = Math.round((Math.max(0, used.micros - idle) / 1000 / Math.max(1, ops)) * 1000) / 1000;
        cpuPercent[k] = Math.round((used.micros / wallMicros) * 100);
        writesPerOp[k] = Math.round((Math.max(0, used.writes - idleWrites) / Math.max(1, ops)) * 10) / 10;
      }
      return { ...summary, requestsPerOp, opsPerSec: summary.requestsPerSec / requestsPerOp, cpuMsPerOp, cpuPercentOfOneCore: cpuPercent, writesPerOp };
    };

    /** Deposits run, then every confirmed deposit's webhook must arrive; lag from the receiver. */
    const depositRun = async (
      name: string,
      players: BenchPlayer[],
      brandIds: string[],
      extra: Partial<LoadSpec> = {},
      opts: { amlWatch?: boolean } = {},
    ): Promise<ScenarioResult> => {
      await ask(receiver.proc, { type: 'reset' }, 'reset');
      const s = spec(name, 'deposit', publicUrl, { players, ...extra });
      const compliance = measured.find((p) => p.name === 'compliance')!.proc;
      const lagBefore = opts.amlWatch ? await readLagHistogram(compliance) : undefined;
      const result = await measure(s, measured, 2);
      const confirmed = async () =>
        (
          await sql.query<{ n: number }>(
            `select count(*)::int as n from payments.deposits where status = 'confirmed' and brand_id = any($1) and external_reference like $2`,
            [brandIds, `bench-${s.runId}-%`],
          )
        ).rows[0]!.n;
      // Confirms the load generator left in flight may still complete: count again once the
      // webhooks caught up, until the count holds still.
      let n = await confirmed();
      let stats = await ask<ReceiverStats>(receiver.proc, { type: 'stats' }, 'stats');
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        if ((stats.byType['deposit.confirmed'] ?? 0) >= n) {
          const again = await confirmed();
          if (again === n) break;
          n = again;
          continue;
        }
        await new Promise((r) => setTimeout(r, 250));
        stats = await ask<ReceiverStats>(receiver.proc, { type: 'stats' }, 'stats');
      }
      if ((stats.byType['deposit.confirmed'] ?? 0) < n) {
        // Where the missing ones are, for whoever reads the NOT met: the run's deliveries by state, per operator.
        const states = await sql.query(
          `select e.operator_id, d.status, d.attempts, count(*)::int as n from webhooks.deliveries d join webhooks.events e on e.id = d.event_id
           where e.brand_id = any($1) and e.type = 'deposit.confirmed' and d.status <> 'delivered' group by 1, 2, 3 order by 4 desc limit 10`,
          [brandIds],
        );
        log(`${name}: deliveries not delivered, by operator and state: ${JSON.stringify(states.rows)}`);
      }
      // br-spa runs: the AML watch must have taken in every event before the next run starts (its
      // catching up would be charged to that run), and its lag over this run is reported.
      let amlWatch: WatchLag | undefined;
      if (lagBefore) {
        await watchDrained(infra.natsUrl, prefix!);
        amlWatch = lagBetween(lagBefore, await readLagHistogram(compliance));
      }
      return {
        ...result,
        webhooks: {
          confirmedDeposits: n,
          delivered: stats.byType['deposit.confirmed'] ?? 0,
          deliveries: stats.received,
          connections: stats.connections,
          lagMs: stats.lagMs,
        },
        ...(amlWatch ? { amlWatch } : {}),
      };
    };

    /**
     * The same operator with its compliance profile `off`, then `br-spa` twice, then `off` again (A B
     * B A for each kind): deposits (create + confirm) and real-money rounds. Under br-spa every player has the limits the profile requires (loss and
     * time), out of reach, so the runs pay for reading and checking them, not refusals. A deposit
     * limit is the player's own choice and costs the same under either profile (its lock and sums):
     * the pair measures the profile, so it sets none (docs/benchmarks.md).
     */
    const responsibleGamingPair = async (op: CreatedOperator): Promise<ScenarioResult[]> => {
      const brands = [op.sandbox.brandId];
      const out: ScenarioResult[] = [];
      // Not reported: the first deposits of these players open their wallet accounts.
      await depositRun('priming: rg deposits (not reported)', rgDepositors, brands, { durationSec: 3, warmupSec: 0 });
      out.push(await depositRun('deposit create + confirm, profile off', rgDepositors, brands));
      await measure(spec('priming: rounds under off (not reported)', 'rounds', publicUrl, { sessions: rgSessions, durationSec: 3, warmupSec: 0 }), measured);
      out.push(await measure(spec('real-money game round, profile off', 'rounds', publicUrl, { sessions: rgSessions }), measured));
      expectStatus(
        'profile br-spa',
        await adminCall(adminUrl, adminToken, 'PUT', `/admin/operators/${op.operator.id}/compliance`, {
          profile: 'br-spa',
          reason: 'the operator is licensed in Brazil',
        }),
        200,
      );
      const limits = [
        ['loss', 'day', '1000000.00'],
        ['time', 'day', 44_640],
      ] as const;
      const withLimits = async (playerId: string, c: Credentials) => {
        for (const [type, period, value] of limits) {
          const res = await clientOf(c).request(
            'PUT',
            `/players/${playerId}/limits/${type}/${period}`,
            { value },
            { 'idempotency-key': `lim-${runId}-${playerId}-${type}` },
          );
          expectStatus('setting a limit', res, 200);
        }
      };
      // Registered under off: br-spa also asks the registration data (issue #60), completed as an operator does.
      const withRegistration = async (playerId: string, c: Credentials) => {
        const res = await clientOf(c).request(
          'PATCH',
          `/players/${playerId}`,
          {
            phone: '+5511987654321',
            gender: 'feminino',
            signupIp: '198.51.100.7',
            address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
          },
          { 'idempotency-key': `reg-${runId}-${playerId}` },
        );
        expectStatus('completing the registration', res, 200);
      };
      await inBatches(rgDepositors, 16, (p) => withRegistration(p.id, p.creds));
      await inBatches(rgSessions, 16, (s) => withRegistration(s.playerId, productionOf(op)));
      await inBatches(rgDepositors, 16, (p) => withLimits(p.id, p.creds));
      await inBatches(rgSessions, 16, (s) => withLimits(s.playerId, productionOf(op)));
      // Not reported, as on the off side: the first deposit and round of each player after the
      // switch pay once for the day's impediment check and the players' refreshed state.
      await depositRun('priming: rg deposits under br-spa (not reported)', rgDepositors, brands, { durationSec: 3, warmupSec: 0 }, { amlWatch: true });
      await measure(spec('priming: rounds under br-spa (not reported)', 'rounds', publicUrl, { sessions: rgSessions, durationSec: 3, warmupSec: 0 }), measured);
      for (let i = 0; i < 2; i++) {
        out.push(await depositRun('deposit create + confirm, profile br-spa', rgDepositors, brands, {}, { amlWatch: true }));
        out.push(await measure(spec('real-money game round, profile br-spa', 'rounds', publicUrl, { sessions: rgSessions }), measured));
      }
      // Back to off for the second A of A B B A (drift on a shared machine hits both sides alike);
      // primed again, as each side is after a switch (every cache heard of it and refreshes its players).
      // Turning br-spa off takes two people (issue #56): one stand-in requests it, another confirms.
      const offPath = `/admin/operators/${op.operator.id}/compliance/changes`;
      const requested = await adminCall(adminUrl, adminToken, 'POST', offPath, { profile: 'off', reason: 'the benchmark compares the profiles' }, 'bench-one');
      expectStatus('profile off requested', requested, 201);
      expectStatus(
        'profile off confirmed',
        await adminCall(
          adminUrl,
          adminToken,
          'POST',
          `${offPath}/${requested.body.id}/confirm`,
          { reason: 'the benchmark compares the profiles' },
          'bench-two',
        ),
        200,
      );
      await depositRun('priming: rg deposits under off again (not reported)', rgDepositors, brands, { durationSec: 3, warmupSec: 0 });
      await measure(
        spec('priming: rounds under off again (not reported)', 'rounds', publicUrl, { sessions: rgSessions, durationSec: 3, warmupSec: 0 }),
        measured,
      );
      out.push(await depositRun('deposit create + confirm, profile off', rgDepositors, brands));
      out.push(await measure(spec('real-money game round, profile off', 'rounds', publicUrl, { sessions: rgSessions }), measured));
      return out;
    };

    const scenarios: ScenarioResult[] = [];
    const bareRuns = async (label: string) => {
      if (!SCENARIOS.has('bare')) return;
      scenarios.push(await measure(spec(`bare select${label}`, 'bareSelect', bareGateway.ready.url), bare));
      scenarios.push(await measure(spec(`bare update${label}`, 'bareUpdate', bareGateway.ready.url), bare));
    };

    if (SOAK_SEC > 0) {
      scenarios.push(
        ...(await soak(
          spec('soak: deposits at a steady rate', 'deposit', publicUrl, { players: oneBrand, durationSec: SOAK_SEC, warmupSec: 0, overallRate: SOAK_RATE * 2 }),
          measured,
        )),
      );
    } else {
      await bareRuns('');
      if (SCENARIOS.has('hello')) scenarios.push(await runLoad(spec('baseline: Fastify hello-world', 'hello', hello.ready.url)));
      if (SCENARIOS.has('me')) scenarios.push(await measure(spec('GET /api/v1/me (auth + rate limit)', 'me', publicUrl), measured));
      if (SCENARIOS.has('createPlayer')) scenarios.push(await measure(spec('POST /api/v1/players', 'createPlayer', publicUrl), measured));
      // One brand and many brands in the order A B B A, so drift on a shared machine hits both alike.
      const oneBrandRun = () => depositRun('deposit create + confirm, 1 brand', oneBrand, [operators[0]!.sandbox.brandId]);
      const spreadRun = () =>
        depositRun(
          `deposit create + confirm, ${BRANDS} brands`,
          spread,
          operators.map((o) => o.sandbox.brandId),
        );
      // Not reported: deposits over both populations first, their webhooks awaited. The first
      // deposit run of a bench paid for cold code and caches (and the players' first money, which
      // opens their wallet accounts): in every bench of 2026-11-23 its CPU per deposit was 10–25%
      // above the three runs after it, which A B B A, made for drift, put on the one-brand side.
      if (SCENARIOS.has('deposit') || SCENARIOS.has('spread')) {
        const brands = SCENARIOS.has('spread') ? operators.map((o) => o.sandbox.brandId) : [operators[0]!.sandbox.brandId];
        const primed = await depositRun('priming: deposits (not reported)', [...oneBrand, ...spread], brands, { durationSec: 5, warmupSec: 0 });
        log(`primed with ${primed.total} requests (${primed.webhooks?.delivered ?? 0} webhooks delivered)`);
      }
      if (SCENARIOS.has('deposit')) scenarios.push(await oneBrandRun());
      if (SCENARIOS.has('spread')) scenarios.push(await spreadRun(), await spreadRun());
      if (SCENARIOS.has('deposit') && SCENARIOS.has('spread')) scenarios.push(await oneBrandRun());
      if (SCENARIOS.has('wallet')) scenarios.push(await measure(spec('GET /players/{id}/wallet', 'wallet', publicUrl, { players: oneBrand }), measured));
      if (SCENARIOS.has('rounds')) scenarios.push(await measure(spec('real-money game round', 'rounds', publicUrl, { sessions }), measured));
      if (providerBench) {
        // A provider round is a bet and its win (two calls); then the same at half that rate, for the p99 a provider sees in normal traffic.
        const providerSpec = (name: string, extra: Partial<LoadSpec> = {}) =>
          spec(name, 'provider', publicUrl, { providerSessions: providerBench.sessions, provider: providerBench.provider, ...extra });
        const full = await measure(providerSpec('provider bet + win'), measured, 2);
        scenarios.push(full);
        // The bare update paced the same way, at half its own maximum: what this machine's p99 is
        // for the simplest request at that load (the provider's p99 target is absolute).
        const bareUpdateFull = scenarios.find((x) => x.kind === 'bareUpdate');
        if (bareUpdateFull) {
          const half = spec('bare update at half its maximum rate', 'bareUpdate', bareGateway.ready.url, {
            overallRate: Math.max(1, bareUpdateFull.requestsPerSec / 2),
          });
          scenarios.push(await measure(half, bare));
        }
        scenarios.push(
          await measure(providerSpec('provider bet + win at half the maximum rate', { overallRate: Math.max(1, full.requestsPerSec / 2) }), measured, 2),
        );
      }
      if (hub88Bench) {
        // Hub88's bet + win pairs beside the native provider's (issue #58: >= 90% of its throughput),
        // then the native again (drift on a shared machine hits both), then Hub88 at half its maximum.
        // Each run's rounds are signed before it starts (bench/hub88-requests.ts), as many as it can send.
        const nativeFull = scenarios.find((x) => x.kind === 'provider' && !x.name.includes('half'));
        const rounds = (callsPerSec: number) => Math.ceil(((callsPerSec * (DURATION_SEC + WARMUP_SEC)) / 2) * 1.5) + 500;
        const hub88Spec = (name: string, presignedRounds: number, extra: Partial<LoadSpec> = {}) =>
          spec(name, 'hub88', publicUrl, { hub88Sessions: hub88Bench.sessions, hub88: { ...hub88Bench.connector, presignedRounds }, ...extra });
        const hub88Full = await measure(hub88Spec('hub88 bet + win', rounds(nativeFull?.requestsPerSec ?? 2000)), measured, 2);
        scenarios.push(hub88Full);
        if (providerBench) {
          scenarios.push(
            await measure(
              spec('provider bet + win (again)', 'provider', publicUrl, { providerSessions: providerBench.sessions, provider: providerBench.provider }),
              measured,
              2,
            ),
          );
        }
        const halfRate = Math.max(1, hub88Full.requestsPerSec / 2);
        scenarios.push(await measure(hub88Spec('hub88 bet + win at half the maximum rate', rounds(halfRate), { overallRate: halfRate }), measured, 2));
      }
      if (rgOperator) scenarios.push(...(await responsibleGamingPair(rgOperator)));
      if (brSpaOp) {
        // Profile off vs br-spa, A B B A: registrations (br-spa asks the simulated SPA registry and
        // holds one player per CPF; both sides send the loss and time limits br-spa requires), then
        // deposits (br-spa: method, the day's check, the payer).
        const brSpaCreds = sandboxOf(brSpaOp);
        const register = (label: string, c: Credentials, cpfBase: number) =>
          measure(spec(`POST /api/v1/players (${label})`, 'createPlayer', publicUrl, { creds: c, cpfBase, withLimits: true }), measured);
        scenarios.push(
          await register('profile off', creds, 3_000_000),
          await register('profile br-spa', brSpaCreds, 4_000_000),
          await register('profile br-spa', brSpaCreds, 5_000_000),
          await register('profile off', creds, 6_000_000),
        );
        const brSpaBrand = [brSpaOp.sandbox.brandId];
        const offBrand = [operators[0]!.sandbox.brandId];
        await depositRun('priming: br-spa deposits (not reported)', brSpaPlayers, brSpaBrand, { durationSec: 5, warmupSec: 0 }, { amlWatch: true });
        scenarios.push(
          await depositRun('deposit create + confirm (profile off)', oneBrand, offBrand),
          await depositRun('deposit create + confirm (profile br-spa)', brSpaPlayers, brSpaBrand, {}, { amlWatch: true }),
          await depositRun('deposit create + confirm (profile br-spa)', brSpaPlayers, brSpaBrand, {}, { amlWatch: true }),
          await depositRun('deposit create + confirm (profile off)', oneBrand, offBrand),
        );
      }
      await bareRuns(' again');
    }

    const verify = await adminCall(adminUrl, adminToken, 'GET', '/admin/ledger/verify');
    const memoryAfter = Object.fromEntries(
      await Promise.all(measured.map(async (p) => [p.name, await ask<MemoryReport>(p.proc, { type: 'memory', gc: true }, 'memory')] as const)),
    );
    const results: BenchResults = {
      startedAt,
      finishedAt: new Date().toISOString(),
      loadAverage1m: { atStart: round2(loadBefore!), atEnd: round2(os.loadavg()[0]!) },
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
        totalMemMb: Math.round(mb(os.totalmem())),
        node: process.versions.node,
        platform: `${os.platform()} ${os.release()}`,
      },
      settings: {
        connections: CONNECTIONS,
        durationSec: DURATION_SEC,
        warmupSec: WARMUP_SEC,
        players: PLAYERS,
        brands: BRANDS,
        loopbackOnly: true,
        scenarios: [...SCENARIOS],
        soakSec: SOAK_SEC,
        tracing,
      },
      ...(sink ? { traceExports: await sinkStats(sink.proc) } : {}),
      ...(hub88Bench ? { hub88: { verifyMicros: hub88Bench.verifyMicros } } : {}),
      scenarios,
      ledger: {
        ok: verify.body?.ok === true,
        accounts: verify.body?.accounts,
        mismatches: verify.body?.mismatches?.length ?? null,
        sumOfAllBalances: verify.body?.sumOfAllBalances,
      },
      idleCpuPercentOfOneCore: idlePercent,
      rssMb: Object.fromEntries(measured.map((p) => [p.name, { before: mb(memoryBefore[p.name]!.rss), afterGc: mb(memoryAfter[p.name]!.rss) }])),
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    const name = `${SOAK_SEC > 0 ? 'soak' : 'latest'}${TRACING.length > 1 || tracing !== 'off' ? `-tracing-${tracing}` : ''}.json`;
    await writeFile(new URL(name, RESULTS_DIR), `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\n${formatReport(results)}\n\nwritten to bench/results/${name} (not tracked)\n`);
    return results;
  } finally {
    const stopServers = cleanups.shift();
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => log(`cleanup failed: ${String(err)}`));
    if (prefix) await cleanupNatsPrefix(prefix).catch((err) => log(`removing NATS prefix ${prefix} failed: ${String(err)}`));
    if (db) await db.drop().catch((err) => log(`dropping database ${db!.name} failed: ${String(err)}`));
    await stopServers?.().catch((err) => log(`stopping the servers failed: ${String(err)}`));
  }
}

/**
 * The soak: one long run at a steady rate while every process's RSS and V8 heap in use are sampled
 * every 10 s (no gc() forced: the heap's low points are where V8's own collections left it).
 */
async function soak(s: LoadSpec, procs: Proc[]): Promise<ScenarioResult[]> {
  const samples: NonNullable<ScenarioResult['rssSamples']> = [];
  const t0 = performance.now();
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const rssMb: Record<string, number> = {};
      const heapMb: Record<string, number> = {};
      for (const p of procs) {
        const m = await ask<MemoryReport>(p.proc, { type: 'memory' }, 'memory');
        rssMb[p.name] = mb(m.rss);
        heapMb[p.name] = mb(m.heapUsed);
      }
      samples.push({ atSec: Math.round((performance.now() - t0) / 1000), rssMb, heapMb });
      await new Promise((r) => setTimeout(r, 10_000));
    }
  })();
  try {
    const summary = await runLoad(s);
    return [{ ...summary, requestsPerOp: 2, opsPerSec: summary.requestsPerSec / 2, rssSamples: samples }];
  } finally {
    sampling = false;
    await loop;
  }
}

try {
  const runs: BenchResults[] = [];
  for (const mode of TRACING) runs.push(await main(mode));
  if (runs.length > 1) process.stdout.write(`\n${formatTracingComparison(runs)}\n`);
  process.exit(0);
} catch (err) {
  log(`the benchmark could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
}
