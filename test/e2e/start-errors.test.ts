// `npm start` refuses clearly, with the fix in one line, when it cannot start: a port in use, a
// Postgres that refuses the password or does not answer, a NATS without JetStream, no NATS and no
// nats-server to start. Each case runs the start script and reads what it printed.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { freePort, freePortBlock, startEmbeddedPostgres } from '../../scripts/local-infra.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runStart(env: Record<string, string | undefined>): Promise<{ code: number | null; out: string }> {
  const { DATABASE_URL: _d, NATS_URL: _n, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts/start.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: Object.fromEntries(
      Object.entries({ ...inherited, START_DATA_DIR: `/tmp/bo-start-errors-${process.pid}`, ...env }).filter(([, v]) => v !== undefined),
    ) as NodeJS.ProcessEnv,
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
  // PORT, ADMIN_PORT and the metrics ports (METRICS_PORT for the gateway, the next four for the
  // services) in one block clear of the ephemeral range: a kernel-chosen METRICS_PORT once had a
  // neighbour taken by an outgoing connection, and start refused that instead of what was tested.
  const ports = async () => {
    const base = await freePortBlock(7);
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
});
