// A NATS restart mid-delivery loses nothing: the test runs its own nats-server (never the shared
// one), holds a delivery open at the receiver, restarts NATS, and checks that the held delivery is
// recorded and that events published after the restart are still consumed and delivered.
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { configOf, startService } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, testPrefix, waitFor } from '@bo/service-kit/testing';
import { WebhooksConfigSchema, webhooksService } from '../src/index.ts';
import { newWebhookSecret, publishEvent, startReceiver, upsertEndpoint } from './helpers.ts';

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

t.test('NATS restarts while a delivery is in flight', { skip: NATS_SERVER ? false : 'nats-server binary not found' }, async (t) => {
  const port = await freePort();
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'bo-wh-nats-'));
  let nats = startNats(port, storeDir);
  await waitFor(() => reachable(port), { what: 'private nats-server up' });
  const natsUrl = `nats://127.0.0.1:${port}`;

  const db = await createTestDatabase('whnats');
  const prefix = testPrefix('whnats');
  const config = configOf(WebhooksConfigSchema, {
    DATABASE_URL: db.url,
    NATS_URL: natsUrl,
    NATS_PREFIX: prefix,
    WEBHOOK_RETRY_SCHEDULE_MS: '50,50,50,50,50,50,50',
    WEBHOOK_TIMEOUT_MS: 20_000,
    WEBHOOK_POLL_MS: 50,
  });
  const svc = await startService(webhooksService, config);
  const publisher = await connect({ servers: natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, (n) => (n === 1 ? 'hang' : 200));
  t.teardown(async () => {
    rx.releaseAll();
    await rx.close();
    await svc.stop();
    await cleanupNatsPrefix(prefix).catch(() => undefined);
    await publisher.close().catch(() => undefined);
    nats.proc.kill('SIGTERM');
    await nats.exited;
    rmSync(storeDir, { recursive: true, force: true });
    await db.drop();
  });

  await upsertEndpoint({ svc, prefix }, { operatorId: 'op_n', environment: 'sandbox', brandId: 'brd_op_n', secret, url: rx.url });
  const routing = { operatorId: 'op_n', environment: 'sandbox' as const };
  const first = await publishEvent(publisher, prefix, routing, 'webhook.test', { message: 'before the restart' });
  await waitFor(async () => rx.held() === 1, { what: 'first delivery held by the receiver' });

  nats.proc.kill('SIGTERM');
  await nats.exited;
  t.notOk(await reachable(port), 'NATS is down');
  // The held attempt completes while NATS is down: deliveries do not depend on NATS.
  rx.releaseAll(200);
  await waitFor(
    async () => {
      const rows = await svc.sql.query<{ status: string }>('select status from webhooks.deliveries where event_id = ?', [first.event.id]);
      return rows[0]?.status === 'delivered';
    },
    { what: 'first delivery recorded with NATS down' },
  );

  nats = startNats(port, storeDir);
  await waitFor(() => reachable(port), { what: 'nats-server back' });
  const second = await waitFor(async () => publishEvent(publisher, prefix, routing, 'webhook.test', { message: 'after the restart' }).catch(() => undefined), {
    what: 'publish after restart',
    timeoutMs: 60_000,
    intervalMs: 250,
  });
  await waitFor(async () => rx.requests.some((r) => r.webhookId === second.event.id), { what: 'second event delivered', timeoutMs: 60_000 });
  t.equal(rx.requests.filter((r) => r.webhookId === first.event.id).length, 1, 'first event sent once');
  t.equal(rx.requests.filter((r) => r.webhookId === second.event.id).length, 1, 'second event consumed and sent after the restart');
  t.ok(rx.requests.every((r) => r.contractSignatureOk));
});
