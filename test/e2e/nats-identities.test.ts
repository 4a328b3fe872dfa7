// NATS with identities (issue #40): the machine's real nats-server, with TLS and the authorization
// block deploy/k8s/nats.yaml carries (rendered by nats-identities.ts, the one source), refuses a
// client without credentials, refuses the gateway's identity a wallet credit and the events, lets
// payments' identity ask the wallet, and runs the real wallet process under its own identity over
// TLS without a single permission violation; the restore's identity purges the streams and cannot
// publish an event; then the whole system, each process under its own identity, takes a deposit through to the
// wallet and the webhooks' event log.
import t, { type Test } from 'tap';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { eventSubject, eventsStreamName, eventsWildcard, requestOperation, WALLET_SUBJECTS } from '@bo/contracts';
import { connectNats, ensureEventsStream } from '@bo/service-kit';
import { createTestDatabase, spawnServiceProcess, testPrefix, waitFor } from '@bo/service-kit/testing';
import { freePort } from '../../scripts/local-infra.ts';
import { COMPONENTS, playerInput, startStack, uniq } from './support/stack.ts';
import { NATS_COMPONENTS, RESTORE_USER, natsAuthorization, type NatsComponent } from '../../deploy/k8s/nats-identities.ts';
import { forgetJetStreamHistory } from '../../scripts/jetstream-forget.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NATS_SERVER = '/usr/sbin/nats-server';
const prefix = testPrefix('natsid');
const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-nats-identities-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

// A CA and a server certificate for 127.0.0.1, as cert-manager issues them in the cluster (nats-tls.yaml).
const file = (name: string) => path.join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=back-office test CA', '-keyout', file('ca.key'), '-out', file('ca.crt'));
openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=nats', '-keyout', file('server.key'), '-out', file('server.csr'));
writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
openssl(
  'x509',
  '-req',
  '-in',
  file('server.csr'),
  '-CA',
  file('ca.crt'),
  '-CAkey',
  file('ca.key'),
  '-CAcreateserial',
  '-days',
  '1',
  '-extfile',
  file('san.ext'),
  '-out',
  file('server.crt'),
);

// A password per component, letter first (nats-server reads them as config values).
const passwords = Object.fromEntries([...NATS_COMPONENTS, RESTORE_USER].map((c) => [c, `p${randomBytes(24).toString('hex')}`])) as Record<
  NatsComponent | typeof RESTORE_USER,
  string
>;
const identity = (user: NatsComponent | typeof RESTORE_USER) => ({ NATS_USER: user, NATS_PASSWORD: passwords[user], NATS_TLS_CA_FILE: file('ca.crt') });

let url = '';
let serverLog = '';
let server: ChildProcess | undefined;
const violations = () => serverLog.split('\n').filter((l) => /Violation/.test(l));
/** Violations by our processes (their connections are named after the component; this test's are `test-*`). */
const violationsOfProcesses = () => violations().filter((l) => !/nats\.js:test-/.test(l));

