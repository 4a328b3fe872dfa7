// The scheduled restore test's script (deploy/k8s/restore-test.ts, the CronJob of
// deploy/k8s/restore-test.example.yaml) as the CronJob runs it, against stand-ins for the Kubernetes
// API and the Pushgateway and a real Postgres, migrated by the wallet, as the restored copy: it
// creates a scratch Cluster from the latest backup that never archives into the live store nor
// follows the live Cluster, waits for it, verifies the ledger, pushes the outcome and deletes the
// scratch Cluster; a ledger that does not verify, and a restore that never becomes ready, push a
// failure (the last success's time left as it was) and exit 1, the scratch Cluster deleted all the same.
import t from 'tap';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { cleanupNatsPrefix, createTestDatabase, spawnServiceProcess, testNatsUrl, testPrefix } from '@bo/service-kit/testing';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(ROOT, 'deploy/k8s/restore-test.ts');
const CLUSTERS = '/apis/postgresql.cnpg.io/v1/namespaces/back-office-db/clusters';
const SCRATCH = 'back-office-db-restore-test';
const TOKEN = 'a-service-account-token';

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let b = '';
    req.on('data', (c) => {
      b += c;
    });
    req.on('end', () => resolve(b));
  });

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

/** The Kubernetes API as the script uses it: the scratch Cluster's life, ready after `readyAfter` reads (never when undefined). */
function kubernetesStandIn(opts: { readyAfter?: number; leftover?: boolean }) {
  const state = { exists: !!opts.leftover, reads: 0, created: [] as any[], deletes: 0, unauthorized: 0 };
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      state.unauthorized++;
      return send(401, { message: 'Unauthorized' });
    }
    const body = await bodyOf(req);
    if (req.method === 'POST' && req.url === CLUSTERS) {
      if (state.exists) return send(409, { message: 'AlreadyExists' });
      state.exists = true;
      state.reads = 0;
      state.created.push(JSON.parse(body));
      return send(201, JSON.parse(body));
    }
    if (req.url === `${CLUSTERS}/${SCRATCH}`) {
      if (!state.exists) return send(404, { message: 'NotFound' });
      if (req.method === 'DELETE') {
        state.exists = false;
        state.deletes++;
        return send(200, { status: 'Success' });
      }
      state.reads++;
      const ready = opts.readyAfter !== undefined && state.reads > opts.readyAfter;
      return send(200, {
        status: ready
          ? { phase: 'Cluster in healthy state', conditions: [{ type: 'Ready', status: 'True' }] }
          : { phase: 'Setting up primary', conditions: [{ type: 'Ready', status: 'False' }] },
      });
    }
    send(404, { message: `no route ${req.method} ${req.url}` });
  });
  return { server, state };
}

function pushgatewayStandIn() {
  const pushes: Array<{ method: string; url: string; body: string }> = [];
  const server = createServer(async (req, res) => {
    pushes.push({ method: req.method!, url: req.url!, body: await bodyOf(req) });
    res.writeHead(200);
    res.end();
  });
  return { server, pushes };
}

