// Bad input and outages get a clear answer in the envelope: NUL and unpaired surrogates, deep
// bodies, bodies that are not UTF-8, queries and paths not validly percent-encoded, requests
// without Host or with two, malformed JSON on operations without a body, admin amounts, malformed HTTP, wrong media types, non-integer limits, a database
// that fails, a crashed service's idempotency claim, IPv4-mapped allow-lists, and
// Idempotency-Keys on admin mutations.
import t from 'tap';
import net from 'node:net';
import { signRequest } from '@bo/contracts';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';
import { fakeService, sleep } from './support/fake-service.ts';
import { compileAllowList } from '@bo/http-kit';
import { fingerprint } from '../src/edge/idempotency/keys-in-flight.ts';

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
    // Ends our side once a whole keep-alive answer has come (a server that closes needs nothing): at
    // its end, not after a set time, which a busy machine may pass before the answer (it is then lost).
    socket.on('data', () => {
      const at = data.indexOf('\r\n\r\n');
      if (at < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(data.slice(0, at));
      if (length && data.length - at - 4 >= Number(length[1])) socket.end();
    });
    const ceiling = setTimeout(() => socket.end(), 30_000);
    socket.on('close', () => clearTimeout(ceiling));
  });
}
const portOf = (url: string) => Number(new URL(url).port);
const NOT_UTF8 = { in: 'body', issues: [{ path: '/', message: 'The body is not valid UTF-8.' }] };
const BAD_PATH = { in: 'path', issues: [{ path: '/', message: 'The path is not validly percent-encoded UTF-8.' }] };
const badQuery = (name: string) => ({ in: 'query', issues: [{ path: `/${name}`, message: 'Must be validly percent-encoded UTF-8.' }] });
/** Percent-encodings that are not UTF-8: a bad escape, bytes that are no UTF-8, an encoded surrogate, a cut sequence. */
const BAD_ENCODINGS = ['%ZZ', '%FF%FE', '%ED%A0%80', '%E2%82', '%C0%AF', 'a%2', '%'];
const isEnvelope = (body: any, code: string) => body?.error?.code === code && /^req_/.test(body.error.requestId ?? '');

