// pgBackRest and the Postgres 15 clusters of the restore drill (issue #67): Debian's `pgbackrest`
// (2.45, which does not know the embedded Postgres 18) and Debian's PostgreSQL 15 binaries, each
// installed with apt-get when missing and we may (root), as scripts/test-browser.ts does Chromium.
// Everything lives in one private folder: the repository (encrypted, with a retention), the
// clusters, their unix sockets (pgBackRest reaches Postgres through a socket only), logs and locks.
// Postgres refuses to run as root: as root, Postgres and every pgBackRest command run as the
// `postgres` user (scripts/embedded-postgres.ts), who owns the folder; archive_command runs as it too.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { waitFor } from '@bo/service-kit/testing';
import { initCluster, postgresUser, startPostmaster, type PostgresProcess, type RunAs } from './embedded-postgres.ts';
import { freePort } from './local-infra.ts';

/** Debian's PostgreSQL 15 (pgBackRest 2.45 supports 9.0–15). */
const PG15 = '/usr/lib/postgresql/15';
const STANZA = 'drill';

const hasCommand = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** pgBackRest and PostgreSQL 15, installed with apt-get when missing and we may; throws with the fix otherwise. */
export function findOrInstallTools(say: (msg: string) => void): void {
  const missing = [...(hasCommand('pgbackrest') ? [] : ['pgbackrest']), ...(existsSync(path.join(PG15, 'bin', 'postgres')) ? [] : ['postgresql-15'])];
  if (missing.length === 0) return;
  const canApt = process.platform === 'linux' && process.getuid?.() === 0 && hasCommand('apt-get');
  if (canApt) {
    say(`installing ${missing.join(' and ')} for the restore drill (apt-get install ${missing.join(' ')})…`);
    const r = spawnSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`], {
      stdio: 'ignore',
    });
    if (r.status === 0 && hasCommand('pgbackrest') && existsSync(path.join(PG15, 'bin', 'postgres'))) return;
  }
  throw new Error(
    `The restore drill needs ${missing.join(' and ')}, which ${canApt ? 'apt-get could not install' : 'are not installed'}.\n` +
      `  Fix: sudo apt-get install ${missing.join(' ')} (Debian/Ubuntu), then run it again.`,
  );
}

export interface Cluster {
  name: string;
  dir: string;
  port: number;
  /** A URL to one of its databases (TCP, password). */
  url(db?: string): string;
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[], db?: string): Promise<R[]>;
  /** A lost machine: the postmaster and every backend at once (SIGKILL). */
  kill(): Promise<void>;
  /** Fast shutdown. */
  stop(): Promise<void>;
  /** Resolves once recovery has ended (a hot standby takes read-only connections while it replays). */
  untilPrimary(): Promise<void>;
}

export interface DrillPostgres {
  /** The private folder holding everything below. */
  root: string;
  password: string;
  runAs: RunAs | undefined;
  /** `pgbackrest --config=… --stanza=drill <args>` as Postgres's user; its stdout, or rejects with its stderr. */
  pgbackrest(args: string[]): Promise<string>;
  /** A new primary cluster (initdb), archiving every WAL segment into the repository. */
  initPrimary(name: string): Promise<Cluster>;
  /** A cluster restored from the repository into a new folder (`pgbackrest restore` with `restoreArgs`), then started. */
  restore(name: string, restoreArgs: string[], opts?: { archive?: boolean; recoveryOptions?: string[] }): Promise<Cluster>;
  /** Removes a cluster's data folder (the cluster stopped or killed first). */
  destroy(c: Cluster): void;
  /** Stops every cluster still running and removes the private folder. */
  close(): Promise<void>;
}

export interface DrillPostgresOptions {
  log: (msg: string) => void;
  /** Seconds after which a WAL segment is archived even if not full: the bound on what archiving alone can lose. */
  archiveTimeoutSeconds: number;
  /** false: the primary does not archive (the bench's baseline; default true). */
  archive?: boolean;
}

export function startDrillPostgres(opts: DrillPostgresOptions): DrillPostgres {
  const runAs = postgresUser(opts.log);
  const root = path.join(os.tmpdir(), `bo-drill-${randomBytes(4).toString('hex')}`);
  const own = (p: string) => {
    if (runAs) chownSync(p, runAs.uid, runAs.gid);
  };
  const dir = (...parts: string[]) => {
    const p = path.join(root, ...parts);
    mkdirSync(p, { recursive: true, mode: 0o700 });
    own(p);
    return p;
  };
  dir();
  const password = randomBytes(12).toString('hex');
  const socketDir = dir('socket');
  const configPath = path.join(root, 'pgbackrest.conf');
  const primaryDir = path.join(root, 'pg-primary');
  // The repository is encrypted with a passphrase of this run, and keeps two full backups (with
  // the WAL they need): the settings a production repository has, so the drill exercises them.
  writeFileSync(
    configPath,
    [
      '[global]',
      `repo1-path=${dir('repo')}`,
      'repo1-cipher-type=aes-256-cbc',
      `repo1-cipher-pass=${randomBytes(24).toString('base64')}`,
      'repo1-retention-full=2',
      'compress-type=lz4',
      'start-fast=y',
      `log-path=${dir('log')}`,
      `lock-path=${dir('lock')}`,
      'log-level-console=warn',
      'log-level-file=info',
      '',
      `[${STANZA}]`,
      `pg1-path=${primaryDir}`,
      `pg1-socket-path=${socketDir}`,
    ].join('\n'),
    { mode: 0o600 },
  );
  own(configPath);

  // Not spawnSync: the drill's webhook receivers and clients keep running while a backup is taken.
  const pgbackrest = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = spawn('pgbackrest', [`--config=${configPath}`, `--stanza=${STANZA}`, ...args], {
        ...runAs,
        cwd: root,
        env: { ...process.env, LC_MESSAGES: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.once('error', reject);
      child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`pgbackrest ${args.join(' ')} failed (${code}): ${(err || out).trim()}`))));
    });

  const running = new Set<{ process: PostgresProcess }>();
  const common = (port: number) => [
    '-c',
    `unix_socket_directories=${socketDir}`,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=300',
    // A lost process, not a lost machine: the page cache keeps every write, so fsync buys nothing here.
    '-c',
    'fsync=off',
    '-c',
    'wal_level=replica',
    '-c',
    'max_wal_senders=5',
    '-c',
    `cluster_name=drill-${port}`,
  ];
  const archiving = [
    '-c',
    'archive_mode=on',
    '-c',
    `archive_command=pgbackrest --config=${configPath} --stanza=${STANZA} archive-push %p`,
    '-c',
    `archive_timeout=${opts.archiveTimeoutSeconds}s`,
  ];

  const clusterOf = async (name: string, dataDir: string, flags: string[], port: number): Promise<Cluster> => {
    // Only through the socket in our private folder (pgBackRest's way in) does a local user skip the password.
    const hba = path.join(dataDir, 'pg_hba.conf');
    const rules = readFileSync(hba, 'utf8');
    if (!rules.startsWith('local all all trust')) writeFileSync(hba, `local all all trust\n${rules}`);
    const process = await startPostmaster(PG15, dataDir, port, [...common(port), ...flags], runAs);
    const node = { process };
    running.add(node);
    const url = (db = 'postgres') => `postgres://postgres:${password}@127.0.0.1:${port}/${db}`;
    const cluster: Cluster = {
      name,
      dir: dataDir,
      port,
      url,
      async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], db = 'postgres') {
        const c = new pg.Client({ connectionString: url(db), connectionTimeoutMillis: 30_000 });
        await c.connect();
        try {
          return (await c.query<R>(text, values)).rows;
        } finally {
          await c.end().catch(() => undefined);
        }
      },
      async kill() {
        const pid = process.child.pid;
        if (pid !== undefined && process.child.exitCode === null && process.child.signalCode === null) {
          // A postmaster killed alone leaves its backends running: them too, at once.
          const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
            .stdout.split('\n')
            .map((l) => Number(l.trim()))
            .filter((n) => n > 0);
          process.child.kill('SIGKILL');
          for (const child of children) {
            try {
              globalThis.process.kill(child, 'SIGKILL');
            } catch {
              // Gone already.
            }
          }
        }
        await process.exited;
        running.delete(node);
      },
      async stop() {
        if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGINT');
        await process.exited;
        running.delete(node);
      },
      async untilPrimary() {
        await waitFor(async () => (await cluster.query<{ r: boolean }>('select pg_is_in_recovery() as r'))[0]?.r === false, {
          timeoutMs: 300_000,
          intervalMs: 100,
          what: `${name} out of recovery`,
        });
      },
    };
    return cluster;
  };

  return {
    root,
    password,
    runAs,
    pgbackrest,
    async initPrimary(name) {
      await initCluster(PG15, primaryDir, password, runAs);
      const port = await freePort();
      // The repository's stanza is this cluster (backups are taken from it): pgBackRest reaches it on its port's socket.
      writeFileSync(configPath, `${readFileSync(configPath, 'utf8')}\npg1-port=${port}\n`);
      return clusterOf(name, primaryDir, opts.archive === false ? [] : archiving, port);
    },
    async restore(name, restoreArgs, o = {}) {
      const target = dir(name);
      await pgbackrest(['restore', `--pg1-path=${target}`, ...(o.recoveryOptions ?? []).map((r) => `--recovery-option=${r}`), ...restoreArgs]);
      return clusterOf(name, target, o.archive === false ? [] : archiving, await freePort());
    },
    destroy(c) {
      rmSync(c.dir, { recursive: true, force: true });
    },
    async close() {
      for (const node of [...running]) {
        if (node.process.child.exitCode === null && node.process.child.signalCode === null) node.process.child.kill('SIGINT');
        await node.process.exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
