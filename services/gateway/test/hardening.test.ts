// Bad input and outages get a clear answer in the envelope: NUL and unpaired surrogates, deep
// bodies, malformed HTTP, wrong media types, non-integer limits, a database that fails, a crashed
// gateway's idempotency claim, IPv4-mapped allow-lists, and Idempotency-Keys on admin mutations.
import t from 'tap';
import net from 'node:net';
import { signRequest } from '@bo/contracts';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';
import { fakeService, sleep } from './support/fake-service.ts';
import { compileAllowList } from '../src/edge/auth/ip-allow-list.ts';
import { fingerprint } from '../src/edge/idempotency/idempotency-store.ts';

/** Sends raw bytes and returns what came back: status, headers and body. */
function rawHttp(port: number, request: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let data = '';
    socket.on('data', (d) => {
      data += d.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head!.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((l) => {
          const i = l.indexOf(':');
          return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()];
        }),
      );
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
    setTimeout(() => socket.end(), 300);
  });
}
const portOf = (url: string) => Number(new URL(url).port);
const isEnvelope = (body: any, code: string) => body?.error?.code === code && /^req_/.test(body.error.requestId ?? '');

t.test('hardening', async (t) => {
  // RPC deadline above the lease, so a request can outlive its first lease and must renew it.
  const h = await startHarness({ IDEMPOTENCY_LEASE_SECONDS: '2', RPC_TIMEOUT_MS: '8000' });
  const players = await fakeService(h.prefix, 'players.create');
  const deposits = await fakeService(h.prefix, 'payments.deposits.create');
  const withdrawals = await fakeService(h.prefix, 'payments.withdrawals.create');
  const kycDecision = await fakeService(h.prefix, 'players.kyc.decide');
  const payDecision = await fakeService(h.prefix, 'payments.admin.withdrawalDecision');
  const transactions = await fakeService(h.prefix, 'wallet.transactions');
  const fakes = [players, deposits, withdrawals, kycDecision, payDecision, transactions];
  t.teardown(async () => {
    for (const f of fakes) await f.close();
    await h.close();
  });
  const op = await h.createOperator();
  const c = op.sandboxClient;
  const gw = h.gateways[0];
  const player = { externalId: 'p-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-05-17' };
  let n = 0;
  const key = () => ({ 'idempotency-key': `hardening-${++n}-${Date.now()}` });
  /** A signed request whose body is sent exactly as given (JSON escapes included). */
  const signedRaw = async (method: string, path: string, body: string, headers: Record<string, string> = {}) => {
    const rawPath = `/api/v1${path}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${gw!.publicUrl}${rawPath}`, {
      method,
      body: body || undefined,
      headers: { 'x-operator-key': op.sandbox.key, 'x-timestamp': ts, 'x-signature': signRequest(op.sandbox.secret, method, rawPath, ts, body), ...headers },
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  t.test('NUL characters: 422 wherever they arrive, and nothing reaches a service', async (t) => {
    const before = players.calls.length;
    const inBody = await c.post('/players', { ...player, name: 'Ana\u0000Souza' }, key());
    t.equal(inBody.status, 422);
    t.same(inBody.body.error.details, { in: 'body', issues: [{ path: '/name', message: 'Must not contain NUL characters or unpaired UTF-16 surrogates.' }] });
    const inIgnoredField = await c.post('/players', { ...player, extra: { 'k\u0000': 'v' } }, key());
    t.same(
      inIgnoredField.body.error.details.issues.map((i: any) => i.path),
      ['/extra/k\u0000'],
      'keys too, in fields the schema ignores',
    );
    const inPath = await c.get('/players/%00/wallet');
    t.equal(inPath.status, 422);
    t.same(inPath.body.error.details.in, 'path');
    const inQuery = await c.get('/players?externalId=a%00b');
    t.equal(inQuery.status, 422);
    t.same(inQuery.body.error.details, {
      in: 'query',
      issues: [{ path: '/externalId', message: 'Must not contain NUL characters or unpaired UTF-16 surrogates.' }],
    });
    const adminPath = await h.admin('GET', '/admin/operators/op_%00');
    t.ok([404, 422].includes(adminPath.status) && adminPath.body.error.requestId, `admin path: ${adminPath.status} in the envelope`);
    const adminBody = await h.admin('POST', '/admin/operators', { name: 'Bad\u0000Name' });
    t.equal(adminBody.status, 422);
    t.same(
      adminBody.body.error.details.issues.map((i: any) => i.path),
      ['/name'],
    );
    t.equal(players.calls.length, before, 'no request reached the players service');
  });

  t.test('unpaired surrogates: refused with 422 on every route alike', async (t) => {
    const lone = '"\\ud800"';
    const create = await signedRaw(
      'POST',
      '/players',
      `{"externalId":${lone},"name":"Ana Souza","email":"ana@example.com","cpf":"52998224725","birthDate":"1990-05-17"}`,
      { 'content-type': 'application/json', ...key() },
    );
    t.equal(create.status, 422);
    t.same(
      create.body.error.details.issues.map((i: any) => i.path),
      ['/externalId'],
    );
    const deposit = await signedRaw('POST', '/players/plr_1/deposits', `{"amount":"10.00","currency":"BRL","method":${lone},"externalReference":"\\udc00x"}`, {
      'content-type': 'application/json',
      ...key(),
    });
    t.same(
      deposit.body.error.details.issues.map((i: any) => i.path),
      ['/externalReference', '/method'],
    );
    const withdrawal = await signedRaw('POST', '/players/plr_1/withdrawals', `{"amount":"10.00","currency":"BRL","method":${lone}}`, {
      'content-type': 'application/json',
      ...key(),
    });
    t.equal(withdrawal.status, 422, 'withdrawals refuse them as deposits do');
    const paired = await signedRaw(
      'POST',
      '/players',
      `{"externalId":"emoji-\\ud83d\\ude00","name":"Ana Souza","email":"ana@example.com","cpf":"52998224725","birthDate":"1990-05-17"}`,
      { 'content-type': 'application/json', ...key() },
    );
    t.equal(paired.status, 201, 'a proper surrogate pair (an emoji) is fine');
    t.equal(deposits.calls.length + withdrawals.calls.length, 0);
  });

  t.test('a deeply nested body is a permanent 422, never a retryable 503', async (t) => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await signedRaw(
      'POST',
      '/players',
      `{"externalId":"deep","name":"Ana Souza","email":"ana@example.com","cpf":"52998224725","birthDate":"1990-05-17","pad":${deep}}`,
      { 'content-type': 'application/json', ...key() },
    );
    t.equal(res.status, 422);
    t.equal(res.headers.get('retry-after'), null);
    t.match(res.body.error.details.issues[0].message, /deeper than 32 levels/);
    const fine = await c.post('/players', { ...player, externalId: 'nested-ok', pad: JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`) }, key());
    t.equal(fine.status, 201, '20 levels are fine');
  });

  t.test('malformed HTTP gets the envelope on both ports', async (t) => {
    for (const [name, url] of [
      ['public', gw!.publicUrl],
      ['admin', gw!.adminUrl],
    ] as const) {
      const badUrl = await fetch(`${url}/api/v1/players/%zz/wallet`);
      const badUrlBody = (await badUrl.json()) as any;
      t.equal(badUrl.status, 400, `${name}: bad percent-encoding`);
      t.ok(isEnvelope(badUrlBody, 'BAD_REQUEST'), JSON.stringify(badUrlBody));
      t.notMatch(JSON.stringify(badUrlBody), /%zz/, 'the raw URL is not echoed');

      const bigHeader = await rawHttp(portOf(url), `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      t.equal(bigHeader.status, 431, `${name}: 20 KB header`);
      t.ok(isEnvelope(JSON.parse(bigHeader.body), 'HEADERS_TOO_LARGE'));

      const twoLengths = await rawHttp(portOf(url), 'POST /api/v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}');
      t.equal(twoLengths.status, 400, `${name}: conflicting Content-Length`);
      t.ok(isEnvelope(JSON.parse(twoLengths.body), 'BAD_REQUEST'));
      t.match(twoLengths.headers['x-request-id'], /^req_/);

      const controlChar = await rawHttp(portOf(url), 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
      t.equal(controlChar.status, 400, `${name}: control character in a header`);
      t.ok(isEnvelope(JSON.parse(controlChar.body), 'BAD_REQUEST'));

      const expect = await rawHttp(portOf(url), 'POST /api/v1/players HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Length: 2\r\n\r\n');
      t.equal(expect.status, 417, `${name}: Expect: bogus`);
      t.ok(isEnvelope(JSON.parse(expect.body), 'EXPECTATION_FAILED'));
    }
    const longParam = await c.get(`/players/${'p'.repeat(150)}/wallet`);
    t.equal(longParam.status, 422, 'a path value over 100 characters is a validation error, not a bare 414');
    t.same(
      longParam.body.error.details.issues.map((i: any) => i.path),
      ['/playerId'],
    );
  });

  t.test('request bodies must be application/json', async (t) => {
    // A body per key: the same signed bytes with another key would be SIGNATURE_REUSED.
    const body = (n: number) => JSON.stringify({ ...player, externalId: `media-${n}` });
    for (const [n, type] of ['text/plain', 'image/png', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'].entries()) {
      const res = await signedRaw('POST', '/players', body(n), { 'content-type': type, ...key() });
      t.equal(res.status, 415, type);
      t.ok(isEnvelope(res.body, 'UNSUPPORTED_MEDIA_TYPE'));
    }
    const none = await signedRaw('POST', '/players', body(4), key());
    t.equal(none.status, 415, 'a body with no Content-Type');
    const charset = await signedRaw('POST', '/players', JSON.stringify({ ...player, externalId: 'media-ok' }), {
      'content-type': 'application/json; charset=utf-8',
      ...key(),
    });
    t.equal(charset.status, 201, 'application/json with a charset');
    const empty = await signedRaw('POST', '/sandbox/players/plr_1/kyc/decision', '', {});
    t.not(empty.status, 415, 'no body needs no type');
    const admin = await fetch(`${gw!.adminUrl}/admin/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
      body: '{"name":"X"}',
    });
    t.equal(admin.status, 415, 'the admin API too');
  });

  t.test('a non-integer limit is 422', async (t) => {
    for (const limit of ['1.5', '1e1', '0x10', ' 3']) {
      const res = await c.get(`/players/plr_1/transactions?limit=${encodeURIComponent(limit)}`);
      t.equal(res.status, 422, `limit=${limit}`);
      t.same(
        res.body.error.details.issues.map((i: any) => i.path),
        ['/limit'],
      );
    }
    const ok = await c.get('/players/plr_1/transactions?limit=3');
    t.equal(ok.status, 201, 'an integer limit reaches the service (the fake answers 201)');
    t.equal(transactions.calls.at(-1)?.query.limit, 3);
  });

  t.test('an unavailable database is 503 with Retry-After, never its text', async (t) => {
    const dbDown = Object.assign(new Error('terminating connection due to administrator command: the database system is shutting down'), { code: '57P03' });
    const claim = gw!.idempotency.claim;
    gw!.idempotency.claim = async () => {
      throw dbDown;
    };
    const res = await c.post('/players', { ...player, externalId: 'db-down' }, key());
    gw!.idempotency.claim = claim;
    t.equal(res.status, 503);
    t.equal(res.headers.get('retry-after'), '1');
    t.ok(isEnvelope(res.body, 'SERVICE_UNAVAILABLE'));
    t.notMatch(res.text, /57P03|shutting down|administrator/, 'no database text');

    const complete = gw!.idempotency.complete;
    gw!.idempotency.complete = async () => {
      throw dbDown;
    };
    const recorded = await c.post('/players', { ...player, externalId: 'record-fails' }, key());
    gw!.idempotency.complete = complete;
    t.equal(recorded.status, 201, 'the effect happened: its real answer is sent even though it could not be stored');
    t.notMatch(recorded.text, /57P03|shutting down/);
  });

  t.test('a crashed gateway holds a key only for its lease', async (t) => {
    const k = `crashed-${Date.now()}`;
    const body = JSON.stringify({ ...player, externalId: 'after-crash' });
    // What a gateway that died mid-request leaves behind: a claim nobody renews.
    await gw!.idempotency.claim({ operatorId: op.operator.id, environment: 'sandbox', key: k }, fingerprint('POST', '/api/v1/players', Buffer.from(body)));
    const [row] = await gw!.orm.em
      .fork()
      .execute<{ lease: number }[]>(
        `select extract(epoch from locked_until - created_at)::float as lease from gateway.idempotency_keys where idempotency_key = ?`,
        [k],
      );
    t.ok(row!.lease <= 2.5, `the claim is a ${row!.lease.toFixed(1)} s lease (IDEMPOTENCY_LEASE_SECONDS=2), not a fixed 20 s lock`);
    const first = await signedRaw('POST', '/players', body, { 'content-type': 'application/json', 'idempotency-key': k });
    t.equal(first.status, 409, 'while the lease runs: in progress');
    t.equal(first.body.error.code, 'IDEMPOTENCY_IN_PROGRESS');
    const retry = () => signedRaw('POST', '/players', body, { 'content-type': 'application/json', 'idempotency-key': k });
    let retried = await retry();
    for (let i = 0; i < 600 && retried.status === 409; i++) {
      await sleep(100);
      retried = await retry();
    }
    t.equal(retried.status, 201, 'once it lapses a retry takes the key over');
  });

  t.test('a long request keeps its claim: the lease is renewed while it runs', async (t) => {
    players.respond = async (req) => {
      await sleep(3500);
      return { ok: true, status: 201, body: { slow: true, body: req.body } };
    };
    const k = key();
    const slow = c.post('/players', { ...player, externalId: 'slow' }, k);
    await sleep(3000); // past the 2 s lease: without renewal a retry would take the key over
    const retry = await c.post('/players', { ...player, externalId: 'slow' }, k);
    t.equal(retry.body.error?.code, 'IDEMPOTENCY_IN_PROGRESS');
    t.equal((await slow).status, 201);
    players.respond = async (req) => ({ ok: true, status: 201, body: { n: players.calls.length, body: req.body } });
  });

  t.test('admin mutations and sandbox decisions take an optional Idempotency-Key', async (t) => {
    payDecision.respond = async (req) => ({ ok: true, status: 200, body: { id: (req.params as any).id, status: 'paid', n: payDecision.calls.length } });
    const pay = (headers: Record<string, string>, decision = 'pay') =>
      fetch(`${gw!.adminUrl}/admin/withdrawals/wd_1/decision`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ decision }),
      }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: (await r.json()) as any }));
    const k = { 'idempotency-key': `admin-pay-${Date.now()}` };
    const first = await pay(k);
    const again = await pay(k);
    t.equal(first.status, 200);
    t.same(again, { ...first, replayed: 'true' }, 'the retry gets the recorded answer');
    t.equal(payDecision.calls.length, 1, 'and the service was asked once');
    t.equal((await pay(k, 'reject')).body.error.code, 'IDEMPOTENCY_CONFLICT', 'the same key with another body');
    t.equal((await pay({})).status, 200, 'without a key the request runs as before');
    t.equal(payDecision.calls.length, 2);

    kycDecision.respond = async () => ({ ok: true, status: 200, body: { status: 'aprovado', n: kycDecision.calls.length } });
    const kk = key();
    const d1 = await c.post('/sandbox/players/plr_1/kyc/decision', { status: 'aprovado' }, kk);
    const d2 = await c.post('/sandbox/players/plr_1/kyc/decision', { status: 'aprovado' }, kk);
    t.same(d2.body, d1.body);
    t.equal(d2.headers.get('idempotent-replayed'), 'true');
    t.equal(kycDecision.calls.length, 1, 'a sandbox decision retried with its key runs once');
  });

  t.test('allow-lists treat IPv4-mapped IPv6 and IPv4 as one address', async (t) => {
    t.ok(compileAllowList(['::ffff:127.0.0.1'])('127.0.0.1'));
    t.ok(compileAllowList(['127.0.0.1'])('::ffff:127.0.0.1'));
    t.ok(compileAllowList(['::ffff:10.0.0.0/104'])('10.1.2.3'));
    t.notOk(compileAllowList(['::ffff:10.0.0.0/104'])('11.0.0.1'));
    t.equal((await h.admin('PUT', `/admin/operators/${op.operator.id}/allowed-ips`, { ips: ['::ffff:127.0.0.1'] })).status, 200);
    t.equal((await c.get('/me')).status, 200, 'the IPv4 loopback caller is let in by its mapped form');
    t.equal((await h.admin('PUT', `/admin/operators/${op.operator.id}/allowed-ips`, { ips: [] })).status, 200);
  });
});
