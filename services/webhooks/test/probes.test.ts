// The probes k8s uses, on the internal METRICS_PORT: /livez answers while the process does,
// whatever its dependencies; /readyz is 200 only while NATS answers, Postgres answers, the outbox
// relay and the service's consumers run, and 503 naming what is wrong otherwise. The test runs its
// own nats-server and database, takes each away and brings it back.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { configOf, startService } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, serverDatabaseUrl, testPrefix, waitFor } from '@bo/service-kit/testing';
import { WebhooksConfigSchema, webhooksService } from '../src/index.ts';

const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function startNats(port: number, storeDir: string): { proc: ChildProcess; exited: Promise<void> } {
  const proc = spawn(NATS_SERVER!, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { proc, exited };
}

async function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Runs one statement as the server's admin, on the `postgres` database. */
async function asAdmin(sql: string): Promise<void> {
  const url = new URL(serverDatabaseUrl());
  url.pathname = '/postgres';
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

t.test('liveness and readiness on the internal port', { skip: NATS_SERVER ? false : 'nats-server binary not found' }, async (t) => {
  const port = await freePort();
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'bo-wh-probes-'));
  let nats = startNats(port, storeDir);
  await waitFor(() => reachable(port), { what: 'private nats-server up' });
  const db = await createTestDatabase('whprobes');
  const prefix = testPrefix('whprobes');
  const svc = await startService(
    webhooksService,
    configOf(WebhooksConfigSchema, { DATABASE_URL: db.url, NATS_URL: `nats://127.0.0.1:${port}`, NATS_PREFIX: prefix, METRICS_PORT: 0 }),
  );
  t.teardown(async () => {
    await asAdmin(`alter database "${db.name}" allow_connections true`);
    await svc.stop();
    await cleanupNatsPrefix(prefix).catch(() => undefined);
    nats.proc.kill('SIGTERM');
    await nats.exited;
    rmSync(storeDir, { recursive: true, force: true });
    await db.drop();
  });
  const probe = async (p: '/livez' | '/readyz') => {
    const res = await fetch(`http://127.0.0.1:${svc.metricsPort}${p}`);
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
  };
  const answers = (status: number) => async () => {
    const r = await probe('/readyz');
    return r.status === status ? r : undefined;
  };

  const ready = await waitFor(answers(200), { what: 'ready once the consumers run' });
  t.same(
    ready.body,
    {
      status: 'ready',
      checks: { nats: 'ok', postgres: 'ok', 'outbox relay': 'ok', 'endpoint changes consumer': 'ok', 'event intake and delivery': 'ok' },
    },
    'NATS, Postgres, the outbox relay and both consumers',
  );
  t.same(await probe('/livez'), { status: 200, body: { status: 'live' } });

  // The database refuses new connections and drops the service's: unreachable for it.
  await asAdmin(`alter database "${db.name}" allow_connections false`);
  await asAdmin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${db.name}' and pid <> pg_backend_pid()`);
  const noDb = await waitFor(answers(503), { what: 'unready without its database' });
  t.equal(noDb.body.status, 'not_ready');
  t.not(noDb.body.checks.postgres, 'ok', `postgres: ${noDb.body.checks.postgres}`);
  t.equal(noDb.body.checks.nats, 'ok', 'NATS is not blamed');
  t.equal((await probe('/livez')).status, 200, 'alive all the same: an outage must not restart it');
  await asAdmin(`alter database "${db.name}" allow_connections true`);
  t.equal((await waitFor(answers(200), { what: 'ready again with its database back' })).body.checks.postgres, 'ok');

  // NATS goes away: the connection keeps trying to reconnect, and the service is unready meanwhile.
  nats.proc.kill('SIGTERM');
  await nats.exited;
  const noNats = await waitFor(answers(503), { what: 'unready without NATS' });
  t.not(noNats.body.checks.nats, 'ok', `nats: ${noNats.body.checks.nats}`);
  t.equal((await probe('/livez')).status, 200, 'alive without NATS too');
  nats = startNats(port, storeDir);
  await waitFor(() => reachable(port), { what: 'nats-server back' });
  const back = await waitFor(answers(200), { what: 'ready again once NATS is back', timeoutMs: 90_000 });
  t.equal(back.body.checks.nats, 'ok');
});
