// A gateway (re)started while NATS is away listens at once and answers 503 with Retry-After until
// NATS comes up, then serves (issue #56, item 6): one restarted under stacked faults took ~35 s to
// listen, exiting at its first refused connection and restarted with a growing back-off. The real
// gateway process (main.ts, as `npm start` or an orchestrator runs it) on fixed ports, NATS on a
// port where nothing listens yet; then a nats-server with JetStream started there.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '@bo/service-kit/testing';
import { freePort, startNatsServer, type LocalServer } from '../../scripts/local-infra.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

t.test('a gateway started while NATS is away listens, answers 503 with Retry-After, then serves once NATS is up', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-gateway-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const [natsPort, port, adminPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const started = Date.now();
  const gateway = spawn(process.execPath, [path.join(ROOT, 'services/gateway/src/main.ts')], {
    env: {
      ...process.env,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      NATS_PREFIX: `gwstart${process.pid}`,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let logs = '';
  gateway.stderr!.on('data', (d: Buffer) => {
    logs = (logs + d.toString()).slice(-8000);
  });
  const exited = new Promise<string>((resolve) => gateway.once('exit', (code, signal) => resolve(String(code ?? signal))));
  let nats: LocalServer | undefined;
  t.teardown(async () => {
    if (gateway.exitCode === null && gateway.signalCode === null) {
      gateway.kill('SIGTERM');
      await exited;
    }
    await nats?.stop();
  });

  const get = (url: string) =>
    fetch(url).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json().catch(() => undefined)) as any }));
  const urls = {
    public: `http://127.0.0.1:${port}/healthz`,
    operatorApi: `http://127.0.0.1:${port}/api/v1/me`,
    providerApi: `http://127.0.0.1:${port}/provider/v1/balance`,
    admin: `http://127.0.0.1:${adminPort}/admin/operators`,
  };
  // Listening while NATS is still away: before, the process exited at its first refused connection.
  const first = await waitFor(
    async () => {
      if (gateway.exitCode !== null || gateway.signalCode !== null) throw new Error(`the gateway exited (${await exited}) instead of listening:\n${logs}`);
      return get(urls.public).catch(() => undefined);
    },
    { timeoutMs: 60_000, intervalMs: 100, what: 'the public port to answer' },
  );
  t.pass(`listening ${Date.now() - started} ms after the process started, NATS away`);
  for (const [name, url] of Object.entries(urls)) {
    const r = name === 'public' ? first : await get(url);
    t.equal(r.status, 503, `${name}: 503 while NATS is away`);
    t.equal(r.body?.error?.code, 'SERVICE_UNAVAILABLE', `${name}: SERVICE_UNAVAILABLE in the envelope`);
    t.equal(r.headers.get('retry-after'), '1', `${name}: with Retry-After`);
    t.equal(r.body?.error?.requestId, r.headers.get('x-request-id'), `${name}: with its request id`);
  }
  t.match(await get(`http://127.0.0.1:${port}/readyz`), { status: 503, body: { status: 'not_ready', checks: { nats: false } } }, '/readyz in its own shape');
  t.equal((await fetch(`http://127.0.0.1:${metricsPort}/livez`)).status, 200, 'the internal liveness probe answers');
  const notReady = await get(`http://127.0.0.1:${metricsPort}/readyz`);
  t.match(notReady, { status: 503, body: { checks: { nats: 'not connected yet' } } }, 'not ready: NATS not connected yet');
  t.equal(gateway.exitCode, null, 'still running');

  nats = await startNatsServer({ purpose: 'test', dataDir: dir, log: () => undefined, ports: { nats: natsPort } });
  const served = await waitFor(async () => ((await get(urls.public).catch(() => undefined))?.status === 200 ? true : undefined), {
    timeoutMs: 120_000,
    intervalMs: 100,
    what: `the gateway to serve once NATS is up:\n${logs}`,
  });
  t.ok(served, 'NATS up: /healthz 200 on the same port');
  t.equal((await get(`http://127.0.0.1:${adminPort}/healthz`)).status, 200, 'the admin port serves too');
  t.equal((await get(urls.admin)).status, 401, 'the admin API authenticates again');
  t.equal((await get(`http://127.0.0.1:${metricsPort}/readyz`)).status, 200, 'ready');
});
