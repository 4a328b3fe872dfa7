// `npm start` stops cleanly whichever way it is told to: SIGTERM to npm, SIGTERM or SIGINT to the
// start script, Ctrl-C (SIGINT to the whole process group), or npm killed outright. Each run starts
// its own embedded Postgres and nats-server (START_OWN_SERVERS=1) in a private data folder, so the
// test sees every process `npm start` owns, and checks that none is left afterwards.
import t from 'tap';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { waitFor } from '@bo/service-kit/testing';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDir = path.join('/tmp', `bo-start-stop-${randomBytes(4).toString('hex')}`);
mkdirSync(dataDir, { recursive: true, mode: 0o755 });
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every live descendant of pid (ps works on Linux and macOS). */
function descendants(pid: number): Map<number, string> {
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
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Started {
  npm: ChildProcess;
  output: () => string;
  tree: Map<number, string>;
  script: number;
}

async function startSystem(port: number): Promise<Started> {
  // Its own process group, as a terminal would make it, so "Ctrl-C" can be sent to the group.
  // DATABASE_URL / NATS_URL (which `npm test` sets) would win over START_OWN_SERVERS.
  const { DATABASE_URL: _db, NATS_URL: _nats, ...inherited } = process.env;
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      START_OWN_SERVERS: '1',
      START_DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PORT: String(port + 1),
      // 7400-7810: clear of NATS (4222), Postgres (5432) and the other local servers.
      METRICS_PORT: String(port + 4000),
      NATS_PREFIX: 'startstop',
      LOG_LEVEL: 'warn',
    },
  });
  let out = '';
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
  const script = [...tree].find(([, cmd]) => /scripts\/start\.ts/.test(cmd))?.[0];
  if (!script) throw new Error(`no start script among ${JSON.stringify([...tree])}`);
  return { npm, output: () => out, tree, script };
}

const ways: Array<[string, (s: Started) => void]> = [
  ['SIGTERM to npm', (s) => process.kill(s.npm.pid!, 'SIGTERM')],
  ['SIGINT to the start script', (s) => process.kill(s.script, 'SIGINT')],
  ['SIGTERM to the start script', (s) => process.kill(s.script, 'SIGTERM')],
  ['Ctrl-C (SIGINT to the process group)', (s) => process.kill(-s.npm.pid!, 'SIGINT')],
  ['npm killed outright (SIGKILL)', (s) => process.kill(s.npm.pid!, 'SIGKILL')],
];

let port = 3400 + (process.pid % 200) * 2;
// Each run also takes the metrics ports port+500 … port+504.
for (const [how, signal] of ways) {
  t.test(`npm start stops every process on ${how}`, async (t) => {
    port += 2;
    const s = await startSystem(port);
    const commands = [...s.tree.values()].join('\n');
    t.match(commands, /postgres -D/, 'it runs an embedded Postgres');
    t.match(commands, /nats-server -js/, 'and a nats-server');
    t.equal([...s.tree.values()].filter((c) => /services\/\w+\/src\/main\.ts/.test(c)).length, 5, 'and the gateway and four services');
    signal(s);
    const left = await waitFor(
      async () => {
        const remaining = [...s.tree.keys()].filter(alive);
        return remaining.length === 0 ? [] : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: `every process to stop after ${how}` },
    ).catch(() => [...s.tree].filter(([pid]) => alive(pid)));
    t.same(left, [], 'no process is left behind');
    t.match(s.output(), /\[start\] stopped/, 'the start script stopped in order');
    const portOpen = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => true,
      () => false,
    );
    t.equal(portOpen, false, 'the public port is closed');
  });
}
