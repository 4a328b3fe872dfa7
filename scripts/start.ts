// `npm start`: the whole system on one machine. Finds or starts Postgres and NATS the way
// scripts/local-infra.ts describes, starts the four services and the gateway, creates a demo
// operator on first run and prints how to call it. SIGINT, SIGTERM or SIGHUP (Ctrl-C, or a signal
// to npm or to this script) stop every child, then nats-server and Postgres if we started them.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { assertPortFree, persistentValue, resolveInfra, StartupError } from './local-infra.ts';
import { startDataDir } from './start-data-dir.ts';
import { onStopRequest } from './stop-signals.ts';

const root = path.resolve(import.meta.dirname, '..');
// START_DATA_DIR: where generated secrets, the demo operator and embedded servers' data live.
const dataDir = startDataDir();
mkdirSync(dataDir, { recursive: true, mode: 0o755 });
const SERVICES = ['players', 'wallet', 'payments', 'webhooks'] as const;
const log = (msg: string) => console.log(`[start] ${msg}`);
const persistent = (name: string, make: () => string) => persistentValue(dataDir, name, make);

const children = new Map<string, ChildProcess>();
let stopInfra: () => Promise<void> = async () => undefined;
let stopping: Promise<void> | undefined;

/** Children first (they drain and close their connections), then NATS and Postgres. Once. */
function shutdown(code: number): Promise<void> {
  stopping ??= (async () => {
    log('stopping…');
    await Promise.all(
      [...children.values()].map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            const killer = setTimeout(() => c.kill('SIGKILL'), 15_000);
            c.once('exit', () => {
              clearTimeout(killer);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
    await stopInfra();
    log('stopped');
    process.exit(code);
  })();
  return stopping;
}
onStopRequest(() => void shutdown(0));

/** The database the system uses on the server we were given (created on first run). */
async function ensureDatabase(serverUrl: string): Promise<string> {
  const u = new URL(serverUrl);
  const given = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).pathname.slice(1) : '';
  const dbName = given && given !== 'postgres' ? given : 'backoffice';
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = '/postgres';
  const c = new pg.Client({ connectionString: adminUrl.toString() });
  await c.connect();
  try {
    const exists = await c.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) {
      await c.query(`create database "${dbName.replace(/"/g, '')}"`);
      log(`created database ${dbName}`);
    }
  } finally {
    await c.end();
  }
  u.pathname = `/${dbName}`;
  return u.toString();
}

function startChild(name: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pipe = (stream: NodeJS.ReadableStream) => {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        process.stdout.write(`[${name}] ${buf.slice(0, i)}\n`);
        buf = buf.slice(i + 1);
      }
    });
  };
  pipe(child.stdout!);
  pipe(child.stderr!);
  return child;
}