function runScript(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [SCRIPT], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

t.test('the scheduled restore test', async (t) => {
  // The restored copy: a database the wallet migrated, as a restore of the live one holds its schema.
  const db = await createTestDatabase('restoretest', { empty: true });
  t.teardown(() => db.drop());
  // The wallet's start makes its streams under this prefix: removed after the test, as every test's are.
  const prefix = testPrefix('restoretest');
  t.teardown(() => cleanupNatsPrefix(prefix));
  const wallet = await spawnServiceProcess('wallet', path.join(ROOT, 'services/wallet/src/main.ts'), {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
  });
  await wallet.stop();
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  t.teardown(() => sql.end());

  const gateway = pushgatewayStandIn();
  const gatewayUrl = await listen(gateway.server);
  t.teardown(() => gateway.server.close());

  const run = async (k8s: ReturnType<typeof kubernetesStandIn>, extra: Record<string, string> = {}) => {
    const apiUrl = await listen(k8s.server);
    t.teardown(() => k8s.server.close());
    gateway.pushes.length = 0;
    return runScript({
      KUBERNETES_API_URL: apiUrl,
      KUBERNETES_TOKEN: TOKEN,
      RESTORE_NAMESPACE: 'back-office-db',
      RESTORE_SCRATCH_CLUSTER: SCRATCH,
      RESTORE_OBJECT_STORE: 'back-office-db-site-a',
      RESTORE_SERVER_NAME: 'back-office-db-site-a',
      RESTORE_IMAGE_NAME: 'ghcr.io/cloudnative-pg/postgresql:16',
      RESTORE_STORAGE_SIZE: '50Gi',
      PUSHGATEWAY_URL: `${gatewayUrl}/`,
      RESTORE_SITE: 'site-a',
      RESTORE_POLL_MS: '20',
      RESTORE_DATABASE_URL: db.url,
      ...extra,
    });
  };

  await t.test('a sound ledger: the outcome pushed as a success, the scratch Cluster created from the backup and deleted', async (t) => {
    await sql.query(
      `insert into wallet.ledger_transactions (id, source, type, brand_id, currency, reference_id, created_at)
       values ('ltx_restoretest', 'restore-test', 'deposit', 'brd_restoretest', 'BRL', 'dep_restoretest', '2026-11-20T10:00:00Z')`,
    );
    const k8s = kubernetesStandIn({ readyAfter: 3, leftover: true });
    const r = await run(k8s);
    t.equal(r.code, 0, 'exit 0', { output: r.out });
    t.equal(k8s.state.unauthorized, 0, "every call carried the service account's token");
    t.equal(k8s.state.created.length, 1, 'one scratch Cluster created');
    t.equal(k8s.state.deletes, 2, "an earlier run's leftover deleted first, this run's own at the end");
    t.notOk(k8s.state.exists, 'no scratch Cluster left');
    const cluster = k8s.state.created[0];
    t.match(cluster, {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: SCRATCH, namespace: 'back-office-db' },
      spec: {
        instances: 1,
        imageName: 'ghcr.io/cloudnative-pg/postgresql:16',
        bootstrap: { recovery: { source: 'origin', database: 'backoffice', owner: 'back_office' } },
        externalClusters: [
          {
            name: 'origin',
            plugin: { name: 'barman-cloud.cloudnative-pg.io', parameters: { barmanObjectName: 'back-office-db-site-a', serverName: 'back-office-db-site-a' } },
          },
        ],
        storage: { size: '50Gi' },
      },
    });
    t.notOk(cluster.spec.plugins, 'the scratch Cluster archives nothing: it never writes into the live object store');
    t.notOk(cluster.spec.replica, 'nor follows the live Cluster');
    t.notOk(cluster.spec.bootstrap.recovery.recoveryTarget, 'as far as the archive reaches: the latest backup and the WAL after it');
    t.equal(gateway.pushes.length, 1, 'one push');
    const push = gateway.pushes[0]!;
    t.equal(push.method, 'POST', 'POST: only the series pushed are replaced');
    t.equal(push.url, '/metrics/job/back-office-restore-test/site/site-a');
    t.match(push.body, /^bo_restore_test_ok 1$/m);
    t.match(push.body, /^bo_restore_test_last_success_timestamp_seconds \d{10}$/m);
    t.match(push.body, /^bo_restore_test_last_run_timestamp_seconds \d{10}$/m);
    t.match(push.body, /^bo_restore_test_duration_seconds \d+$/m);
    t.match(push.body, /^bo_restore_test_ledger_issues 0$/m);
    t.match(
      push.body,
      `bo_restore_test_recovered_to_timestamp_seconds ${Date.parse('2026-11-20T10:00:00Z') / 1000}\n`,
      'the newest money movement the copy holds',
    );
  });

  await t.test('a ledger that does not verify: a failure pushed, the last success left as it was, exit 1', async (t) => {
    // A player balance no entry accounts for.
    await sql.query(
      `insert into wallet.accounts (id, kind, brand_id, player_id, currency, available) values ('acc_restoretest', 'player', 'brd_restoretest', 'plr_restoretest', 'BRL', 10.00)`,
    );
    const k8s = kubernetesStandIn({ readyAfter: 1 });
    const r = await run(k8s);
    t.equal(r.code, 1, 'exit 1', { output: r.out });
    t.match(r.out, /"msg":"restore test: ledger verification","ok":false/);
    t.match(r.out, /acc_restoretest/, 'the mismatched account is in the log');
    const push = gateway.pushes[0]!;
    t.match(push.body, /^bo_restore_test_ok 0$/m);
    t.match(push.body, /^bo_restore_test_ledger_issues [1-9]\d*$/m);
    t.notMatch(push.body, /last_success/, 'the last success is not touched');
    t.notOk(k8s.state.exists, 'the scratch Cluster deleted');
    await sql.query(`delete from wallet.accounts where id = 'acc_restoretest'`);
  });

  await t.test('a restore that never becomes ready: a failure pushed at the timeout, the scratch Cluster deleted', async (t) => {
    const k8s = kubernetesStandIn({});
    const r = await run(k8s, { RESTORE_TIMEOUT_SECONDS: '1' });
    t.equal(r.code, 1, 'exit 1', { output: r.out });
    t.match(r.out, /was not ready within 1 s \(last phase: Setting up primary\)/);
    const push = gateway.pushes[0]!;
    t.match(push.body, /^bo_restore_test_ok 0$/m);
    t.notMatch(push.body, /last_success|ledger_issues|duration/, 'nothing measured');
    t.equal(k8s.state.deletes, 1);
    t.notOk(k8s.state.exists);
  });
});
