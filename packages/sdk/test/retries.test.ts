// Safe retries: idempotent operations keep the SAME Idempotency-Key across network errors, 5xx,
// 409 IDEMPOTENCY_IN_PROGRESS and 429, wait as Retry-After says, back off otherwise, and stop
// after maxAttempts; other writes are retried only when the server surely did nothing.
import t, { type Test } from 'tap';
import net from 'node:net';
import { BackOffice, ConflictError, ConnectionError, RateLimitError, ServerError, ValidationError, backoffDelay, parseRetryAfter } from '../src/index.ts';
import { KEY, SECRET, envelope, fakeTime, startFakeApi } from './support/fake-api.ts';

const PLAYER = { externalId: 'ext-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-05-17' };

async function setUp(t: Test, extra: Partial<ConstructorParameters<typeof BackOffice>[0]> = {}) {
  const api = await startFakeApi();
  t.teardown(() => api.close());
  const time = fakeTime();
  // random() = 0.5: each backoff is exactly 3/4 of its ceiling.
  const sdk = new BackOffice({ baseUrl: api.baseUrl, key: KEY, secret: SECRET, now: time.now, sleep: time.sleep, random: () => 0.5, ...extra });
  return { api, time, sdk };
}

t.test('network error, 500, 503, in-progress and 429 are retried with the same key until success', async (t) => {
  const { api, time, sdk } = await setUp(t, { retry: { maxAttempts: 6 } });
  api.script.push(
    { drop: true },
    { status: 500, body: envelope('INTERNAL_ERROR') },
    { status: 503, body: envelope('SERVICE_UNAVAILABLE'), headers: { 'retry-after': '2' } },
    { status: 409, body: envelope('IDEMPOTENCY_IN_PROGRESS'), headers: { 'retry-after': '1' } },
    { status: 429, body: envelope('RATE_LIMITED'), headers: { 'retry-after': '3' } },
    { status: 201, body: { id: 'plr_1' } },
  );
  const res = await sdk.request('createPlayer', { body: PLAYER });
  t.match(res, { status: 201, body: { id: 'plr_1' }, attempts: 6 });
  const keys = new Set(api.requests.map((r) => r.headers['idempotency-key']));
  t.equal(keys.size, 1, 'one Idempotency-Key for all six attempts');
  t.equal([...keys][0], res.idempotencyKey);
  t.same(time.sleeps, [188, 375, 2000, 1000, 3000], 'backoff (250, 500 ms ceilings) without Retry-After, Retry-After exactly with it');
  t.ok(
    api.requests.every((r) => r.signatureValid),
    'every attempt is signed',
  );
  t.same(
    api.requests.map((r) => Number(r.headers['x-timestamp']) - Number(api.requests[0]!.headers['x-timestamp'])),
    [0, 0, 0, 2, 3, 6],
    'each attempt is signed afresh with the clock of its own time',
  );
  t.same(new Set(api.requests.map((r) => r.body.toString())).size, 1, 'with the same body bytes');
});

t.test('attempts are bounded; the last error is thrown with the key to retry later', async (t) => {
  const { api, time, sdk } = await setUp(t);
  api.fallback = { status: 503, body: envelope('SERVICE_UNAVAILABLE') };
  const err = await sdk.deposits.confirm('dep_1').catch((e: unknown) => e);
  t.ok(err instanceof ServerError);
  t.match(err, { code: 'SERVICE_UNAVAILABLE', status: 503, attempts: 4, requestId: 'req_fake' });
  t.equal(api.requests.length, 4, 'maxAttempts = 4 by default');
  t.equal((err as ServerError).idempotencyKey, api.requests[0]!.headers['idempotency-key']);
  t.same(time.sleeps, [188, 375, 750], 'exponential backoff');
});

t.test('backoff is capped and jittered; Retry-After parses seconds and HTTP dates', async (t) => {
  const opts = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 };
  t.same(
    [1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, opts, () => 0)),
    [50, 100, 200, 400, 500, 500],
    'lowest: half the ceiling',
  );
  t.same(
    [1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, opts, () => 0.999999)),
    [100, 200, 400, 800, 1000, 1000],
    'highest: the ceiling',
  );
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  t.same(
    ['3', ' 0 ', new Date(now + 5000).toUTCString(), new Date(now - 5000).toUTCString(), 'soon', '', null, '-1', '1.5'].map((v) => parseRetryAfter(v, now)),
    [3000, 0, 5000, 0, undefined, undefined, undefined, undefined, undefined],
  );
});