async function main() {
  const HOST = process.env.HOST ?? '127.0.0.1';
  const PORT = process.env.PORT ?? '3000';
  const ADMIN_PORT = process.env.ADMIN_PORT ?? '3001';
  await assertPortFree(HOST, Number(PORT), 'PORT');
  await assertPortFree(process.env.ADMIN_HOST ?? HOST, Number(ADMIN_PORT), 'ADMIN_PORT');
  const metricsBase = Number(process.env.METRICS_PORT ?? 9464);
  for (let i = 0; i <= SERVICES.length; i++) await assertPortFree(process.env.METRICS_HOST ?? '127.0.0.1', metricsBase + i, 'METRICS_PORT');

  const infra = await resolveInfra({ purpose: 'start', dataDir, log, ownServers: process.env.START_OWN_SERVERS === '1' });
  stopInfra = infra.stop;
  log(`using ${infra.postgres.describe}`);
  log(`using ${infra.nats.describe}`);
  if (stopping) return;
  const DATABASE_URL = await ensureDatabase(infra.postgres.url);
  const PUBLIC_BASE_URL = process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${PORT}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL,
    NATS_URL: infra.nats.url,
    PORT,
    ADMIN_PORT,
    PUBLIC_BASE_URL,
    NATS_PREFIX: process.env.NATS_PREFIX ?? 'bo',
    ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? persistent('admin-token', () => `adm_${randomBytes(24).toString('hex')}`),
    SECRETS_MASTER_KEY: process.env.SECRETS_MASTER_KEY ?? persistent('master-key', () => randomBytes(32).toString('base64')),
    GAME_LAUNCH_SECRET: process.env.GAME_LAUNCH_SECRET ?? persistent('game-launch-secret', () => randomBytes(32).toString('hex')),
    LEDGER_CURSOR_SECRET: process.env.LEDGER_CURSOR_SECRET ?? persistent('cursor-secret', () => randomBytes(32).toString('hex')),
    WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP ?? '1',
    WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE ?? '1',
  };
  // Services first (each runs its migrations), then the gateway. Each process has its own
  // internal metrics port: METRICS_PORT (default 9464) for the gateway, the next ones for the services.
  const metricsPorts = Object.fromEntries(['gateway', ...SERVICES].map((name, i) => [name, metricsBase + i]));
  for (const svc of SERVICES) children.set(svc, startChild(svc, `services/${svc}/src/main.ts`, { ...env, METRICS_PORT: String(metricsPorts[svc]) }));
  children.set('gateway', startChild('gateway', 'services/gateway/src/main.ts', { ...env, METRICS_PORT: String(metricsPorts.gateway) }));
  for (const [name, child] of children) {
    child.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`[start] ${name} exited (${signal ?? code}); stopping everything`);
      void shutdown(1);
    });
  }

  const publicUrl = `http://127.0.0.1:${PORT}`;
  const adminUrl = `http://127.0.0.1:${ADMIN_PORT}`;
  const readyBy = Date.now() + 120_000;
  while (
    !(await fetch(`${publicUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (stopping) return;
    if (Date.now() > readyBy)
      throw new StartupError(
        'The system did not become ready within 120 s (see the service logs above).\n  Fix: look for the first error above; LOG_LEVEL=debug npm start shows more.',
      );
    await new Promise((r) => setTimeout(r, 100));
  }
  const demoFile = path.join(dataDir, 'demo-operator.json');
  const admin = (method: string, p: string, body?: unknown) =>
    fetch(`${adminUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const listed = await admin('GET', '/admin/operators');
  let demo = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : undefined;
  if (!demo || !listed.body.data?.some((o: { id: string }) => o.id === demo.operator.id)) {
    const created = await admin('POST', '/admin/operators', { name: 'Demo Operator' });
    if (created.status !== 201) throw new Error(`could not create the demo operator: ${JSON.stringify(created.body)}`);
    demo = created.body;
    writeFileSync(demoFile, JSON.stringify(demo, null, 2));
    chmodSync(demoFile, 0o600);
    log('created the demo operator (first run)');
  }
  const rel = path.relative(root, demoFile);
  console.log(`
  Back-office API is up.
    Base URL:        ${PUBLIC_BASE_URL}/api/v1   (docs: ${PUBLIC_BASE_URL}/api/v1/docs)
    Admin API:       ${adminUrl}   ADMIN_TOKEN=${env.ADMIN_TOKEN}
    Demo operator:   ${demo.operator.id}
      sandbox key:     ${demo.sandbox.key}
      sandbox secret:  ${demo.sandbox.secret}
      webhook secret:  ${demo.sandbox.webhookSecret}
    Metrics:         ${Object.entries(metricsPorts)
      .map(([n, p]) => `${n} :${p}`)
      .join(', ')}   (GET /metrics)
    Credentials are kept in ${rel}. Try: npm run api -- GET /me
    Ctrl-C stops everything.
`);
}

main().catch((err) => {
  console.error(err instanceof StartupError ? `[start] ${err.message}` : `[start] ${err instanceof Error ? err.stack : err}`);
  void shutdown(1);
});
