// HTTP idempotency as docs/decisions.md says: replay, conflict, in-progress, 4xx stored, 5xx
// released, expiry. A counting stand-in service shows how many requests reached the domain.
import t from 'tap';
import { startHarness } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';
import { deleteExpiredStoredAnswers } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';

const player = { externalId: 'ext-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '529.982.247-25', birthDate: '1990-05-17' };
// Each key gets a body of its own: the same signed bytes sent with two keys in one second are one
// signature with two keys, refused (SIGNATURE_REUSED, signature-binding.test.ts).
const playerFor = (externalId: string) => ({ ...player, externalId });
const TTL_SECONDS = 3600;

t.test('idempotency', async (t) => {
  // Keys live an hour and answers have the harness's 30 s: however busy the machine, a key does not
  // expire and an answer is not timed out between two requests of a test. The expiry is tested by
  // ageing a key (below); the timeout on an answer that never comes, by a replica of short deadline.
  const h = await startHarness({ IDEMPOTENCY_TTL_SECONDS: String(TTL_SECONDS) });
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
    // The one that runs is held until the seven others have been answered (an event, not a time:
    // on a busy machine they may take long to arrive); a ceiling lets the assertions say what came.
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const ceiling = setTimeout(release, 60_000);
    t.teardown(() => clearTimeout(ceiling));
    fake.respond = async (req) => {
      await released;
      return { ok: true, status: 201, body: { ok: req.body } };
    };
    let answered = 0;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        c.post('/players', playerFor('ext-race'), key('race-0001')).then((r) => {
          if (++answered === 7) release();
          return r;
        }),
      ),
    );
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
    // The answer that never comes is waited for on a replica of short deadline, which knows the
    // operator already (its credentials cached): only the lost answer meets that deadline.
    const quickReplica = await h.startReplica({ RPC_TIMEOUT_MS: '800', CREDENTIAL_CACHE_TTL_MS: '600000' });
    const quick = h.clientFor(op.sandbox, quickReplica);
    await waitFor(async () => (await quick.get('/me')).status === 200, { what: 'the short-deadline replica knows the operator' });
    const before = fake.calls.length;
    fake.respond = async () => ({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } });
    const failed = await c.post('/players', playerFor('ext-5xx'), key('retry-5xx-01'));
    t.equal(failed.status, 500);
    fake.respond = async () => 'silence';
    const timedOut = await quick.post('/players', playerFor('ext-5xx'), key('retry-5xx-01'));
    t.equal(timedOut.status, 503);
    t.equal(timedOut.body.error.code, 'SERVICE_UNAVAILABLE');
    t.ok(timedOut.headers.get('retry-after'));
    fake.respond = async (req) => ({ ok: true, status: 201, body: { ok: req.body } });
    const retried = await c.post('/players', playerFor('ext-5xx'), key('retry-5xx-01'));
    t.equal(retried.status, 201);
    t.equal(retried.headers.get('idempotent-replayed'), null);
    t.equal(fake.calls.length - before, 3, 'each retry after a 5xx reaches the service (which dedupes on the key)');
  });

  t.test('keys expire (aged past the TTL by the test) and are cleaned up', async (t) => {
    // A key's age is moved past the TTL instead of waited for: the same check (created_at against
    // the TTL), with no time a busy machine could stretch between two requests.
    const age = () =>
      h.operators.sql.query(
        `update stand_ins.processed_requests set created_at = created_at - make_interval(secs => ?) where idempotency_key = 'expire-0001'`,
        [TTL_SECONDS + 60],
      );
    const before = fake.calls.length;
    t.equal((await c.post('/players', playerFor('ext-expire'), key('expire-0001'))).status, 201);
    await age();
    const again = await c.post('/players', playerFor('ext-expire'), key('expire-0001'));
    t.equal(again.headers.get('idempotent-replayed'), null, 'an expired key runs again');
    t.equal(fake.calls.length - before, 2);
    await age();
    // The owning service's retention loop (the kit's retention.ts) deletes them.
    const removed = await deleteExpiredStoredAnswers(h.operators.sql, 'stand_ins', TTL_SECONDS, 1000);
    t.ok(removed >= 1, `cleanup removed ${removed} expired keys`);
    const left = await h.operators.sql.query<{ n: number }>(`select count(*)::int n from stand_ins.processed_requests where idempotency_key = 'expire-0001'`);
    t.equal(left[0]!.n, 0);
  });
});
