// Two gateway replicas on one database and one NATS: the rate limit is shared, an idempotent
// request racing on both has one effect, and a suspension made on one is seen by the other.
import t from 'tap';
import { startHarness } from './support/harness.ts';
import { fakeService, sleep } from './support/fake-service.ts';
import { waitFor } from '@bo/service-kit/testing';

t.test('two replicas', async (t) => {
  // A long cache TTL shows that the broadcast, not the TTL, carries the suspension.
  const h = await startHarness({ CREDENTIAL_CACHE_TTL_MS: '600000' });
  const b = await h.startReplica();
  const a = h.gateways[0];
  const fake = await fakeService(h, 'players.create');
  t.teardown(async () => {
    await fake.close();
    await h.close();
  });

  t.test('the rate limit is shared by every replica', async (t) => {
    // Windows are fixed minutes: start early in one so a slow machine cannot cross its edge mid-test.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 30_000) await sleep(60_000 - intoMinute + 50);
    const op = await h.createOperator({ name: 'Limited', rateLimitPerMinute: 10 });
    const onA = h.clientFor(op.sandbox, a);
    const onB = h.clientFor(op.sandbox, b);
    // Both environments count against the one operator limit.
    const onBLive = h.clientFor(op.production, b);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await onA.get('/me'), await (i % 2 ? onB : onBLive).get('/me'));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    t.equal(ok.length, 10, 'exactly the limit passes across both replicas');
    t.equal(limited.length, 2);
    for (const r of limited) {
      t.equal(r.body.error.code, 'RATE_LIMITED');
      t.match(r.headers.get('retry-after'), /^\d+$/);
      t.ok(Number(r.headers.get('retry-after')) >= 1 && Number(r.headers.get('retry-after')) <= 60);
      t.equal(r.headers.get('ratelimit-remaining'), '0');
    }
    t.equal(ok[0]!.headers.get('ratelimit-limit'), '10');
    t.match(ok[0]!.headers.get('ratelimit-reset'), /^\d+$/);
    // Another operator is not affected.
    const other = await h.createOperator({ name: 'Other' });
    t.equal((await h.clientFor(other.sandbox, b).get('/me')).status, 200);
  });

  t.test('an idempotent request racing on both replicas has one effect', async (t) => {
    const op = await h.createOperator({ name: 'Racer' });
    fake.respond = async (req) => {
      await sleep(200);
      return { ok: true, status: 201, body: { got: req.body } };
    };
    const body = { externalId: 'race', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-05-17' };
    const before = fake.calls.length;
    const clients = [h.clientFor(op.sandbox, a), h.clientFor(op.sandbox, b)];
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => clients[i % 2]!.post('/players', body, { 'idempotency-key': 'cross-replica-1' })));
    // One ran; every copy was told it is in progress, or (arriving after it ended, on a busy machine) got its answer replayed.
    t.equal(results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null).length, 1);
    const inProgress = results.filter((r) => r.status === 409 && r.body.error.code === 'IDEMPOTENCY_IN_PROGRESS');
    const replayed = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'true');
    t.equal(inProgress.length + replayed.length, 9);
    t.equal(fake.calls.length - before, 1, 'one request reached the service');
    const replayOnOther = await clients[1]!.post('/players', body, { 'idempotency-key': 'cross-replica-1' });
    const replayOnFirst = await clients[0]!.post('/players', body, { 'idempotency-key': 'cross-replica-1' });
    t.equal(replayOnOther.headers.get('idempotent-replayed'), 'true');
    t.same(replayOnOther.body, replayOnFirst.body);
  });

  t.test('a suspension is in force on the replica that answered it, and on the other at once', async (t) => {
    const op = await h.createOperator({ name: 'Suspendable' });
    const onA = h.clientFor(op.sandbox, a);
    const onB = h.clientFor(op.sandbox, b);
    t.equal((await onA.get('/me')).status, 200, 'replica A has the operator cached');
    t.equal((await onB.get('/me')).status, 200, 'replica B has the operator cached');
    t.equal((await h.admin('POST', `/admin/operators/${op.operator.id}/suspend`, undefined, a)).status, 200);
    const rightAfter = await Promise.all(Array.from({ length: 30 }, () => onA.get('/me')));
    t.same(
      rightAfter.map((r) => r.status === 403 && r.body.error.code),
      Array(30).fill('OPERATOR_SUSPENDED'),
      'every request after the answer is refused on the replica that answered',
    );
    const seen = await waitFor(
      async () => {
        const r = await onB.get('/me');
        return r.status === 403 ? r : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 20, what: 'suspension on replica B' },
    );
    t.equal(seen.body.error.code, 'OPERATOR_SUSPENDED');
    t.equal((await h.admin('POST', `/admin/operators/${op.operator.id}/resume`, undefined, b)).status, 200);
    t.equal((await onB.get('/me')).status, 200, 'resume in force on the replica that answered');
    await waitFor(async () => (await onA.get('/me')).status === 200, { timeoutMs: 30_000, what: 'resume on replica A' });
    t.pass('resume seen on the other replica');
  });
});
