// Postgres and NATS for `npm start`, `npm test` and `npm run bench`, found or started the same way:
// DATABASE_URL / NATS_URL when set; else the default ports when they answer (and let us in); else
// an embedded Postgres and `nats-server` from PATH (or a NATS container when a container runtime
// exists). Every refusal is a StartupError whose message ends with the fix in one line.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { clusterFolder, initCluster, postgresBinaries, postgresUser, SHARED_DIR, startPostmaster, type PostgresProcess } from './embedded-postgres.ts';
import { StartupError } from './startup-error.ts';

/** A server this process uses; `stop` ends it when this process started it, else does nothing. */
export interface LocalServer {
  url: string;
  started: boolean;
  describe: string;
  stop(): Promise<void>;
  /** A process we started: settles when it exits, for whatever reason, with why (`SIGKILL`, `code 1`). */
  exited?: Promise<string>;
  /** A server we started that keeps its data: starts it again, same port and data (after it died). */
  restart?: () => Promise<LocalServer>;
}

/** `start` keeps its data under .data between runs; `test` and `bench` use throwaway folders and free ports. */
export type Purpose = 'start' | 'test' | 'bench' | 'chaos';

export interface InfraOptions {
  purpose: Purpose;
  dataDir: string;
  log: (msg: string) => void;
  /** Start an embedded Postgres and a nats-server even when the default ports answer (env vars still win). */
  ownServers?: boolean;
  /** Keep the servers' data under dataDir, so a stop and a new start find it (default: only for `start`). */
  keepData?: boolean;
  /** Fixed ports for the servers we start (a restart must come back where clients reconnect). */
  ports?: { postgres?: number; nats?: number };
}

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS = 'nats://127.0.0.1:4222';

export function reachable(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.setTimeout(timeoutMs);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

/** A TCP port nobody listens on right now (the kernel's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `count` consecutive TCP ports nobody listens on right now, below the kernel's ephemeral range
 * (32768 and up on Linux), where the outgoing connections of a busy machine take ports at any
 * moment: a block the kernel handed out one port of could have its neighbours taken.
 */
export async function freePortBlock(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - count));
    let all = true;
    for (let i = 0; i < count && all; i++) all = await free(base + i);
    if (all) return base;
  }
  throw new Error(`no ${count} consecutive free ports found between 20000 and 32000`);
}

/**
 * Starts a server on `port`; when the port was not asked for (`fixed` false) and was taken between
 * our check and the server's bind (another `npm start` or test starting at the same moment), on
 * another free port, three tries in all. Resolves to the port it listens on and what `start` gave.
 */
export async function onFreePort<T>(
  port: number,
  fixed: boolean,
  start: (port: number) => Promise<T>,
  taken: (err: unknown) => boolean,
  log: (msg: string) => void,
  nextPort: () => Promise<number> = freePort,
): Promise<{ port: number; server: T }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { port, server: await start(port) };
    } catch (err) {
      if (fixed || attempt >= 3 || !taken(err)) throw err;
      log(`port ${port} was taken meanwhile; trying another`);
      port = await nextPort();
    }
  }
}

const addressInUse = (err: unknown) => /address already in use/i.test(err instanceof Error ? err.message : String(err));

/**
 * The ports browsers and `fetch` refuse to connect to (the Fetch Standard's "bad ports",
 * https://fetch.spec.whatwg.org/#port-blocking): the console on such a port would not open, and
 * start's own check that the API answers fails with "bad port".
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** A port the API is reached on (PORT, ADMIN_PORT) must be one browsers and `fetch` connect to. */
export function assertPortReachable(port: number, variable: string): void {
  if (!FETCH_BLOCKED_PORTS.has(port)) return;
  throw new StartupError(
    `Port ${port} is one browsers and fetch refuse to connect to (the Fetch Standard's port blocking).\n` +
      `  Fix: choose another port: ${variable}=${port + 100} npm start`,
  );
}

/** Refuses early, with the variable to change, when a port we must listen on is taken. */
export async function assertPortFree(host: string, port: number, variable: string): Promise<void> {
  const taken = await new Promise<boolean>((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(true));
    srv.listen(port, host, () => srv.close(() => resolve(false)));
  });
  if (taken) {
    throw new StartupError(
      `Port ${port} on ${host} is already in use (another \`npm start\`?).\n` +
        `  Fix: stop that process, or choose another port: ${variable}=${port + 100} npm start`,
    );
  }
}