t.before(async () => {
  const port = await freePort();
  writeFileSync(
    file('nats.conf'),
    [
      `listen: 127.0.0.1:${port}`,
      `jetstream { store_dir: ${JSON.stringify(file('js'))} }`,
      `tls { cert_file: ${JSON.stringify(file('server.crt'))}, key_file: ${JSON.stringify(file('server.key'))}, ca_file: ${JSON.stringify(file('ca.crt'))}, timeout: 5 }`,
      natsAuthorization(prefix, passwords),
    ].join('\n'),
  );
  server = spawn(NATS_SERVER, ['-c', file('nats.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const s of [server.stdout!, server.stderr!])
    s.on('data', (d: Buffer) => {
      serverLog += d;
    });
  await waitFor(async () => serverLog.includes('Server is ready') || server!.exitCode !== null || undefined, { what: 'nats-server to be ready' });
  if (server.exitCode !== null) throw new Error(`nats-server did not start:\n${serverLog}`);
  url = `nats://127.0.0.1:${port}`;
});
t.teardown(async () => {
  if (!server || server.exitCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((r) => server!.once('exit', r));
});

/** A connection with one component's identity (what the kit makes of its NATS_* settings). */
async function as(t: Test, user: NatsComponent | typeof RESTORE_USER): Promise<NatsConnection> {
  const nc = await connectNats(url, `test-${user}`, true, identity(user));
  t.teardown(() => nc.close());
  return nc;
}

/** The first permission error the server reports on this connection. */
function firstPermissionError(nc: NatsConnection): Promise<string> {
  return (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'error' && /Permissions Violation/i.test(String(s.error))) return String(s.error);
    }
    return 'connection closed without a permission error';
  })();
}

t.test('no identity, or a wrong password, is refused at connect; TLS is required', async (t) => {
  await t.rejects(connectNats(url, 'nobody', true, { NATS_TLS_CA_FILE: file('ca.crt') }), /Authorization Violation/i, 'no credentials');
  await t.rejects(
    connectNats(url, 'guess', true, { ...identity('payments'), NATS_PASSWORD: passwords.gateway }),
    /Authorization Violation/i,
    "payments' user with the gateway's password",
  );
  // The server requires TLS: the client must upgrade, and trusts the server only with our CA.
  await t.rejects(
    connectNats(url, 'no-ca', true, { NATS_USER: 'payments', NATS_PASSWORD: passwords.payments }),
    /certificate/,
    "without our CA the server's certificate is not trusted",
  );
});

t.test('the real wallet process runs under its identity; payments may credit, the gateway may not', async (t) => {
  const db = await createTestDatabase('natsid');
  const wallet = await spawnServiceProcess('wallet', path.join(ROOT, 'services/wallet/src/main.ts'), {
    DATABASE_URL: db.url,
    NATS_URL: url,
    NATS_PREFIX: prefix,
    METRICS_PORT: 0,
    ...identity('wallet'),
  });
  t.teardown(async () => {
    await wallet.stop();
    await db.drop();
  });
  t.notMatch(wallet.stderrTail(), passwords.wallet, 'its password is never logged');
  const metricsPort = /"metricsPort":(\d+)/.exec(wallet.stderrTail())?.[1];
  const ready = await waitFor(
    async () => {
      const res = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
      return res.status === 200 ? res.json() : undefined;
    },
    { what: 'wallet ready' },
  );
  t.match(ready, { status: 'ready', checks: { nats: 'ok' } }, 'ready: its stream made sure of, its subjects served');

  // Payments asks the wallet for a credit: allowed, and the wallet answers it (here a 422: no such account).
  const payments = await as(t, 'payments');
  const ctx = { requestId: 'natsid', scope: { kind: 'internal' as const, service: 'payments' } };
  const answer = await requestOperation(payments, WALLET_SUBJECTS.credit, { ctx, params: {}, query: {}, body: {} }, { prefix, timeoutMs: 30_000 });
  t.match(answer, { ok: false, error: { code: 'VALIDATION_ERROR' } }, 'payments reaches wallet.credit and the wallet answers');

  // The gateway's identity asking the same: the server refuses the publish; the wallet never sees it.
  const gateway = await as(t, 'gateway');
  const refused = firstPermissionError(gateway);
  const asked = requestOperation(gateway, WALLET_SUBJECTS.credit, { ctx, params: {}, query: {}, body: {} }, { prefix, timeoutMs: 30_000 }).catch(
    (e: Error) => e,
  );
  t.match(await refused, new RegExp(`Permissions Violation for Publish to "${prefix}\\.rpc\\.wallet\\.credit"`), 'gateway → wallet.credit: refused');
  t.ok((await asked) instanceof Error, 'and its request fails');
  // ... while what the gateway does ask the wallet (an operation of its table) goes through.
  const walletGet = await requestOperation(gateway, 'wallet.get', { ctx, params: {}, query: {}, body: {} }, { prefix, timeoutMs: 30_000 });
  t.equal(walletGet.ok, false, 'gateway → wallet.get: answered by the wallet (a refusal of the request, not of the identity)');

  await wallet.stop();
  t.ok(
    violations().some((l) => /User "gateway"/.test(l)),
    "the server logged the gateway's violation",
  );
  t.same(
    violations().filter((l) => /User "wallet"/.test(l)),
    [],
    'the wallet started, served and stopped without one permission violation',
  );
});

t.test("the gateway's identity cannot read events; not even through JetStream", async (t) => {
  const webhooks = await as(t, 'webhooks');
  await ensureEventsStream(webhooks, prefix, 1);
  const gateway = await as(t, 'gateway');
  const refused = firstPermissionError(gateway);
  const sub = gateway.subscribe(eventsWildcard(prefix));
  t.match(await refused, new RegExp(`Permissions Violation for Subscription to "${prefix}\\.events\\.>"`), 'a core subscription to the events: refused');
  sub.unsubscribe();
  const jsm = await jetstreamManager(gateway, { timeout: 5000 });
  await t.rejects(
    jsm.consumers.add(eventsStreamName(prefix), { durable_name: 'peek', filter_subject: eventsWildcard(prefix) }),
    'a JetStream consumer on the events stream: refused',
  );
});

t.test("the restore's identity makes JetStream forget the old history, and cannot publish an event", async (t) => {
  const payments = await as(t, 'payments');
  await ensureEventsStream(payments, prefix, 1);
  await jetstream(payments).publish(eventSubject(prefix, 'production', 'deposit.confirmed'), '{}', { msgID: `restore-${randomBytes(8).toString('hex')}` });
  const restore = await as(t, RESTORE_USER);
  const [events] = await forgetJetStreamHistory(restore, prefix);
  t.ok(events?.stream === eventsStreamName(prefix) && events.purged >= 1, 'it purged the events stream (npm run jetstream:forget)');
  const refused = firstPermissionError(restore);
  restore.publish(eventSubject(prefix, 'production', 'deposit.confirmed'), '{}');
  t.match(await refused, /Permissions Violation for Publish/, 'it cannot publish an event');
});

t.test('the whole system under its identities: a deposit credited, its event in the webhooks log', async (t) => {
  const stack = await startStack({ NATS_URL: url, NATS_PREFIX: prefix }, COMPONENTS, { envOf: (c) => identity(c) });
  // startStack starts every component (with its identity) and waits until they are ready; starting
  // them again would leave the first ones running untracked, and the test would never exit.
  t.teardown(() => stack.close());
  const { sandboxClient: c } = await stack.createOperator('NATS Identities');
  const key = () => ({ 'idempotency-key': uniq('natsid') });
  const player = await c.post('/players', playerInput(uniq('p')), key());
  t.equal(player.status, 201, 'gateway → operators (credential) → players');
  const deposit = await c.post(
    `/players/${player.body.id}/deposits`,
    { amount: '25.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') },
    key(),
  );
  t.equal(deposit.status, 201, 'gateway → payments → players.state');
  const confirmed = await c.post(`/deposits/${deposit.body.id}/confirm`, {}, key());
  t.equal(confirmed.status, 200, 'payments → wallet.credit');
  t.equal((await c.get(`/players/${player.body.id}/wallet`)).body.available, '25.00', 'credited');
  const logged = await waitFor(
    async () => {
      const r = await c.get('/webhooks/events');
      return r.body?.data?.some((e: { type: string }) => e.type === 'deposit.confirmed') ? r.body.data : undefined;
    },
    { what: 'the deposit event in the webhooks log' },
  );
  t.ok(logged, "payments' outbox → the events stream → the webhooks service's consumer");
  // (The gateway's KV buckets — rate limit, idempotency keys, signature bindings — were used by every signed request above.)
  t.same(violationsOfProcesses(), [], 'no process met a permission violation');
});