t.test('hardening', async (t) => {
  // RPC deadline well above the lease, so a request can outlive its first lease and must renew it (even on a busy machine).
  const h = await startHarness({ IDEMPOTENCY_LEASE_SECONDS: '2', RPC_TIMEOUT_MS: '30000' });
  const players = await fakeService(h, 'players.create');
  const deposits = await fakeService(h, 'payments.deposits.create');
  const withdrawals = await fakeService(h, 'payments.withdrawals.create');
  const kycDecision = await fakeService(h, 'players.kyc.decide');
  const payDecision = await fakeService(h, 'payments.admin.withdrawalDecision');
  const transactions = await fakeService(h, 'wallet.transactions');
  const findPlayers = await fakeService(h, 'players.find');
  const setFourEyes = await fakeService(h, 'payments.admin.setFourEyes');
  const setLimits = await fakeService(h, 'players.admin.limits');
  const fakes = [players, deposits, withdrawals, kycDecision, payDecision, transactions, findPlayers, setFourEyes, setLimits];
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
  const signedRaw = async (method: string, path: string, body: string | Buffer, headers: Record<string, string> = {}) => {
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
      t.equal(badUrl.status, 422, `${name}: bad percent-encoding in the path`);
      t.ok(isEnvelope(badUrlBody, 'VALIDATION_ERROR'), JSON.stringify(badUrlBody));
      t.same(badUrlBody.error.details, BAD_PATH);
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

  t.test('a body that is not UTF-8 is 422 where the body is parsed, never stored with U+FFFD', async (t) => {
    const json = { 'content-type': 'application/json' };
    const deposit = (ref: number[]) =>
      Buffer.concat([Buffer.from('{"amount":"10.00","currency":"BRL","method":"pix","externalReference":"r'), Buffer.from(ref), Buffer.from('"}')]);
    const before = deposits.calls.length;
    for (const [name, bytes] of [
      ['\\xFF', [0xff]],
      ['\\xFE', [0xfe]],
      ['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
      ['an overlong "/" (C0 AF)', [0xc0, 0xaf]],
      ['a cut sequence (E2 82)', [0xe2, 0x82]],
    ] as const) {
      const res = await signedRaw('POST', '/players/plr_1/deposits', deposit([...bytes]), { ...json, ...key() });
      t.equal(res.status, 422, `externalReference "r" + ${name}`);
      t.same(res.body.error?.details, NOT_UTF8);
    }
    t.equal(deposits.calls.length, before, 'no deposit reached the payments service');

    // Checked where the body is parsed: after authentication, idempotency and the media type.
    // Each request's bytes are its own: the same signed bytes with another key would be SIGNATURE_REUSED.
    const unsigned = await fetch(`${gw!.publicUrl}/api/v1/players/plr_1/deposits`, { method: 'POST', headers: { ...json, ...key() }, body: deposit([0xff]) });
    t.equal(unsigned.status, 401, 'unauthenticated: 401 first');
    t.equal((await signedRaw('POST', '/players/plr_1/deposits', deposit([0xfe]), json)).body.error?.code, 'IDEMPOTENCY_KEY_REQUIRED', 'no key: 400 first');
    t.equal(
      (await signedRaw('POST', '/players/plr_1/deposits', deposit([0xfd]), { 'content-type': 'text/plain', ...key() })).status,
      415,
      'not JSON: 415 first',
    );

    const accented = await signedRaw('POST', '/players', Buffer.from(JSON.stringify({ ...player, externalId: 'utf8-ok', name: 'João Ação' }), 'utf8'), {
      ...json,
      ...key(),
    });
    t.equal(accented.status, 201, 'UTF-8 text beyond ASCII is fine');
    t.equal((players.calls.at(-1)?.body as { name?: string } | undefined)?.name, 'João Ação');

    const admin = await fetch(`${gw!.adminUrl}/admin/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...json },
      body: Buffer.from('{"name":"Caf\xe9 Bets"}', 'latin1'),
    });
    t.equal(admin.status, 422, 'the admin API: a Latin-1 body');
    t.same(((await admin.json()) as any).error?.details, NOT_UTF8);
  });

  t.test('a query or a path not validly percent-encoded is 422 naming its part, on both ports', async (t) => {
    for (const bad of BAD_ENCODINGS) {
      const query = await c.get(`/players?externalId=${bad}`);
      t.equal(query.status, 422, `query externalId=${bad}`);
      t.same(query.body.error?.details, badQuery('externalId'));
      const path = await c.get(`/players/${bad}/wallet`);
      t.equal(path.status, 422, `path /players/${bad}/wallet`);
      t.same(path.body.error?.details, BAD_PATH);
    }
    t.equal(findPlayers.calls.length, 0, 'nothing reached the players service');

    const badName = await c.get('/players?%ZZ=1');
    t.same(badName.body.error?.details, { in: 'query', issues: [{ path: '/', message: 'A parameter name is not validly percent-encoded UTF-8.' }] });
    t.notMatch(badName.text, /%ZZ/, 'the raw name is not echoed');
    const repeated = await c.get('/players?externalId=ok&externalId=%FF');
    t.same(repeated.body.error?.details, badQuery('externalId'), 'one bad copy of a repeated parameter');
    const noParameters = await c.post('/players?utm=%FF%FE', { ...player, externalId: 'query-bad' }, key());
    t.equal(noParameters.status, 422, 'an operation that takes no parameters refuses a malformed query too');
    t.same(noParameters.body.error?.details, badQuery('utm'));
    const unsigned = await fetch(`${gw!.publicUrl}/api/v1/players?externalId=%FF`);
    t.equal(unsigned.status, 401, 'after authentication, as every validation error');

    findPlayers.respond = async (req) => ({ ok: true, status: 200, body: { data: [], query: req.query } });
    const fine = await c.get('/players?externalId=%F0%9F%98%80+a%2Bb');
    t.equal(fine.status, 200, 'UTF-8 escapes, + as a space');
    t.same(findPlayers.calls.at(-1)?.query, { externalId: '😀 a+b' });

    const adminQuery = await h.admin('GET', '/admin/audit?actor=%FF%FE');
    t.equal(adminQuery.status, 422, 'admin query');
    t.same(adminQuery.body.error?.details, badQuery('actor'));
    const adminPath = await h.admin('GET', '/admin/operators/%ED%A0%80');
    t.equal(adminPath.status, 422, 'admin path');
    t.same(adminPath.body.error?.details, BAD_PATH);
  });

  t.test('a request without Host is 400 BAD_REQUEST in the envelope on both ports', async (t) => {
    for (const [name, url] of [
      ['public', gw!.publicUrl],
      ['admin', gw!.adminUrl],
    ] as const) {
      for (const target of ['/healthz', name === 'public' ? '/api/v1/players' : '/admin/operators']) {
        const res = await rawHttp(portOf(url), `GET ${target} HTTP/1.1\r\n\r\n`);
        t.equal(res.status, 400, `${name} ${target}: HTTP/1.1 without Host`);
        const body = res.body ? JSON.parse(res.body) : undefined;
        t.ok(isEnvelope(body, 'BAD_REQUEST'), res.body);
        t.equal(body?.error?.requestId, res.headers['x-request-id'], 'with its X-Request-Id');
        t.equal(res.headers.connection, 'close');
      }
      t.equal((await rawHttp(portOf(url), 'GET /healthz HTTP/1.1\r\nHost:\r\n\r\n')).status, 200, `${name}: an empty Host is a Host`);
      t.equal((await rawHttp(portOf(url), 'GET /healthz HTTP/1.0\r\n\r\n')).status, 200, `${name}: HTTP/1.0 needs none`);
    }
  });

  t.test('two Host headers: 400 BAD_REQUEST in the envelope on both ports, before authentication', async (t) => {
    for (const [name, url] of [
      ['public', gw!.publicUrl],
      ['admin', gw!.adminUrl],
    ] as const) {
      for (const target of ['/healthz', name === 'public' ? '/api/v1/players' : '/admin/operators']) {
        for (const version of ['1.1', '1.0']) {
          const res = await rawHttp(portOf(url), `GET ${target} HTTP/${version}\r\nHost: a.example\r\nhost: b.example\r\n\r\n`);
          t.equal(res.status, 400, `${name} ${target}: HTTP/${version} with two Host headers`);
          const body = res.body ? JSON.parse(res.body) : undefined;
          t.ok(isEnvelope(body, 'BAD_REQUEST'), res.body);
          t.equal(body?.error?.message, 'A request must have one Host header, not several.');
        }
      }
    }
  });

  t.test('a Host that is not one host (a second one after a comma, a space, userinfo): 400 on every port, before authentication', async (t) => {
    const targets = [
      ['public', gw!.publicUrl, '/healthz'],
      ['public', gw!.publicUrl, '/api/v1/players'],
      ['provider', gw!.publicUrl, '/provider/v1/balance'],
      ['admin', gw!.adminUrl, '/healthz'],
      ['admin', gw!.adminUrl, '/admin/operators'],
    ] as const;
    for (const [name, url, target] of targets) {
      for (const host of ['127.0.0.1, evil.example', '127.0.0.1,evil.example', 'a.example b.example', 'user@a.example', 'a.example/x']) {
        const res = await rawHttp(portOf(url), `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
        t.equal(res.status, 400, `${name} ${target}: Host: ${host}`);
        const body = res.body ? JSON.parse(res.body) : undefined;
        t.ok(isEnvelope(body, 'BAD_REQUEST'), res.body);
        t.equal(body?.error?.message, 'The Host header must name one host: a name or an address, and a port.');
        t.equal(res.headers.connection, 'close');
      }
    }
    for (const host of ['127.0.0.1', '127.0.0.1:3000', 'api.example.com', 'api.example.com:443', '[::1]:3000', 'localhost']) {
      t.equal((await rawHttp(portOf(gw!.publicUrl), `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).status, 200, `one host: ${host}`);
    }
  });

  t.test('malformed JSON is 422 on every operation, whether it takes a body or not', async (t) => {
    const logins = await fakeService(h, 'players.logins.report');
    t.teardown(() => logins.close());
    const NOT_JSON = { in: 'body', issues: [{ path: '/', message: 'The body is not valid JSON.' }] };
    const json = { 'content-type': 'application/json' };
    for (const [path, body, headers] of [
      ['/webhooks/events/evt_1/redeliver', '{"a":', key()],
      ['/players/plr_1/logins', '{"a":', {}],
      ['/webhooks/test', '[1,2', {}],
      ['/sandbox/players/plr_1/kyc/decision', '{', {}],
    ] as const) {
      const res = await signedRaw('POST', path, body, { ...json, ...headers });
      t.same([res.status, res.body.error?.details], [422, NOT_JSON], `POST ${path} with ${body}`);
    }
    t.equal(logins.calls.length, 0, 'none was forwarded');
    const other = await h.createOperator({ name: 'Malformed Bets' });
    const admin = await fetch(`${gw!.adminUrl}/admin/operators/${other.operator.id}/suspend`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...json },
      body: '{"a":',
    });
    t.same([admin.status, ((await admin.json()) as any).error?.details], [422, NOT_JSON], 'the admin API: a suspension with malformed JSON');
    t.equal((await h.admin('GET', `/admin/operators/${other.operator.id}`)).body.status, 'active', 'and nothing was suspended');
    t.equal((await signedRaw('POST', '/players/plr_1/logins', '')).status, 201, 'no body at all is still fine');
    t.equal((await signedRaw('POST', '/players/plr_1/logins', '{}', json)).status, 201, 'nor is an empty object');
    t.equal(logins.calls.length, 2);
  });

  t.test('admin amounts follow the rule of public amounts', async (t) => {
    for (const minAmount of ['00.10', '1000000.01', '1e3', '-1', '0.001']) {
      const res = await h.admin('PUT', `/admin/operators/${op.operator.id}/four-eyes`, { minAmount });
      t.equal(res.status, 422, `four eyes from ${minAmount}`);
      t.same(
        res.body.error?.details.issues.map((i: any) => i.path),
        ['/minAmount'],
      );
    }
    t.equal(setFourEyes.calls.length, 0, 'none reached the payments service');
    for (const minAmount of ['0.00', '0', '250.5', '1000000.00']) {
      t.equal((await h.admin('PUT', `/admin/operators/${op.operator.id}/four-eyes`, { minAmount })).status, 201, `four eyes from ${minAmount}: forwarded`);
    }
    t.equal(setFourEyes.calls.length, 4);
    const limit = await h.admin('PUT', '/admin/players/plr_1/limits', { dailyDepositLimit: '1000000.01', selfExcludedUntil: null });
    t.equal(limit.status, 422, 'a daily deposit limit over 1000000.00');
    t.equal(setLimits.calls.length, 0);
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
    // The owning service cannot claim the key: its database is restarting.
    const store = await h.answers();
    store.once = async () => {
      throw dbDown;
    };
    const res = await c.post('/players', { ...player, externalId: 'db-down' }, key());
    delete (store as { once?: unknown }).once;
    t.equal(res.status, 503);
    t.equal(res.headers.get('retry-after'), '1');
    t.ok(isEnvelope(res.body, 'SERVICE_UNAVAILABLE'));
    t.notMatch(res.text, /57P03|shutting down|administrator/, 'no database text');
  });

  t.test('a crashed service holds a key only for its lease', async (t) => {
    const k = `crashed-${Date.now()}`;
    const body = JSON.stringify({ ...player, externalId: 'after-crash' });
    // What a service that died mid-request leaves behind: a claim nobody renews.
    await h.operators.sql.query(
      `insert into stand_ins.processed_requests (scope, idempotency_key, fingerprint, operation, status, body, locked_until)
       values (?, ?, ?, 'players.create', null, null, now() + interval '1 hour')`,
      [`${op.operator.id}:sandbox`, k, fingerprint('POST', '/api/v1/players', Buffer.from(body))],
    );
    const first = await signedRaw('POST', '/players', body, { 'content-type': 'application/json', 'idempotency-key': k });
    t.equal(first.status, 409, 'while the lease runs: in progress');
    t.equal(first.body.error.code, 'IDEMPOTENCY_IN_PROGRESS');
    t.equal(first.headers.get('retry-after'), '1');
    // The lease runs out when the test says so (an hour long above: no busy machine outlasts it before the first request).
    await h.operators.sql.query(`update stand_ins.processed_requests set locked_until = now() where scope = ? and idempotency_key = ?`, [
      `${op.operator.id}:sandbox`,
      k,
    ]);
    const retry = () => signedRaw('POST', '/players', body, { 'content-type': 'application/json', 'idempotency-key': k });
    let retried = await retry();
    for (let i = 0; i < 600 && retried.status === 409; i++) {
      await sleep(100);
      retried = await retry();
    }
    t.equal(retried.status, 201, 'once it lapses a retry takes the key over');
  });

  t.test('a long request keeps its claim: the lease is renewed while it runs', async (t) => {
    // The request runs until the test has retried it (an event, not a time: a busy machine may take
    // long to start the second replica).
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let running!: () => void;
    const isRunning = new Promise<void>((r) => {
      running = r;
    });
    players.respond = async (req) => {
      running();
      await released;
      return { ok: true, status: 201, body: { slow: true, body: req.body } };
    };
    const k = key();
    const slow = c.post('/players', { ...player, externalId: 'slow' }, k);
    await isRunning;
    await sleep(3000); // past the 2 s lease: without renewal a retry would take the key over
    // On another replica, which does not hold the key: the service's claim answers.
    const other = await h.startReplica();
    const retry = await h.clientFor(op.sandbox, other).post('/players', { ...player, externalId: 'slow' }, k);
    t.equal(retry.body.error?.code, 'IDEMPOTENCY_IN_PROGRESS');
    release();
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
