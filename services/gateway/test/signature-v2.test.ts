// Signature version 2 (issue #61; docs/decisions.md, "Authentication"): with `X-Signature-Version: 2`
// the canonical string ends with the Idempotency-Key, so two body-less sandbox calls alike but for
// their keys, sent in the same second, are both taken (version 1 refuses the second as the first's
// replay, SIGNATURE_REUSED, as before: the old signature stays valid); a key other than the one
// signed, or an unknown version, is INVALID_SIGNATURE. Real NATS KV and the real gateway; a stand-in
// players service counts what reaches it.
import t from 'tap';
import { canonicalStringV2, signRequest, signRequestV2 } from '@bo/contracts';
import { startHarness } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';

t.test('signature version 2 covers the Idempotency-Key', async (t) => {
  const h = await startHarness();
  const nextDay = await fakeService(h, 'players.sandbox.nextDay', 'players');
  nextDay.respond = async () => ({ ok: true, status: 200, body: { playerId: 'plr_1', status: 'ativo', impedimentCheckedAt: null, restrictedAt: null } });
  t.teardown(async () => {
    await nextDay.close();
    await h.close();
  });
  const op = await h.createOperator();
  const { key, secret } = op.sandbox;
  const url = h.gateways[0]!.publicUrl;
  const path = '/api/v1/sandbox/players/plr_1/next-day';
  const send = async (headers: Record<string, string>) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers });
    return { status: res.status, code: ((await res.json()) as { error?: { code: string } }).error?.code };
  };
  const v1 = (ts: string, k: string) => ({
    'x-operator-key': key,
    'x-timestamp': ts,
    'x-signature': signRequest(secret, 'POST', path, ts, ''),
    'idempotency-key': k,
  });
  const v2 = (ts: string, k: string, signedKey = k) => ({
    'x-operator-key': key,
    'x-timestamp': ts,
    'x-signature-version': '2',
    'x-signature': signRequestV2(secret, 'POST', path, ts, '', signedKey),
    'idempotency-key': k,
  });

  t.test('version 1: the second body-less call of the same second with another key is refused, as before', async (t) => {
    const ts = String(Math.floor(Date.now() / 1000) - 20);
    const before = nextDay.calls.length;
    t.equal((await send(v1(ts, 'v1-first-0001'))).status, 200);
    t.same(await send(v1(ts, 'v1-second-0002')), { status: 401, code: 'SIGNATURE_REUSED' });
    t.equal(nextDay.calls.length - before, 1, 'one call reached the service');
  });

  t.test('version 2: both are taken, each its own request', async (t) => {
    const ts = String(Math.floor(Date.now() / 1000) - 10);
    const before = nextDay.calls.length;
    const [a, b] = [v2(ts, 'v2-first-0001'), v2(ts, 'v2-second-0002')];
    t.not(a['x-signature'], b['x-signature'], 'two signatures');
    t.equal((await send(a)).status, 200, 'the first');
    t.equal((await send(b)).status, 200, 'the second, the same second');
    t.equal(nextDay.calls.length - before, 2, 'both reached the service');
    t.equal((await send(a)).status, 200, 'the first again: a retry of the same key');
    t.equal(nextDay.calls.length - before, 2, 'answered from its key, not run again');
  });

  t.test('version 2 binds the key: another key, or none, does not verify', async (t) => {
    const ts = String(Math.floor(Date.now() / 1000));
    t.same(await send(v2(ts, 'v2-sent-0003', 'v2-signed-0004')), { status: 401, code: 'INVALID_SIGNATURE' }, 'a key other than the one signed');
    const { 'idempotency-key': _dropped, ...keyless } = v2(ts, 'v2-signed-0005');
    t.same(await send(keyless), { status: 401, code: 'INVALID_SIGNATURE' }, 'the signed key left out');
    t.same(await send({ ...v2(ts, 'v2-ver-0006'), 'x-signature-version': '3' }), { status: 401, code: 'INVALID_SIGNATURE' }, 'an unknown version');
    t.same(
      await send({ ...v1(ts, 'v1-as-v2-0007'), 'x-signature-version': '2' }),
      { status: 401, code: 'INVALID_SIGNATURE' },
      'a version 1 signature sent as 2',
    );
  });

  t.test('version 2 of a GET: the key line is empty', async (t) => {
    const ts = String(Math.floor(Date.now() / 1000));
    t.match(canonicalStringV2('GET', '/api/v1/me', ts, undefined, undefined), /^v2\nGET\n\/api\/v1\/me\n\d+\n[0-9a-f]{64}\n$/);
    const res = await fetch(`${url}/api/v1/me`, {
      headers: {
        'x-operator-key': key,
        'x-timestamp': ts,
        'x-signature-version': '2',
        'x-signature': signRequestV2(secret, 'GET', '/api/v1/me', ts, '', undefined),
      },
    });
    t.equal(res.status, 200);
  });
});
