// At-least-once across crashes: the service runs as a real process, dies at a named crash point
// (or is SIGKILLed while the receiver holds the request), is started again, and the event still
// arrives with the same X-Webhook-Id. The attempt cut short shows in the log as interrupted.
import t, { type Test } from 'tap';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { WEBHOOK_SUBJECTS } from '@bo/contracts';
import { cleanupNatsPrefix, createTestDatabase, spawnServiceProcess, testNatsUrl, testPrefix, waitFor, type ServiceProcess } from '@bo/service-kit/testing';
import { gatewayScope, call, newWebhookSecret, publishEvent, startReceiver, type Reply } from './helpers.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

type Running = ServiceProcess;

function startProcess(env: Record<string, string>): Promise<Running> {
  return spawnServiceProcess('webhooks', MAIN, env);
}

async function stopProcess(r: Running | undefined): Promise<void> {
  await r?.stop();
}

async function scenario(t: Test, opts: { crashAt?: string; reply: (n: number) => Reply; killWhenHeld?: boolean }) {
  const db = await createTestDatabase('whcrash');
  const prefix = testPrefix('whcrash');
  const nc: NatsConnection = await connect({ servers: testNatsUrl() });
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, opts.reply);
  const env = {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    WEBHOOK_RETRY_SCHEDULE_MS: '50,50,50,50,50,50,50',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_LEASE_GRACE_MS: '500',
    WEBHOOK_POLL_MS: '50',
  };
  let running: Running | undefined;
  t.teardown(async () => {
    await rx.close();
    await stopProcess(running);
    await nc.close();
    await sql.end();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });

  running = await startProcess({ ...env, ...(opts.crashAt ? { CRASH_AT: opts.crashAt } : {}) });
  // Ready when it answers; the endpoint sync is idempotent, so it is simply repeated until then.
  const endpoint = { operatorId: 'op_c', environment: 'sandbox' as const, brandId: 'brd_op_c' };
  await waitFor(
    async () =>
      (await call(nc, prefix, WEBHOOK_SUBJECTS.upsertEndpoint, gatewayScope, { body: { ...endpoint, secret, url: rx.url } }).catch(() => ({ ok: false }))).ok,
    { what: 'service up', timeoutMs: 60_000, intervalMs: 200 },
  );

  const { event, raw } = await publishEvent(nc, prefix, { operatorId: 'op_c', environment: 'sandbox' }, 'deposit.confirmed', {
    id: 'dep_c',
    playerId: 'plr_c',
    amount: '10.00',
    currency: 'BRL',
    method: 'pix',
    externalReference: 'c',
    status: 'confirmed',
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    confirmedAt: '2026-11-21T10:00:00.000Z',
    failedAt: null,
    failureReason: null,
  });

  if (opts.killWhenHeld) {
    await waitFor(async () => rx.held() === 1, { what: 'receiver holding the request' });
    running.kill('SIGKILL');
  }
  const death = await running.exited;
  t.equal(death.signal, 'SIGKILL', `the process died (${opts.crashAt ?? 'SIGKILL'})`);
  if (opts.crashAt) t.match(running.stderrTail(), `crash point ${opts.crashAt}`);

  const stored = await sql.query('select count(*)::int n from webhooks.events where id = $1', [event.id]);
  t.equal(stored.rows[0].n, 1, 'the event was stored before the crash');
  const before = rx.requests.length;

  running = await startProcess(env);
  await waitFor(
    async () => {
      const r = await sql.query(`select status from webhooks.deliveries where event_id = $1`, [event.id]);
      return r.rows[0]?.status === 'delivered';
    },
    { what: 'delivered after restart', timeoutMs: 60_000 },
  );

  t.ok(rx.requests.length > before, 'a request arrived after the restart');
  t.ok(
    rx.requests.every((r) => r.webhookId === event.id),
    'every request carries the same X-Webhook-Id',
  );
  t.ok(
    rx.requests.every((r) => r.raw.toString() === raw && r.contractSignatureOk),
    'same bytes, valid signature',
  );
  const attempts = await sql.query('select attempt, outcome from webhooks.attempts where event_id = $1 order by attempt', [event.id]);
  const deliveries = await sql.query('select count(*)::int n from webhooks.deliveries where event_id = $1', [event.id]);
  t.equal(deliveries.rows[0].n, 1, 'one delivery');
  return { attempts: attempts.rows as { attempt: number; outcome: string }[], requests: rx.requests.length };
}

t.test('crash after the receiver answered but before the attempt was recorded', async (t) => {
  const r = await scenario(t, { crashAt: 'webhooks.deliver.before-record', reply: () => 200 });
  t.same(r.attempts, [
    { attempt: 1, outcome: 'interrupted' },
    { attempt: 2, outcome: 'delivered' },
  ]);
  t.equal(r.requests, 2, 'delivered twice: at-least-once, deduplicated by the receiver on X-Webhook-Id');
});

t.test('crash after the attempt was claimed, before anything was sent', async (t) => {
  const r = await scenario(t, { crashAt: 'webhooks.deliver.after-claim', reply: () => 200 });
  t.same(r.attempts, [
    { attempt: 1, outcome: 'interrupted' },
    { attempt: 2, outcome: 'delivered' },
  ]);
  t.equal(r.requests, 1);
});

t.test('crash after the event was stored with its first attempt leased, before it was acked or sent', async (t) => {
  // The intake's lease lapses like a claim's: the attempt counts as interrupted, the next one delivers.
  const r = await scenario(t, { crashAt: 'webhooks.ingest.after-commit', reply: () => 200 });
  t.same(r.attempts, [
    { attempt: 1, outcome: 'interrupted' },
    { attempt: 2, outcome: 'delivered' },
  ]);
  t.equal(r.requests, 1);
});

t.test('SIGKILL while the receiver holds a retry (an attempt the claim loop started)', async (t) => {
  const r = await scenario(t, { killWhenHeld: true, reply: (n) => (n === 1 ? 500 : n === 2 ? 'hang' : 200) });
  t.same(r.attempts, [
    { attempt: 1, outcome: 'failed' },
    { attempt: 2, outcome: 'interrupted' },
    { attempt: 3, outcome: 'delivered' },
  ]);
  t.equal(r.requests, 3);
});

t.test('SIGKILL while the receiver holds the request', async (t) => {
  const r = await scenario(t, { killWhenHeld: true, reply: (n) => (n === 1 ? 'hang' : 200) });
  t.same(r.attempts, [
    { attempt: 1, outcome: 'interrupted' },
    { attempt: 2, outcome: 'delivered' },
  ]);
  t.equal(r.requests, 2);
});
