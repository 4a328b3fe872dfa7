// Operator keys can be rotated and revoked (issue #24, item 9), on two gateway replicas with the real
// webhooks service: a rotated key works next to its replacement for the overlap our team chose and
// is refused (401 INVALID_CREDENTIALS) from its end on; a key rotated without overlap, or revoked, is
// refused at once on the replica that answered and, by the broadcast, on the other; the list never
// shows a secret; every change is audited without secrets; the operator is told by a signed webhook
// of the key's environment. Time is moved on the gateway's clock of the key rules, never waited for.
import t from 'tap';
import { signWebhook, type OperatorCredential, type RotatedKey } from '@bo/contracts';
import { startServiceWith, type RunningService } from '@bo/service-kit';
import { testNatsUrl, waitFor } from '@bo/service-kit/testing';
import { webhooksService } from '@bo/webhooks';
import { ADMIN_TOKEN, startHarness } from './support/harness.ts';
import { startReceiver } from './support/webhook-receiver.ts';

const MINUTE = 60_000;

t.test('operator key rotation and revocation', async (t) => {
  let movedMs = 0;
  const clock = () => Date.now() + movedMs;
  // Cached credentials are not re-read for 10 minutes of that clock: a key stops at its end while
  // its entry is cached, and the broadcast (not the TTL) carries a change to the other replica.
  const h = await startHarness({ CREDENTIAL_CACHE_TTL_MS: String(10 * MINUTE), RPC_TIMEOUT_MS: '20000' }, { now: clock });
  const b = await h.startReplica();
  const a = h.gateways[0]!;
  t.teardown(() => h.close());
  const webhooks: RunningService = await startServiceWith(webhooksService, {
    DATABASE_URL: h.db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: h.prefix,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_HTTP: true,
    WEBHOOK_ALLOW_PRIVATE: true,
  });
  t.teardown(() => webhooks.stop());
  const receiver = await startReceiver(t);

  const op = await h.createOperator({ name: 'Rotating Bets' });
  const other = await h.createOperator({ name: 'Bystander' });
  const id = op.operator.id;
  for (const env of ['sandbox', 'production'] as const) {
    const set = await h.admin('PUT', `/admin/operators/${id}/webhooks/${env}`, { url: `${receiver.url}/${env}` });
    t.equal(set.status, 200, `${env} webhook URL set`);
  }
  const keys = (gw = a) => h.admin('GET', `/admin/operators/${id}/credentials`, undefined, gw);
  const me = (creds: { key: string; secret: string }, gw = a) => h.clientFor(creds, gw).get('/me');
  const refused = async (creds: { key: string; secret: string }, gw = a) => {
    const r = await me(creds, gw);
    return r.status === 401 && r.body.error.code === 'INVALID_CREDENTIALS';
  };
  const issued: string[] = [op.sandbox.key, op.sandbox.secret, op.production.key, op.production.secret];
  const holdsNoSecret = (value: unknown) => {
    const text = JSON.stringify(value);
    return !issued.some((s) => text.includes(s)) && !/sk_(test|live)_|"v1\./.test(text);
  };

  t.test('the list shows each key by its prefix, never a secret', async (t) => {
    const listed = await keys();
    t.equal(listed.status, 200);
    t.same((listed.body.data as OperatorCredential[]).map((c) => [c.environment, c.keyPrefix, c.status, c.expiresAt, c.revokedAt]).sort(), [
      ['production', op.production.key.slice(0, 12), 'active', null, null],
      ['sandbox', op.sandbox.key.slice(0, 12), 'active', null, null],
    ]);
    t.same(Object.keys(listed.body.data[0]).sort(), ['createdAt', 'environment', 'expiresAt', 'id', 'keyPrefix', 'revokedAt', 'status']);
    t.ok(holdsNoSecret(listed.body), 'no secret and no whole key in the list');
    t.equal((await h.admin('GET', '/admin/operators/op_missing/credentials')).body.error.code, 'OPERATOR_NOT_FOUND');
  });

  const sandboxKeyId = async () => (await keys()).body.data.find((c: OperatorCredential) => c.environment === 'sandbox').id as string;
  const firstSandboxId = await sandboxKeyId();
  let second: RotatedKey;

  t.test('a rotated key works for the overlap, next to the new one, and is refused from its end on', async (t) => {
    t.equal((await me(op.sandbox, a)).status, 200, 'the sandbox key is cached on replica A');
    const before = clock();
    const rotated = await h.admin('POST', `/admin/operators/${id}/credentials/sandbox/rotate`, { overlapMinutes: 5 }, a);
    const after = clock();
    t.equal(rotated.status, 201, JSON.stringify(rotated.body));
    second = rotated.body;
    t.match(second.key, /^bk_test_[A-Za-z0-9]{32}$/);
    t.match(second.secret, /^sk_test_[A-Za-z0-9]{48}$/);
    t.match(second.credential, { environment: 'sandbox', keyPrefix: second.key.slice(0, 12), status: 'active', expiresAt: null, revokedAt: null });
    t.same(
      second.replaced.map((c) => [c.id, c.status]),
      [[firstSandboxId, 'expiring']],
    );
    const endsAt = Date.parse(second.replaced[0]!.expiresAt!);
    t.ok(endsAt >= before + 5 * MINUTE && endsAt <= after + 5 * MINUTE, 'the replaced key ends after the overlap');
    issued.push(second.key, second.secret);

    for (const [name, gw] of [
      ['A', a],
      ['B', b],
    ] as const) {
      t.equal((await me(op.sandbox, gw)).status, 200, `the old key works during the overlap on replica ${name}`);
      t.equal((await me(second, gw)).status, 200, `the new key works on replica ${name}`);
    }
    t.equal((await me(op.production)).status, 200, 'the other environment is untouched');

    // Past the end, within the cache TTL: the cached entry is refused at lookup, not re-read.
    movedMs += 5 * MINUTE + 1000;
    for (const [name, gw] of [
      ['A', a],
      ['B', b],
    ] as const) {
      t.ok(await refused(op.sandbox, gw), `the old key is 401 INVALID_CREDENTIALS past its end on replica ${name}`);
      t.equal((await me(second, gw)).status, 200, `the new key still works on replica ${name}`);
    }
    const listed = (await keys()).body.data as OperatorCredential[];
    t.same(
      listed.filter((c) => c.environment === 'sandbox').map((c) => [c.id, c.status]),
      [
        [second.credential.id, 'active'],
        [firstSandboxId, 'expired'],
      ],
    );
  });

  t.test('a rotation without overlap refuses the replaced key at once, on both replicas', async (t) => {
    t.equal((await me(second, b)).status, 200, 'the current key is cached on replica B');
    const rotate = () =>
      fetch(`${a.adminUrl}/admin/operators/${id}/credentials/sandbox/rotate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': 'rotate-now-1' },
        body: JSON.stringify({ overlapMinutes: 0 }),
      });
    const first = await rotate();
    t.equal(first.status, 201);
    const third = (await first.json()) as RotatedKey;
    issued.push(third.key, third.secret);
    t.same(
      third.replaced.map((c) => [c.id, c.status]),
      [[second.credential.id, 'expired']],
      'the key in use ends now',
    );
    const after = await Promise.all(Array.from({ length: 20 }, () => refused(second, a)));
    t.same(after, Array(20).fill(true), 'every request after the answer is refused on the replica that answered');
    await waitFor(() => refused(second, b), { timeoutMs: 30_000, intervalMs: 20, what: 'the replaced key refused on replica B' });
    t.pass('and on the other replica, by the broadcast');
    t.equal((await me(third, b)).status, 200, 'the new key works');

    const replay = await rotate();
    t.equal(replay.headers.get('idempotent-replayed'), 'true', 'the Idempotency-Key replays the answer');
    t.same(await replay.json(), third, 'the same answer, secret included');
    // Kept by the operators service, which owns the operation; sealed because it is an admin answer.
    const stored = await h.operators.sql.query<{ body: string }>(
      `select body #>> '{}' as body from operators.processed_requests where scope = 'admin' and idempotency_key = 'rotate-now-1'`,
    );
    const body = stored[0]?.body ?? '';
    t.ok(body.startsWith('v1.') && !body.includes(third.secret) && !body.includes(third.key), 'the stored answer is sealed: no secret at rest');
    t.equal((await keys()).body.data.filter((c: OperatorCredential) => c.environment === 'sandbox').length, 3, 'and issued no other key');
  });

  t.test('a revoked key is refused at once on the replica that answered, and on the other', async (t) => {
    const productionId = (await keys()).body.data.find((c: OperatorCredential) => c.environment === 'production').id as string;
    t.equal((await me(op.production, a)).status, 200, 'cached on replica A');
    t.equal((await me(op.production, b)).status, 200, 'cached on replica B');
    const revoked = await h.admin('POST', `/admin/operators/${id}/credentials/${productionId}/revoke`, undefined, a);
    t.equal(revoked.status, 200, JSON.stringify(revoked.body));
    t.match(revoked.body, { id: productionId, environment: 'production', status: 'revoked', revokedAt: String });
    const after = await Promise.all(Array.from({ length: 20 }, () => refused(op.production, a)));
    t.same(after, Array(20).fill(true), 'every request after the answer is refused on replica A');
    await waitFor(() => refused(op.production, b), { timeoutMs: 30_000, intervalMs: 20, what: 'the revoked key refused on replica B' });
    t.pass('and on replica B, by the broadcast');

    const again = await h.admin('POST', `/admin/operators/${id}/credentials/${productionId}/revoke`, undefined, b);
    t.same([again.status, again.body.revokedAt], [200, revoked.body.revokedAt], 'revoking twice changes nothing');
    const othersKey = (await h.admin('GET', `/admin/operators/${other.operator.id}/credentials`)).body.data[0].id as string;
    const foreign = await h.admin('POST', `/admin/operators/${id}/credentials/${othersKey}/revoke`);
    t.same([foreign.status, foreign.body.error.code], [404, 'CREDENTIAL_NOT_FOUND'], "another operator's key is not found under this one");
    t.equal((await me(other.sandbox)).status, 200, 'and keeps working');
    const before = clock();
    const byDefault = await h.admin('POST', `/admin/operators/${other.operator.id}/credentials/sandbox/rotate`, {});
    const endsAt = Date.parse(byDefault.body.replaced[0].expiresAt);
    t.ok(endsAt >= before + 1440 * MINUTE && endsAt <= clock() + 1440 * MINUTE, 'without an overlap given, the key in use ends a day later');
    t.equal((await h.admin('POST', `/admin/operators/op_missing/credentials/sandbox/rotate`, {})).body.error.code, 'OPERATOR_NOT_FOUND');
    for (const overlapMinutes of [-1, 10_081, 1.5]) {
      t.equal(
        (await h.admin('POST', `/admin/operators/${id}/credentials/sandbox/rotate`, { overlapMinutes })).status,
        422,
        `overlap ${overlapMinutes} refused`,
      );
    }
  });

  t.test('only admin changes keys; the team reads them', async (t) => {
    const token = await h.admin('POST', '/admin/tokens', { name: 'support-bot', role: 'support' });
    const asSupport = (method: string, path: string) =>
      fetch(`${a.adminUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token.body.secret}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
    t.equal((await asSupport('GET', `/admin/operators/${id}/credentials`)).status, 200);
    const rotate = await asSupport('POST', `/admin/operators/${id}/credentials/sandbox/rotate`);
    t.same([rotate.status, ((await rotate.json()) as { error: { code: string } }).error.code], [403, 'FORBIDDEN_ROLE']);
    const revoke = await asSupport('POST', `/admin/operators/${id}/credentials/${firstSandboxId}/revoke`);
    t.equal(revoke.status, 403);
  });

  t.test('every change is audited, without secrets', async (t) => {
    const audit = (action: string) => h.admin('GET', `/admin/audit?target=operator:${id}&action=${action}`);
    const rotations = (await audit('adminRotateOperatorKey')).body.data;
    t.same(
      rotations.map((r: { after: { credential: { id: string }; overlapMinutes: number } }) => [r.after.credential.id, r.after.overlapMinutes]),
      [
        [(await keys()).body.data.find((c: OperatorCredential) => c.environment === 'sandbox').id, 0],
        [second.credential.id, 5],
      ],
      'both rotations, newest first, with the overlap chosen',
    );
    t.match(rotations[1], { actor: String, before: { environment: 'sandbox', credentials: [{ id: firstSandboxId, status: 'active' }] } });
    const revocations = (await audit('adminRevokeOperatorKey')).body.data;
    t.match(revocations[1], { before: { status: 'active' }, after: { status: 'revoked' } });
    t.ok(holdsNoSecret([rotations, revocations]), 'no secret and no whole key in the audit log');
  });

  t.test('the operator is told by a signed webhook of the key environment', async (t) => {
    const of = (env: string, type: string) =>
      receiver.requests
        .filter((r) => r.path === `/hook/${env}`)
        .map((r) => ({ r, body: JSON.parse(r.raw.toString('utf8')) }))
        .filter((d) => d.body.type === type);
    await waitFor(async () => of('sandbox', 'credential.rotated').length === 2 && of('production', 'credential.revoked').length === 1, {
      what: 'the key events at the operator',
    });
    const rotatedEvents = of('sandbox', 'credential.rotated').sort((x, y) => (x.body.data.createdAt < y.body.data.createdAt ? -1 : 1));
    t.match(rotatedEvents[0]!.body, {
      type: 'credential.rotated',
      environment: 'sandbox',
      data: {
        credentialId: second.credential.id,
        keyPrefix: second.key.slice(0, 12),
        expiring: [{ credentialId: firstSandboxId, expiresAt: second.replaced[0]!.expiresAt }],
      },
    });
    t.equal(rotatedEvents[1]!.body.data.expiring[0].credentialId, second.credential.id);
    const [revokedEvent] = of('production', 'credential.revoked');
    t.match(revokedEvent!.body, {
      type: 'credential.revoked',
      environment: 'production',
      data: { keyPrefix: op.production.key.slice(0, 12), revokedAt: String },
    });
    const signedBy = (d: { r: (typeof receiver.requests)[number] }, secret: string) =>
      d.r.headers['x-webhook-signature'] === signWebhook(secret, String(d.r.headers['x-webhook-timestamp']), d.r.raw);
    t.ok(
      rotatedEvents.every((d) => signedBy(d, op.sandbox.webhookSecret)) && signedBy(revokedEvent!, op.production.webhookSecret),
      "each verifies with its environment's webhook secret",
    );
    t.ok(holdsNoSecret(receiver.requests.map((r) => r.raw.toString('utf8'))), 'no event carries a secret or a whole key');
    t.same(
      receiver.requests.filter((r) => r.path === '/hook/sandbox').map((r) => JSON.parse(r.raw.toString('utf8')).environment),
      ['sandbox', 'sandbox'],
      'the sandbox endpoint got only the sandbox events',
    );
  });
});