t.test('an HTTP-date Retry-After is measured on the injected clock', async (t) => {
  const { api, time, sdk } = await setUp(t);
  api.script.push({ status: 429, body: envelope('RATE_LIMITED'), headers: { 'retry-after': new Date(time.now() + 7000).toUTCString() } });
  await sdk.me.get();
  t.same(time.sleeps, [7000]);
});

t.test('a Retry-After beyond maxRetryAfterMs is not waited for', async (t) => {
  const { api, time, sdk } = await setUp(t, { retry: { maxRetryAfterMs: 5000 } });
  api.script.push({ status: 429, body: envelope('RATE_LIMITED'), headers: { 'retry-after': '120' } });
  const err = await sdk.players.create(PLAYER).catch((e: unknown) => e);
  t.ok(err instanceof RateLimitError);
  t.match(err, { code: 'RATE_LIMITED', retryAfterMs: 120_000, attempts: 1 });
  t.same(time.sleeps, []);
});

t.test('4xx answers other than 429 and in-progress are final', async (t) => {
  const { api, time, sdk } = await setUp(t);
  api.script.push(
    { status: 422, body: envelope('VALIDATION_ERROR', 'invalid', { in: 'body', issues: [{ path: '/cpf', message: 'bad' }] }) },
    { status: 409, body: envelope('IDEMPOTENCY_CONFLICT') },
  );
  t.ok((await sdk.players.create(PLAYER).catch((e: unknown) => e)) instanceof ValidationError);
  const conflict = await sdk.players.create(PLAYER, { idempotencyKey: 'reused-key-1' }).catch((e: unknown) => e);
  t.ok(conflict instanceof ConflictError && conflict.is('IDEMPOTENCY_CONFLICT'));
  t.equal(api.requests.length, 2);
  t.same(time.sleeps, []);
  t.not(api.requests[0]!.headers['idempotency-key'], api.requests[1]!.headers['idempotency-key'], 'a new call gets a new key unless given');
});

t.test('reads retry without a key; unsafe writes retry only when nothing happened', async (t) => {
  const { api, sdk } = await setUp(t);
  api.script.push({ status: 500, body: envelope('INTERNAL_ERROR') }, { drop: true }, { status: 200, body: { playerId: 'plr_1' } });
  t.match(await sdk.wallet.get('plr_1'), { playerId: 'plr_1' });
  t.same(
    api.requests.map((r) => r.headers['idempotency-key']),
    [undefined, undefined, undefined],
    'a GET is retried, with no key',
  );

  api.requests.length = 0;
  api.script.push({ status: 503, body: envelope('SERVICE_UNAVAILABLE'), headers: { 'retry-after': '1' } });
  t.ok(
    (await sdk.games.createSession('plr_1', { gameId: 'g' }).catch((e: unknown) => e)) instanceof ServerError,
    'a 503 on a non-idempotent write is not retried',
  );
  api.script.push({ drop: true });
  t.ok((await sdk.sandbox.decideWithdrawal('wd_1', { decision: 'pay' }).catch((e: unknown) => e)) instanceof ConnectionError, 'nor a dropped connection');
  api.script.push({ status: 429, body: envelope('RATE_LIMITED'), headers: { 'retry-after': '1' } }, { status: 200, body: { delivered: true } });
  t.match(await sdk.webhooks.test(), { delivered: true }, 'a 429 is retried: the request was refused before any work');
  t.equal(api.requests.length, 4);
});

t.test('a signature refused as reused is retried a second later, signed afresh, for any operation', async (t) => {
  const { api, time, sdk } = await setUp(t);
  const reused = { status: 401, body: envelope('SIGNATURE_REUSED'), headers: { 'retry-after': '1' } };
  api.script.push(reused, { status: 201, body: { id: 'wd_1' } });
  t.match(await sdk.withdrawals.create('plr_1', { amount: '5.00', currency: 'BRL', method: 'pix', destination: 'x' }), { id: 'wd_1' });
  api.script.push(reused, { status: 201, body: { id: 'gs_1' } });
  t.match(await sdk.games.createSession('plr_1', { gameId: 'g' }), { id: 'gs_1' }, 'refused before any work: an unsafe write too');
  t.same(time.sleeps, [1000, 1000]);
  const [first, second] = api.requests;
  t.equal(first!.headers['idempotency-key'], second!.headers['idempotency-key'], 'the same key');
  t.not(first!.headers['x-signature'], second!.headers['x-signature'], 'a new signature');
  t.equal(Number(second!.headers['x-timestamp']) - Number(first!.headers['x-timestamp']), 1, 'over a new X-Timestamp');
});

