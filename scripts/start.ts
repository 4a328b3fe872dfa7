// `npm start`: the whole system on one machine. Finds or starts Postgres and NATS the way
// scripts/local-infra.ts describes, starts the six domain services and the gateway, creates a demo
// operator on first run and prints how to call it. A process that dies once the system is up is
// restarted with a back-off (scripts/supervisor.ts); one that dies before stops everything, with
// its reason. SIGINT, SIGTERM or SIGHUP (Ctrl-C, or a signal to npm or to this script) stop every
// child, then nats-server and Postgres if we started them. Whatever fails at start ends as what went
// wrong and the fix (scripts/startup-error.ts), never as a stack trace.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { assertPortFree, assertPortReachable, persistentValue, resolveInfra, type LocalServer } from './local-infra.ts';
import { failureText, StartupError } from './startup-error.ts';
import { startDataDir } from './start-data-dir.ts';
import { onStopRequest } from './stop-signals.ts';
import { Supervisor, type Running } from './supervisor.ts';

const root = path.resolve(import.meta.dirname, '..');
// START_DATA_DIR: where generated secrets, the demo operator and embedded servers' data live.
const dataDir = startDataDir();
const SERVICES = ['players', 'wallet', 'payments', 'webhooks', 'operators', 'compliance'] as const;
const log = (msg: string) => console.log(`[start] ${msg}`);
const persistent = (name: string, make: () => string) => persistentValue(dataDir, name, make);

let stopping: Promise<void> | undefined;
/** Postgres and NATS being found or started; a stop waits for them, to stop what was started. */
let infraStarting: Promise<unknown> | undefined;

/** Children first (they drain and close their connections), then NATS, then Postgres. Once. */
function shutdown(code: number): Promise<void> {
  stopping ??= (async () => {
    log('stopping…');
    await infraStarting?.catch(() => undefined);
    await supervisor.stop();
    log('stopped');
    process.exit(code);
  })();
  return stopping;
}

/** Any failure: what went wrong and the fix, then everything stops (exit 1). */
function fail(err: unknown): void {
  console.error(`[start] ${failureText(err, 'npm start')}`);
  void shutdown(1);
}

const supervisor = new Supervisor({
  log,
  fatal: (reason) => fail(new StartupError(`${reason}\n  Fix: its log above says why; LOG_LEVEL=debug npm start shows more.`)),
});
onStopRequest(() => void shutdown(0));
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

/** The database the system uses on the server we were given (created on first run). */
async function ensureDatabase(serverUrl: string): Promise<string> {
  const u = new URL(serverUrl);
  const given = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).pathname.slice(1) : '';
  const dbName = given && given !== 'postgres' ? given : 'backoffice';
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = '/postgres';
  const c = new pg.Client({ connectionString: adminUrl.toString() });
  c.on('error', () => undefined); // a connection lost after the query: nothing left to do with it
  try {
    await c.connect();
    const exists = await c.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) {
      await c.query(`create database "${dbName.replace(/"/g, '')}"`);
      log(`created database ${dbName}`);
    }
  } catch (err) {
    throw new StartupError(
      `Could not create the database ${dbName} on ${u.host}: ${(err as Error).message}\n` +
        `  Fix: create it yourself (createdb ${dbName}), or use a DATABASE_URL whose user may create databases.`,
    );
  } finally {
    await c.end().catch(() => undefined);
  }
  u.pathname = `/${dbName}`;
  return u.toString();
}

/** A log line as read in one line: a JSON (pino) line as its message and error message. */
function readable(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
    if (entry.msg) return entry.err?.message ? `${entry.msg}: ${entry.err.message}` : entry.msg;
  } catch {
    /* not JSON: as it is */
  }
  return line;
}