// ---------------------------------------------------------------------------------------- Postgres

type PgProbe = 'ok' | 'unreachable' | 'password' | { error: string };

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function probePostgres(url: string): Promise<PgProbe> {
  const u = new URL(url);
  if (!(await reachable(u.hostname, Number(u.port || 5432)))) return 'unreachable';
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres'), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return 'ok';
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // 28P01 wrong password, 28000 no such role / not allowed; pg itself throws the SASL error
    // when the server asks for a password and the URL carries none.
    if (e.code === '28P01' || e.code === '28000' || /password|SASL/i.test(e.message ?? '')) return 'password';
    return { error: e.message ?? String(err) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function resolvePostgres(opts: InfraOptions): Promise<LocalServer> {
  const given = process.env.DATABASE_URL;
  if (given) {
    const u = new URL(given);
    const probe = await probePostgres(given);
    if (probe === 'ok') return { url: given, started: false, describe: `Postgres at ${u.host} (DATABASE_URL)`, stop: async () => undefined };
    if (probe === 'unreachable') {
      throw new StartupError(
        `DATABASE_URL points at ${u.host}, where no Postgres answers.\n  Fix: start that Postgres, or unset DATABASE_URL to use an embedded one.`,
      );
    }
    if (probe === 'password') {
      throw new StartupError(
        `Postgres at ${u.host} refused the user and password in DATABASE_URL.\n` +
          '  Fix: put them in the URL: DATABASE_URL=postgres://USER:PASSWORD@HOST:PORT/backoffice',
      );
    }
    throw new StartupError(`Postgres at ${u.host} (DATABASE_URL) could not be used: ${probe.error}\n  Fix: check DATABASE_URL.`);
  }
  const probe = opts.ownServers ? 'unreachable' : await probePostgres(DEFAULT_PG);
  if (probe === 'ok') return { url: DEFAULT_PG, started: false, describe: 'Postgres at 127.0.0.1:5432', stop: async () => undefined };
  if (probe === 'password') {
    opts.log(
      'Postgres on 127.0.0.1:5432 asks for a password; using an embedded Postgres instead ' +
        '(to use that one: DATABASE_URL=postgres://USER:PASSWORD@127.0.0.1:5432/backoffice).',
    );
  } else if (probe !== 'unreachable') {
    opts.log(`Postgres on 127.0.0.1:5432 could not be used (${probe.error}); using an embedded Postgres instead.`);
  }
  return startEmbeddedPostgres(opts);
}

/** An embedded Postgres of our own, whatever else answers (restartable with keepData and fixed ports). */
export async function startEmbeddedPostgres(opts: InfraOptions): Promise<LocalServer> {
  const keep = opts.keepData ?? opts.purpose === 'start';
  const runAs = postgresUser(opts.log);
  const bin = postgresBinaries(runAs, opts.log);
  // A kept cluster lives in the data folder and a throwaway one in the system temp folder, when
  // the user Postgres runs as may enter them (as root: the `postgres` user; not under a 0700 home).
  // Elsewhere (under SHARED_DIR), a kept cluster's place is written down in the data folder: later
  // starts find it there, and a new data folder (its password) gets a new cluster.
  const relocated = (shared: string) =>
    persistentValue(opts.dataDir, 'postgres-location', () => {
      const dir = path.join(shared, `cluster-${randomBytes(6).toString('hex')}`);
      opts.log(`the postgres user may not enter ${opts.dataDir} (a folder above it is private): the embedded Postgres keeps its data in ${dir}`);
      return dir;
    });
  const dir = keep
    ? existsSync(path.join(opts.dataDir, 'postgres-location'))
      ? relocated(SHARED_DIR) // written down before: read back
      : clusterFolder(path.join(opts.dataDir, 'postgres'), runAs, relocated)
    : clusterFolder(path.join(os.tmpdir(), `bo-${opts.purpose}-pg-${randomBytes(6).toString('hex')}`), runAs, (shared) =>
        path.join(shared, `${opts.purpose}-${randomBytes(6).toString('hex')}`),
      );
  let port = opts.ports?.postgres ?? (keep && !(await reachable('127.0.0.1', 54329)) ? 54329 : await freePort());
  const password = keep ? persistentValue(opts.dataDir, 'postgres-password', () => randomBytes(12).toString('hex')) : randomBytes(12).toString('hex');
  // No unix socket (it could collide with a system Postgres); throwaway clusters need no fsync.
  const flags = ['-c', 'unix_socket_directories=', '-c', 'max_connections=300', ...(keep ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off'])];
  let postmaster: PostgresProcess;
  try {
    if (!existsSync(path.join(dir, 'PG_VERSION'))) {
      if (keep) opts.log('initialising the embedded Postgres (first run)…');
      await initCluster(bin, dir, password, runAs);
    }
    ({ port, server: postmaster } = await onFreePort(
      port,
      opts.ports?.postgres !== undefined,
      (p) => startPostmaster(bin, dir, p, flags, runAs),
      addressInUse,
      opts.log,
    ));
  } catch (err) {
    if (!keep) rmSync(dir, { recursive: true, force: true });
    throw new StartupError(
      `The embedded Postgres did not start: ${err instanceof Error ? err.message : err}\n` +
        `  Fix: ${keep ? `if ${dir} is from another Postgres version, move it away; ` : ''}or set DATABASE_URL to a Postgres you run.`,
    );
  }
  const { child, exited } = postmaster;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    started: true,
    describe: `embedded Postgres on 127.0.0.1:${port} (${keep ? `data in ${dir}` : 'throwaway'})`,
    exited,
    // Same port, same data: clients reconnect to where they were.
    restart: keep ? () => startEmbeddedPostgres({ ...opts, keepData: true, ports: { ...opts.ports, postgres: port } }) : undefined,
    stop: async () => {
      // A Ctrl-C reaches Postgres directly (same process group): it may be gone already.
      // SIGINT: fast shutdown (open sessions are ended).
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}

// -------------------------------------------------------------------------------------------- NATS

type NatsProbe = 'ok' | 'unreachable' | 'no-jetstream' | { error: string };

/** `url`: one server, or a cluster's servers comma-separated (NATS_URL); usable when any answers. */
async function probeNats(url: string): Promise<NatsProbe> {
  const servers = url.split(',');
  const answers = await Promise.all(servers.map((one) => new URL(one)).map((u) => reachable(u.hostname, Number(u.port || 4222))));
  if (!answers.includes(true)) return 'unreachable';
  let nc: NatsConnection;
  try {
    nc = await connect({ servers, timeout: 5000, reconnect: false });
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
  try {
    const jsm = await jetstreamManager(nc, { timeout: 5000 });
    await jsm.getAccountInfo();
    return 'ok';
  } catch {
    return 'no-jetstream';
  } finally {
    await nc.close().catch(() => undefined);
  }
}

const NATS_INSTALL_HINT =
  '  Fix: install nats-server (Debian/Ubuntu: sudo apt-get install nats-server; macOS: brew install nats-server),\n' +
  '       or run one in a container: docker run -d -p 4222:4222 nats:2.10 -js, or set NATS_URL.';

export async function resolveNats(opts: InfraOptions): Promise<LocalServer> {
  const given = process.env.NATS_URL;
  if (given) {
    const u = new URL(given.split(',')[0]!);
    const probe = await probeNats(given);
    if (probe === 'ok') return { url: given, started: false, describe: `NATS at ${u.host} (NATS_URL)`, stop: async () => undefined };
    if (probe === 'unreachable')
      throw new StartupError(`NATS_URL points at ${u.host}, where no NATS answers.\n  Fix: start it, or unset NATS_URL to start nats-server here.`);
    if (probe === 'no-jetstream')
      throw new StartupError(
        `NATS at ${u.host} runs without JetStream.\n  Fix: start it with JetStream on: nats-server -js (or a jetstream {} block in its config).`,
      );
    throw new StartupError(`NATS at ${u.host} (NATS_URL) could not be used: ${probe.error}\n  Fix: check NATS_URL.`);
  }
  const probe = opts.ownServers ? 'unreachable' : await probeNats(DEFAULT_NATS);
  if (probe === 'ok') return { url: DEFAULT_NATS, started: false, describe: 'NATS at 127.0.0.1:4222', stop: async () => undefined };
  if (probe === 'no-jetstream') opts.log('NATS on 127.0.0.1:4222 runs without JetStream (start it with -js); starting a nats-server of our own instead.');
  else if (probe !== 'unreachable') opts.log(`NATS on 127.0.0.1:4222 could not be used (${probe.error}); starting a nats-server of our own instead.`);

  if (spawnSync('sh', ['-c', 'command -v nats-server'], { stdio: 'ignore' }).status === 0) {
    return startNatsServer(opts, !(await reachable('127.0.0.1', 4222)));
  }
  const container = await startNatsContainer();
  if (container) return container;
  throw new StartupError(
    `No NATS with JetStream answers on 127.0.0.1:4222, nats-server is not on PATH and no container runtime was found.\n${NATS_INSTALL_HINT}`,
  );
}

/** A nats-server -js of our own, whatever else answers (restartable with keepData and fixed ports). */
export async function startNatsServer(opts: InfraOptions, defaultPortFree = false): Promise<LocalServer> {
  const keep = opts.keepData ?? opts.purpose === 'start';
  const port = opts.ports?.nats ?? (keep && defaultPortFree ? 4222 : await freePort());
  const storeDir = keep ? path.join(opts.dataDir, 'nats') : path.join(os.tmpdir(), `bo-${opts.purpose}-nats-${randomBytes(6).toString('hex')}`);
  mkdirSync(storeDir, { recursive: true });
  const { port: listening, server } = await onFreePort(port, opts.ports?.nats !== undefined, (p) => startNatsOn(p, storeDir), addressInUse, opts.log);
  return natsServer(opts, keep, listening, storeDir, server);
}

interface NatsStart {
  child: ChildProcess;
  exited: Promise<string>;
}

/** nats-server -js on `port`: ready once it says so itself (another server answering that port is not ours) and answers with JetStream on. */
export async function startNatsOn(port: number, storeDir: string): Promise<NatsStart> {
  const child: ChildProcess = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  // 'error' when it could not be spawned at all (then there is no 'exit'), 'close' in every case.
  let gone: string | undefined;
  const exited = new Promise<string>((resolve) => {
    const end = (why: string) => {
      gone ??= why;
      resolve(gone);
    };
    child.once('error', (err) => end(err.message));
    child.once('close', (code, signal) => end(signal ?? `code ${code}`));
  });
  const url = `nats://127.0.0.1:${port}`;
  // Ready when it answers with JetStream on (it may take a moment to set up its store).
  for (let i = 0; ; i++) {
    if (gone !== undefined)
      throw new StartupError(`nats-server exited at start (${gone}):\n${stderr.trim()}\n  Fix: run nats-server -js by hand to see why, or set NATS_URL.`);
    if (/Server is ready/.test(stderr) && (await probeNats(url)) === 'ok') return { child, exited };
    if (i > 300) {
      child.kill('SIGKILL');
      throw new StartupError(`nats-server did not become ready:\n${stderr.trim()}\n  Fix: set NATS_URL to a NATS with JetStream.`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function natsServer(opts: InfraOptions, keep: boolean, port: number, storeDir: string, { child, exited }: NatsStart): LocalServer {
  const url = `nats://127.0.0.1:${port}`;
  return {
    url,
    started: true,
    describe: `nats-server -js on 127.0.0.1:${port} (${keep ? `data in ${storeDir}` : 'throwaway'})`,
    exited,
    restart: keep ? () => startNatsServer({ ...opts, keepData: true, ports: { ...opts.ports, nats: port } }) : undefined,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (!keep) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

async function startNatsContainer(): Promise<LocalServer | undefined> {
  const tc = await import('testcontainers').catch(() => undefined);
  if (
    !tc ||
    !(await tc.getContainerRuntimeClient().then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  const container = await new tc.GenericContainer('nats:2.10-alpine')
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(tc.Wait.forLogMessage(/Server is ready/))
    .start();
  const url = `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
  return {
    url,
    started: true,
    describe: `NATS container at ${url}`,
    stop: async () => {
      await container.stop();
    },
  };
}

// ------------------------------------------------------------------------------------------ helpers

/** A value kept in the data folder so restarts reuse it (generated on first run, mode 0600). */
export function persistentValue(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  mkdirSync(dataDir, { recursive: true });
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = make();
  writeFileSync(file, value);
  chmodSync(file, 0o600);
  return value;
}

/** Both servers, and one stop that ends what was started, NATS first (its clients go before Postgres's). */
export async function resolveInfra(opts: InfraOptions): Promise<{ postgres: LocalServer; nats: LocalServer; stop(): Promise<void> }> {
  const postgres = await resolvePostgres(opts);
  let nats: LocalServer;
  try {
    nats = await resolveNats(opts);
  } catch (err) {
    await postgres.stop().catch(() => undefined);
    throw err;
  }
  return {
    postgres,
    nats,
    async stop() {
      await nats.stop().catch(() => undefined);
      await postgres.stop().catch(() => undefined);
    },
  };
}
