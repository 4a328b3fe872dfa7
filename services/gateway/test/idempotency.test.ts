// HTTP idempotency as docs/decisions.md says: replay, conflict, in-progress, 4xx stored, 5xx
// released, expiry. A counting stand-in service shows how many requests reached the domain.
import t from 'tap';
import { startHarness } from './support/harness.ts';
import { fakeService, sleep } from './support/fake-service.ts';
import { deleteExpiredStoredAnswers } from '@bo/service-kit';

const player = { externalId: 'ext-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '529.982.247-25', birthDate: '1990-05-17' };
// Each key gets a body of its own: the same signed bytes sent with two keys in one second are one
// signature with two keys, refused (SIGNATURE_REUSED, signature-binding.test.ts).
const playerFor = (externalId: string) => ({ ...player, externalId });

t.test('idempotency', async (t) => {
  const h = await startHarness({ IDEMPOTENCY_TTL_SECONDS: '2', RPC_TIMEOUT_MS: '800' });
  const fake = await fakeService(h, 'players.create');
  t.teardown(async () => {
    await fake.close();
    await h.close();
  });
  const op = await h.createOperator();
  const c = op.sandboxClient;
  const key = (k: string) => ({ 'idempotency-key': k });

  t.test('missing and malformed keys', async (t) => {
    const missing = await c.post('/players', player);
    t.equal(missing.status, 400);
    t.equal(missing.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    for (const bad of ['short', 'has space 12345', 'x'.repeat(129), 'semi;colon-12345']) {
      const res = await c.post('/players', player, key(bad));
      t.equal(res.status, 422, `key ${JSON.stringify(bad).slice(0, 20)}`);
      t.equal(res.body.error.details.in, 'header');
    }
    t.equal(fake.calls.length, 0);
  });

  t.test('replay returns the original response with Idempotent-Replayed and a fresh request id', async (t) => {
    const first = await c.post('/players', player, key('replay-0001'));
    t.equal(first.status, 201);
    const again = await c.post('/players', player, key('replay-0001'));
    t.equal(again.status, 201);
    t.same(again.body, first.body);
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.equal(first.headers.get('idempotent-replayed'), null);
    t.not(again.headers.get('x-request-id'), first.headers.get('x-request-id'));
    t.equal(fake.calls.length, 1, 'one request reached the service');
    t.equal(fake.calls[0]!.ctx.idempotencyKey, 'replay-0001', 'the key travels to the owning service');
    t.equal(fake.calls[0]!.ctx.scope.kind, 'operator');
  });

  t.test('the same key with another body or path is a conflict; other scopes are independent', async (t) => {
    const other = await c.post('/players', { ...player, externalId: 'ext-2' }, key('replay-0001'));
    t.equal(other.status, 409);
    t.equal(other.body.error.code, 'IDEMPOTENCY_CONFLICT');
    // The production environment of the same operator is another scope.
    const live = await op.productionClient.post('/players', player, key('replay-0001'));
    t.equal(live.status, 201);
    t.equal(live.headers.get('idempotent-replayed'), null);
  });

  t.test('concurrent requests with one key: one runs, the others are told it is in progress', async (t) => {
    const before = fake.calls.length;
    fake.respond = async (req) => {
      await sleep(300);
      return { ok: true, status: 201, body: { ok: req.body } };
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => c.post('/players', playerFor('ext-race'), key('race-0001'))));
    const statuses = results.map((r) => r.status).sort();
    t.equal(statuses.filter((s) => s === 201).length, 1);
    const busy = results.filter((r) => r.status === 409);
    t.equal(busy.length, 7);
    for (const b of busy) {
      t.equal(b.body.error.code, 'IDEMPOTENCY_IN_PROGRESS');
      t.equal(b.headers.get('retry-after'), '1');
    }
    t.equal(fake.calls.length - before, 1);
    const later = await c.post('/players', playerFor('ext-race'), key('race-0001'));
    t.equal(later.headers.get('idempotent-replayed'), 'true');
  });

  t.test('4xx responses are stored; the corrected request needs a new key', async (t) => {
    const before = fake.calls.length;
    const invalid = await c.post('/players', { ...playerFor('ext-invalid'), cpf: '11111111111' }, key('invalid-0001'));
    t.equal(invalid.status, 422);
    t.same(
      invalid.body.error.details.issues.map((i: { path: string }) => i.path),
      ['/cpf'],
    );
    const replay = await c.post('/players', { ...playerFor('ext-invalid'), cpf: '11111111111' }, key('invalid-0001'));
    t.equal(replay.status, 422);
    t.equal(replay.headers.get('idempotent-replayed'), 'true');
    t.equal(replay.body.error.requestId, invalid.body.error.requestId, 'the stored body keeps the original requestId');
    fake.respond = async () => ({ ok: false, error: { code: 'PLAYER_ALREADY_EXISTS', message: 'exists' } });
    const domain4xx = await c.post('/players', playerFor('ext-4xx'), key('domain-4xx-01'));
    t.equal(domain4xx.status, 409);
    fake.respond = async (req) => ({ ok: true, status: 201, body: { ok: req.body } });
    const stillStored = await c.post('/players', playerFor('ext-4xx'), key('domain-4xx-01'));
    t.equal(stillStored.status, 409, 'a stored 4xx is replayed even though the service would now succeed');
    t.equal(fake.calls.length - before, 1);
  });

  t.test('5xx releases the key so the same key can be retried', async (t) => {
    const before = fake.calls.length;
    fake.respond = async () => ({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } });
    const failed = await c.post('/players', playerFor('ext-5xx'), key('retry-5xx-01'));
    t.equal(failed.status, 500);
    fake.respond = async () => 'silence';
    const timedOut = await c.post('/players', playerFor('ext-5xx'), key('retry-5xx-01'));
    t.equal(timedOut.status, 503);
    t.equal(timedOut.body.error.code, 'SERVICE_UNAVAILABLE');
    t.ok(timedOut.headers.get('retry-after'));
    fake.respond = async (req) => ({ ok: true, status: 201, body: { ok: req.body } });
    const retried = await c.post('/players', playerFor('ext-5xx'), key('retry-5xx-01'));
    t.equal(retried.status, 201);
    t.equal(retried.headers.get('idempotent-replayed'), null);
    t.equal(fake.calls.length - before, 3, 'each retry after a 5xx reaches the service (which dedupes on the key)');
  });

  t.test('keys expire (TTL shortened to 2 s for the test) and are cleaned up', async (t) => {
    const before = fake.calls.length;
    t.equal((await c.post('/players', playerFor('ext-expire'), key('expire-0001'))).status, 201);
    await sleep(2200);
    const again = await c.post('/players', playerFor('ext-expire'), key('expire-0001'));
    t.equal(again.headers.get('idempotent-replayed'), null, 'an expired key runs again');
    t.equal(fake.calls.length - before, 2);
    await sleep(2200);
    // The owning service's retention loop (the kit's retention.ts) deletes them.
    const removed = await deleteExpiredStoredAnswers(h.operators.sql, 'stand_ins', 2, 1000);
    t.ok(removed >= 1, `cleanup removed ${removed} expired keys`);
    const left = await h.operators.sql.query<{ n: number }>(`select count(*)::int n from stand_ins.processed_requests where idempotency_key = 'expire-0001'`);
    t.equal(left[0]!.n, 0);
  });
});