/** One run of a service or the gateway, its output prefixed with its name. */
function runChild(name: string, entry: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let last = '';
  const pipe = (stream: NodeJS.ReadableStream) => {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        last = buf.slice(0, i);
        process.stdout.write(`[${name}] ${last}\n`);
        buf = buf.slice(i + 1);
      }
    });
  };
  pipe(child.stdout!);
  pipe(child.stderr!);
  // 'error' when it could not be spawned at all (then there is no 'exit').
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(err.message));
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
  });
  return {
    pid: child.pid,
    exited,
    lastLine: () => readable(last),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

/** A server local-infra found or started, watched: restarted (same port and data) when ours and it dies. */
function watchServer(name: string, tier: number, server: LocalServer): void {
  const asRunning = (s: LocalServer): Running => ({ exited: s.exited ?? new Promise(() => undefined), lastLine: () => '', stop: () => s.stop() });
  const { restart } = server;
  supervisor.adopt({ name, tier, start: restart && (async () => asRunning(await restart())) }, asRunning(server));
}

async function main() {
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const HOST = process.env.HOST ?? '127.0.0.1';
  const PORT = process.env.PORT ?? '3000';
  const ADMIN_PORT = process.env.ADMIN_PORT ?? '3001';
  assertPortReachable(Number(PORT), 'PORT');
  assertPortReachable(Number(ADMIN_PORT), 'ADMIN_PORT');
  await assertPortFree(HOST, Number(PORT), 'PORT');
  await assertPortFree(process.env.ADMIN_HOST ?? HOST, Number(ADMIN_PORT), 'ADMIN_PORT');
  const metricsBase = Number(process.env.METRICS_PORT ?? 9464);
  for (let i = 0; i <= SERVICES.length; i++) await assertPortFree(process.env.METRICS_HOST ?? '127.0.0.1', metricsBase + i, 'METRICS_PORT');

  const starting = resolveInfra({ purpose: 'start', dataDir, log, ownServers: process.env.START_OWN_SERVERS === '1' }).then((infra) => {
    // Stopped after the services and the gateway (tier 0): NATS, then Postgres.
    watchServer('nats-server', 1, infra.nats);
    watchServer('postgres', 2, infra.postgres);
    return infra;
  });
  infraStarting = starting;
  const infra = await starting;
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
    LIST_CURSOR_SECRET: process.env.LIST_CURSOR_SECRET ?? persistent('list-cursor-secret', () => randomBytes(32).toString('hex')),
    WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP ?? '1',
    WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE ?? '1',
  };
  // Services first (each runs its migrations), then the gateway. Each process has its own
  // internal metrics port: METRICS_PORT (default 9464) for the gateway, the next ones for the services.
  const metricsPorts = Object.fromEntries(['gateway', ...SERVICES].map((name, i) => [name, metricsBase + i]));
  const service = (name: string, entry: string) => ({
    name,
    tier: 0,
    start: async () => runChild(name, entry, { ...env, METRICS_PORT: String(metricsPorts[name]) }),
  });
  for (const svc of SERVICES) await supervisor.start(service(svc, `services/${svc}/src/main.ts`));
  await supervisor.start(service('gateway', 'services/gateway/src/main.ts'));

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
  supervisor.ready();
  const demoFile = path.join(dataDir, 'demo-operator.json');
  // A connection the admin port did not take (refused, reset: a clean-clone run saw "fetch failed" right
  // after the public /readyz answered, issue #71) is tried again until the same deadline; an answer of
  // any status is the answer.
  const admin = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
    for (;;) {
      const sent = await fetch(`${adminUrl}${p}`, {
        method,
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then(
        async (r) => ({ status: r.status, body: (await r.json()) as any }),
        (err: Error & { cause?: { code?: string; message?: string } }) => err,
      );
      if (!(sent instanceof Error)) return sent;
      if (stopping) throw sent;
      if (Date.now() > readyBy)
        throw new StartupError(
          `The admin API on ${adminUrl} did not answer ${method} ${p} (${sent.cause?.code ?? sent.cause?.message ?? sent.message}).\n  Fix: look for the gateway's error above; LOG_LEVEL=debug npm start shows more.`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const listed = await admin('GET', '/admin/operators');
  let demo = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : undefined;
  if (!demo || !listed.body.data?.some((o: { id: string }) => o.id === demo.operator.id)) {
    const created = await admin('POST', '/admin/operators', { name: 'Demo Operator' });
    if (created.status !== 201)
      throw new StartupError(`Could not create the demo operator: ${JSON.stringify(created.body)}\n  Fix: look for the gateway's error above.`);
    demo = created.body;
    // The demo operator follows Brazil's SPA/MF rules (docs/responsible-gaming.md): the README's
    // journey registers its player with the loss and time limits br-spa requires.
    const profile = await admin('PUT', `/admin/operators/${demo.operator.id}/compliance`, { profile: 'br-spa', reason: 'the operator is licensed in Brazil' });
    if (profile.status !== 200)
      throw new StartupError(
        `Could not set the demo operator's compliance profile: ${JSON.stringify(profile.body)}\n  Fix: look for the players service's error above.`,
      );
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

main().catch(fail);
