// The edge's half of idempotency (docs/decisions.md): an Idempotency-Key belongs to one request
// whichever operation uses it and whichever layer keeps its answer (the gateway, or the owning
// service), on every replica; a signed change is accepted with one key only; NATS KV that cannot
// answer refuses keyed requests with 503. Stand-in services count what reaches them (the real
// flows: test/e2e/cross-operation-idempotency.test.ts).
import t from 'tap';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { signRequest } from '@bo/contracts';
import { testNatsUrl } from '@bo/service-kit/testing';
import { startHarness } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';

const player = (externalId: string) => ({ externalId, name: 'Ana Souza', email: 'ana@example.com', cpf: '529.982.247-25', birthDate: '1990-05-17' });
const deposit = (externalReference: string) => ({ amount: '10.00', currency: 'BRL', method: 'pix', externalReference });
const withdrawal = (destination: string) => ({ amount: '5.00', currency: 'BRL', method: 'pix', destination });
const key = (k: string) => ({ 'idempotency-key': k });

t.test('edge key claims and signature bindings', async (t) => {
  const h = await startHarness();
  const a = h.gateways[0]!;
  const b = await h.startReplica();
  const players = await fakeService(h, 'players.create', 'players');
  const deposits = await fakeService(h, 'payments.deposits.create', 'payments');
  const withdrawals = await fakeService(h, 'payments.withdrawals.create', 'payments');
  const sessions = await fakeService(h, 'games.sessions.create', 'wallet');
  t.teardown(async () => {
    for (const f of [players, deposits, withdrawals, sessions]) await f.close();
    await h.close();
  });
  const op = await h.createOperator();
  const onA = h.clientFor(op.sandbox, a);
  const onB = h.clientFor(op.sandbox, b);
  const calls = () => [players, deposits, withdrawals, sessions].map((f) => f.calls.length);

  t.test('a key is one request across operations, whichever layer keeps it, on every replica', async (t) => {
    // Gateway-kept, then service-kept (the deposit would be answered by payments).
    t.equal((await onA.post('/players', player('ext-1'), key('pair-gw-svc-1'))).status, 201);
    let before = calls();
    const dep = await onB.post('/players/plr_1/deposits', deposit('ref-1'), key('pair-gw-svc-1'));
    t.equal(dep.status, 409);
    t.equal(dep.body?.error?.code, 'IDEMPOTENCY_CONFLICT');
    t.same(calls(), before, 'the deposit did not reach payments');

    // Service-kept, then gateway-kept.
    t.equal((await onA.post('/players/plr_1/deposits', deposit('ref-2'), key('pair-svc-gw-1'))).status, 201);
    before = calls();
    const created = await onB.post('/players', player('ext-2'), key('pair-svc-gw-1'));
    t.equal(created.status, 409);
    t.equal(created.body?.error?.code, 'IDEMPOTENCY_CONFLICT');
    t.same(calls(), before, 'the player was not created');

    // Two service-kept operations.
    t.equal((await onA.post('/players/plr_1/deposits', deposit('ref-3'), key('pair-svc-svc-1'))).status, 201);
    before = calls();
    const wd = await onB.post('/players/plr_1/withdrawals', withdrawal('pix:pair'), key('pair-svc-svc-1'));
    t.equal(wd.status, 409);
    t.equal(wd.body?.error?.code, 'IDEMPOTENCY_CONFLICT');
    t.same(calls(), before, 'the withdrawal did not reach payments');

    // The same request with its key still goes on to the layer that answers it.
    const again = await onB.post('/players', player('ext-1'), key('pair-gw-svc-1'));
    t.equal(again.status, 201);
    t.equal(again.headers.get('idempotent-replayed'), 'true');
  });

  t.test('admin keys: another admin request with the key is a conflict', async (t) => {
    const other = await h.createOperator({ name: 'Other' });
    const adminKeyed = (path: string, gw = a) =>
      fetch(`${gw.adminUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${h.config.ADMIN_TOKEN}`, 'idempotency-key': 'admin-key-0001' } });
    t.equal((await adminKeyed(`/admin/operators/${other.operator.id}/suspend`)).status, 200);
    const reused = await adminKeyed(`/admin/operators/${other.operator.id}/resume`, b);
    t.equal(reused.status, 409);
    t.equal(((await reused.json()) as { error: { code: string } }).error.code, 'IDEMPOTENCY_CONFLICT');
    t.equal((await h.admin('GET', `/admin/operators/${other.operator.id}`)).body.status, 'suspended', 'the resume did not run');
  });

  t.test('after a 5xx the key is retried with the same request; another request is still a conflict', async (t) => {
    const before = players.calls.length;
    players.respond = async () => ({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } });
    t.equal((await onA.post('/players', player('ext-5xx'), key('after-5xx-01'))).status, 500);
    const other = await onB.post('/players', player('ext-other'), key('after-5xx-01'));
    t.equal(other.status, 409, 'the failed request may have had its effect: its key is not given to another');
    t.equal(other.body?.error?.code, 'IDEMPOTENCY_CONFLICT');
    players.respond = async (req) => ({ ok: true, status: 201, body: { got: req.body } });
    const retried = await onB.post('/players', player('ext-5xx'), key('after-5xx-01'));
    t.equal(retried.status, 201);
    t.equal(retried.headers.get('idempotent-replayed'), null);
    t.equal(players.calls.length - before, 2, 'the failed request and its retry reached the service');
  });

  t.test('a signature is accepted with one key: the same signed bytes with another are refused, on every replica', async (t) => {
    const ts = String(Math.floor(Date.now() / 1000));
    const before = withdrawals.calls.length;
    const body = withdrawal('pix:signed');
    const first = await onA.post('/players/plr_1/withdrawals', body, { 'x-timestamp': ts, ...key('signed-once-01') });
    t.equal(first.status, 201);
    for (const [client, k] of [
      [onA, 'signed-once-02'],
      [onB, 'signed-once-03'],
    ] as const) {
      const replayed = await client.post('/players/plr_1/withdrawals', body, { 'x-timestamp': ts, ...key(k) });
      t.equal(replayed.status, 401);
      t.equal(replayed.body?.error?.code, 'SIGNATURE_REUSED');
      t.match(replayed.body?.error?.message, /sign the request afresh/);
      t.equal(replayed.headers.get('retry-after'), '1');
    }
    // Hex is compared case-insensitively: in upper case it is the same signature.
    const signature = signRequest(op.sandbox.secret, 'POST', '/api/v1/players/plr_1/withdrawals', ts, JSON.stringify(body));
    const upper = await onB.post('/players/plr_1/withdrawals', body, { 'x-timestamp': ts, 'x-signature': signature.toUpperCase(), ...key('signed-once-04') });
    t.equal(upper.status, 401);
    t.equal(upper.body?.error?.code, 'SIGNATURE_REUSED');
    t.equal(withdrawals.calls.length - before, 1, 'one withdrawal reached payments');

    // The same bytes with the same key (a retry) go on to the layer that answers them.
    const playerTs = String(Math.floor(Date.now() / 1000));
    const created = await onA.post('/players', player('ext-signed'), { 'x-timestamp': playerTs, ...key('signed-player-1') });
    t.equal(created.status, 201);
    const retry = await onB.post('/players', player('ext-signed'), { 'x-timestamp': playerTs, ...key('signed-player-1') });
    t.equal(retry.status, 201);
    t.equal(retry.headers.get('idempotent-replayed'), 'true');
    const reused = await onB.post('/players', player('ext-signed'), { 'x-timestamp': playerTs, ...key('signed-player-2') });
    t.equal(reused.body?.error?.code, 'SIGNATURE_REUSED');

    // Signed afresh (another timestamp), the request goes through with the other key.
    const fresh = await onB.post('/players/plr_1/withdrawals', body, { 'x-timestamp': String(Number(ts) - 1), ...key('signed-once-02') });
    t.equal(fresh.status, 201);
    t.equal(withdrawals.calls.length - before, 2);
  });

  t.test('a signature sent without a key takes the first key that follows, and no other', async (t) => {
    const ts = String(Math.floor(Date.now() / 1000));
    const before = sessions.calls.length;
    const body = { gameId: 'gm_aviator_demo' };
    t.equal((await onA.post('/players/plr_1/game-sessions', body, { 'x-timestamp': ts })).status, 201);
    t.equal((await onB.post('/players/plr_1/game-sessions', body, { 'x-timestamp': ts })).status, 201, 'again without a key: as before, no key, no dedupe');
    const keyed = await onB.post('/players/plr_1/game-sessions', body, { 'x-timestamp': ts, ...key('session-key-01') });
    t.equal(keyed.status, 201, 'the same bytes with a key: bound to that key from now on');
    const other = await onA.post('/players/plr_1/game-sessions', body, { 'x-timestamp': ts, ...key('session-key-03') });
    t.equal(other.status, 401, 'then another key');
    t.equal(other.body?.error?.code, 'SIGNATURE_REUSED');
    const keyedTs = String(Number(ts) - 1);
    t.equal((await onA.post('/players/plr_1/game-sessions', body, { 'x-timestamp': keyedTs, ...key('session-key-02') })).status, 201);
    const stripped = await onB.post('/players/plr_1/game-sessions', body, { 'x-timestamp': keyedTs });
    t.equal(stripped.status, 401, 'a keyed request sent again without its key');
    t.equal(stripped.body?.error?.code, 'SIGNATURE_REUSED');
    t.equal(sessions.calls.length - before, 4);
  });

  t.test('NATS KV unable to answer: keyed and signed changes are refused with 503, never let through', async (t) => {
    const nc = await connect({ servers: testNatsUrl() });
    t.teardown(() => nc.close());
    const destroy = async (bucket: string) => (await new Kvm(nc).open(`${h.prefix}_${bucket}`)).destroy();
    const before = calls();
    await destroy('idempotency_keys');
    const keyed = await onA.post('/players', player('ext-kv'), key('kv-down-0001'));
    t.equal(keyed.status, 503);
    t.equal(keyed.body?.error?.code, 'SERVICE_UNAVAILABLE');
    t.equal(keyed.headers.get('retry-after'), '1');
    await destroy('signatures');
    const keyless = await onB.post('/players/plr_1/game-sessions', { gameId: 'gm_aviator_demo' });
    t.equal(keyless.status, 503);
    t.equal(keyless.body?.error?.code, 'SERVICE_UNAVAILABLE');
    t.same(calls(), before, 'nothing reached a service');
    t.equal((await onA.get('/me')).status, 200, 'reads need neither bucket');
  });
});
