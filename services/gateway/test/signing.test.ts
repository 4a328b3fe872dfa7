// Authentication exactly as the contract and docs/decisions.md say, in that order, against real
// Postgres and NATS.
import t from 'tap';
import http from 'node:http';
import { signRequest, canonicalString, EMPTY_BODY_SHA256 } from '@bo/contracts';
import { startHarness } from './support/harness.ts';

t.test('canonical string', async (t) => {
  t.equal(EMPTY_BODY_SHA256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  t.equal(
    canonicalString('get', '/api/v1/players?externalId=a%20b', '1700000000', undefined),
    `GET\n/api/v1/players?externalId=a%20b\n1700000000\n${EMPTY_BODY_SHA256}`,
  );
  t.equal(canonicalString('POST', '/api/v1/players', '1', '{"a":1}').split('\n')[3], '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
});

t.test('request authentication', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const op = await h.createOperator();
  const client = op.sandboxClient;
  const base = `${h.gateways[0]!.publicUrl}/api/v1`;
  const now = () => String(Math.floor(Date.now() / 1000));

  async function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
    const res = await fetch(`${h.gateways[0]!.publicUrl}${path}`, { method, headers, body });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  }
  function signed(key: string, secret: string, method: string, path: string, ts = now(), body = '') {
    return { 'x-operator-key': key, 'x-timestamp': ts, 'x-signature': signRequest(secret, method, path, ts, body) };
  }

  t.test('a correct signature reaches /me and reports the environment', async (t) => {
    const me = await client.get('/me');
    t.equal(me.status, 200);
    t.same(me.body, {
      operator: { id: op.operator.id, name: 'Acme Bets', environment: 'sandbox' },
      brand: { id: op.sandbox.brandId, name: 'Acme Bets (sandbox)', currency: 'BRL', isSandbox: true },
      apiVersion: '1.4.0',
      // The harness's stand-in of the players service: an operator our team never set (docs/players.md).
      compliance: { profile: 'off', timeZone: 'America/Sao_Paulo', coolingOffHours: 24, realityCheckMinutes: 60, rules: [] },
    });
    t.match(me.headers.get('x-request-id'), /^req_[0-9a-f]{32}$/);
    t.equal(me.headers.get('ratelimit-limit'), '600');
    const live = await op.productionClient.get('/me');
    t.equal(live.body.operator.environment, 'production');
    t.equal(live.body.brand.isSandbox, false);
    t.equal(live.body.brand.id, op.production.brandId);
  });

  t.test('the query string is part of the signed path', async (t) => {
    const path = '/api/v1/me?probe=1';
    const ok = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', path));
    t.equal(ok.status, 200);
    const withoutQuery = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', '/api/v1/me'));
    t.equal(withoutQuery.body.error.code, 'INVALID_SIGNATURE');
  });

  t.test('the path is signed as sent, without decoding', async (t) => {
    // %7E would decode to ~; the signature must cover the bytes the client sent.
    const path = '/api/v1/me?x=%7E';
    const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const u = new URL(h.gateways[0]!.publicUrl);
      const req = http.request(
        { host: u.hostname, port: u.port, path, method: 'GET', headers: signed(op.sandbox.key, op.sandbox.secret, 'GET', path) },
        (res) => {
          let d = '';
          res.on('data', (c) => (d += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(d) }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    t.equal(res.status, 200);
  });

  t.test('the body digest covers the exact bytes', async (t) => {
    const body = '{"externalId":"x"}';
    const headers = {
      ...signed(op.sandbox.key, op.sandbox.secret, 'POST', '/api/v1/players', now(), body),
      'content-type': 'application/json',
      'idempotency-key': 'sig-body-0001',
    };
    const tampered = await raw('POST', '/api/v1/players', headers, '{"externalId":"y"}');
    t.equal(tampered.status, 401);
    t.equal(tampered.body.error.code, 'INVALID_SIGNATURE');
    const spaced = await raw('POST', '/api/v1/players', headers, '{"externalId": "x"}');
    t.equal(spaced.body.error.code, 'INVALID_SIGNATURE', 're-serialised JSON is not the signed body');
  });

  t.test('every auth error, in order', async (t) => {
    const path = '/api/v1/me';
    const good = signed(op.sandbox.key, op.sandbox.secret, 'GET', path);
    const cases: [string, Record<string, string>, number, string][] = [
      ['no key', { ...good, 'x-operator-key': '' }, 401, 'INVALID_CREDENTIALS'],
      ['malformed key', { ...good, 'x-operator-key': 'nope' }, 401, 'INVALID_CREDENTIALS'],
      ['unknown key', { ...good, 'x-operator-key': 'bk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 401, 'INVALID_CREDENTIALS'],
      [
        'unknown key and bad timestamp: key first',
        { ...good, 'x-operator-key': 'bk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'x-timestamp': 'x' },
        401,
        'INVALID_CREDENTIALS',
      ],
      ['missing timestamp', { ...good, 'x-timestamp': '' }, 401, 'TIMESTAMP_OUT_OF_RANGE'],
      ['non-integer timestamp', signed(op.sandbox.key, op.sandbox.secret, 'GET', path, '12.5'), 401, 'TIMESTAMP_OUT_OF_RANGE'],
      ['bad timestamp and bad signature: timestamp first', { ...good, 'x-timestamp': '1', 'x-signature': 'ab' }, 401, 'TIMESTAMP_OUT_OF_RANGE'],
      ['missing signature', { ...good, 'x-signature': '' }, 401, 'INVALID_SIGNATURE'],
      ['wrong signature', { ...good, 'x-signature': 'a'.repeat(64) }, 401, 'INVALID_SIGNATURE'],
      ['other operator secret', signed(op.sandbox.key, op.production.secret, 'GET', path), 401, 'INVALID_SIGNATURE'],
      [
        'a bk_test_ key with a different prefix is unknown',
        { ...good, 'x-operator-key': op.sandbox.key.replace('bk_test_', 'bk_live_') },
        401,
        'INVALID_CREDENTIALS',
      ],
    ];
    for (const [name, headers, status, code] of cases) {
      const res = await raw('GET', path, headers);
      t.equal(res.status, status, name);
      t.equal(res.body.error.code, code, name);
      t.equal(res.body.error.requestId, res.headers.get('x-request-id'), `${name}: requestId matches the header`);
    }
    const upper = await raw('GET', path, { ...good, 'x-signature': good['x-signature'].toUpperCase() });
    t.equal(upper.status, 200, 'hex is compared case-insensitively');
  });

  t.test('the ±300 s window', async (t) => {
    const path = '/api/v1/me';
    const at = (offset: number) => String(Math.floor(Date.now() / 1000) + offset);
    for (const offset of [-295, 295]) {
      const res = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', path, at(offset)));
      t.equal(res.status, 200, `offset ${offset}s accepted`);
    }
    for (const offset of [-306, 306, -100000]) {
      const res = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', path, at(offset)));
      t.equal(res.body.error.code, 'TIMESTAMP_OUT_OF_RANGE', `offset ${offset}s refused`);
    }
  });

  t.test('suspension, then allow-list, come after a valid signature', async (t) => {
    const path = '/api/v1/me';
    t.equal((await h.admin('PUT', `/admin/operators/${op.operator.id}/allowed-ips`, { ips: ['10.0.0.0/8', '2001:db8::/32'] })).status, 200);
    let res = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', path));
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'FORBIDDEN_IP');
    res = await raw('GET', path, { ...signed(op.sandbox.key, op.sandbox.secret, 'GET', path), 'x-signature': 'b'.repeat(64) });
    t.equal(res.body.error.code, 'INVALID_SIGNATURE', 'a bad signature is reported before the address');
    t.equal((await h.admin('PUT', `/admin/operators/${op.operator.id}/allowed-ips`, { ips: ['127.0.0.1'] })).status, 200);
    res = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', path));
    t.equal(res.status, 200, 'the loopback caller is now allowed');
    t.equal((await h.admin('POST', `/admin/operators/${op.operator.id}/suspend`)).status, 200);
    res = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', path));
    t.equal(res.body.error.code, 'OPERATOR_SUSPENDED');
    t.equal((await h.admin('POST', `/admin/operators/${op.operator.id}/resume`)).status, 200);
    t.equal((await h.admin('PUT', `/admin/operators/${op.operator.id}/allowed-ips`, { ips: [] })).status, 200);
    res = await raw('GET', path, signed(op.sandbox.key, op.sandbox.secret, 'GET', path));
    t.equal(res.status, 200);
    const bad = await h.admin('PUT', `/admin/operators/${op.operator.id}/allowed-ips`, { ips: ['10.0.0.0/8', 'not-an-ip'] });
    t.equal(bad.status, 422);
    t.same(bad.body.error.details.issues, [{ path: '/ips/1', message: 'Must be an IPv4/IPv6 address or CIDR.' }]);
  });

  t.test('SANDBOX_ONLY for live keys, after auth', async (t) => {
    const live = await op.productionClient.post('/sandbox/players/plr_x/kyc/decision', { status: 'aprovado' });
    t.equal(live.status, 403);
    t.equal(live.body.error.code, 'SANDBOX_ONLY');
    const liveW = await op.productionClient.post('/sandbox/withdrawals/wd_x/decision', { decision: 'approve' });
    t.equal(liveW.body.error.code, 'SANDBOX_ONLY');
    void base;
  });
});