t.test('a refused connection is retried for any operation', async (t) => {
  const { api, time } = await setUp(t);
  let calls = 0;
  // The first attempt fails the way undici reports a refused connection.
  const refusingOnce: typeof fetch = async (input, init) => {
    if (calls++ === 0) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    return fetch(input, init);
  };
  const sdk = new BackOffice({ baseUrl: api.baseUrl, key: KEY, secret: SECRET, fetch: refusingOnce, now: time.now, sleep: time.sleep, random: () => 0 });
  api.fallback = { status: 201, body: { id: 'gs_1' } };
  t.match(await sdk.games.createSession('plr_1', { gameId: 'g' }), { id: 'gs_1' });
  t.same([calls, api.requests.length, time.sleeps], [2, 1, [125]]);
});

t.test('a real refused connection (closed port) is retried up to maxAttempts, then a ConnectionError', async (t) => {
  const closed = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
  const time = fakeTime();
  const sdk = new BackOffice({ baseUrl: `http://127.0.0.1:${closed}/api/v1`, key: KEY, secret: SECRET, now: time.now, sleep: time.sleep, random: () => 0 });
  const err = await sdk.games.createSession('plr_1', { gameId: 'g' }).catch((e: unknown) => e);
  t.ok(err instanceof ConnectionError);
  t.match(err, { code: 'NETWORK_ERROR', status: 0, attempts: 4 });
  t.same(time.sleeps, [125, 250, 500]);
});

t.test('an abort while waiting to retry ends the call with the caller reason', async (t) => {
  const api = await startFakeApi();
  t.teardown(() => api.close());
  const controller = new AbortController();
  const sdk = new BackOffice({ baseUrl: api.baseUrl, key: KEY, secret: SECRET, random: () => 0 });
  api.script.push({ status: 503, body: envelope('SERVICE_UNAVAILABLE'), headers: { 'retry-after': '30' } });
  const call = sdk.deposits.confirm('dep_1', {}, { signal: controller.signal }).catch((e: unknown) => e);
  await new Promise<void>((resolve) => {
    const poll = () => (api.requests.length ? resolve() : setImmediate(poll));
    poll();
  });
  controller.abort(new Error('shutting down'));
  t.match(await call, { message: 'shutting down' });
  t.equal(api.requests.length, 1);
});

t.test('per-attempt timeout counts as a network error; the caller abort stops at once', async (t) => {
  const { api, time, sdk } = await setUp(t, { timeoutMs: 50 });
  let release!: () => void;
  const hang = new Promise<void>((r) => {
    release = r;
  });
  t.teardown(() => release());
  // The stand-in for a hung gateway: the first answer waits until the test ends, so only the 50 ms
  // timeout ends it. The retry is a normal answer, which a loaded machine may take longer than 50 ms
  // to give: it is sent without the timeout's signal (what is tested is the hung attempt's timeout).
  let first = true;
  const slowOnce: typeof fetch = async (input, init) => {
    if (first) {
      first = false;
      await new Promise<void>((resolve, reject) => {
        hang.then(resolve);
        init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason), { once: true });
      });
    }
    return fetch(input, { ...init, signal: null });
  };
  const timed = new BackOffice({
    baseUrl: api.baseUrl,
    key: KEY,
    secret: SECRET,
    fetch: slowOnce,
    timeoutMs: 50,
    now: time.now,
    sleep: time.sleep,
    random: () => 0,
  });
  api.fallback = { status: 200, body: { id: 'dep_1', status: 'confirmed' } };
  const res = await timed.request('confirmDeposit', { params: { depositId: 'dep_1' }, body: {} });
  t.same([res.attempts, api.requests.length], [2, 1], 'the timed-out attempt is retried with the same key');

  const controller = new AbortController();
  controller.abort(new Error('caller gave up'));
  const aborted = await sdk.players.create(PLAYER, { signal: controller.signal }).catch((e: unknown) => e);
  t.match(aborted, { message: 'caller gave up' });
  t.equal(api.requests.length, 1, 'nothing more was sent or retried');
});
