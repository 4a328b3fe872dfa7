// A JSON body that names a member twice (issue #56, item 6) is refused on the operator, admin and
// provider APIs with 422 VALIDATION_ERROR naming the member (`details.in` body): JSON.parse keeps the
// last value, so a body whose first `amount` says 1.00 moved 9.00 before. Through the real gateway
// and services; the wallet is read after each refusal: nothing moved.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { PROVIDER_API_PREFIX, signRequest } from '@bo/contracts';
import { AdminSide, Book, OperatorSide, PlayerSession, ProviderClient, startLaunchServer } from '@bo/provider-sim';
import { ADMIN_TOKEN, playerInput, startStack, uniq } from './support/stack.ts';

const NO_RETRY = { deadlineMs: 0 };
const MESSAGE = 'Named more than once in its object: each member must appear once.';
/** The body's JSON with `member` named once more before the others, with `first`: the text, and the value JSON.parse would keep. */
const twice = (body: Record<string, unknown>, member: string, first: unknown) =>
  `{${JSON.stringify(member)}:${JSON.stringify(first)},${JSON.stringify(body).slice(1)}`;
const refusal = (r: { status: number; body: any }) => ({ status: r.status, code: r.body?.error?.code, details: r.body?.error?.details });
const refused = (path: string) => ({ status: 422, code: 'VALIDATION_ERROR', details: { in: 'body', issues: [{ path, message: MESSAGE }] } });

t.test('a member named twice: 422 naming it on every API, nothing done', async (t) => {
  const stack = await startStack({ RPC_TIMEOUT_MS: '15000' });
  const launch = await startLaunchServer();
  t.teardown(async () => {
    await launch.close();
    await stack.close();
  });
  const op = await stack.createOperator('Duplicate Members');
  const c = op.sandboxClient;

  t.test('operator API', async (t) => {
    const input = playerInput(uniq('dup'));
    const created = await c.post('/players', Buffer.from(twice(input, 'externalId', 'someone-else')), { 'idempotency-key': uniq('dup-key') });
    t.same(refusal(created), refused('/externalId'), 'a player');
    const player = await c.post('/players', input, { 'idempotency-key': uniq('dup-key') });
    t.equal(player.status, 201, 'the same body once each: created');
    const deposit = await c.post(
      `/players/${player.body.id}/deposits`,
      { amount: '9.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') },
      { 'idempotency-key': uniq('dup-key') },
    );
    t.equal(deposit.status, 201);
    const payer = '{"payer":{"cpf":"52998224725","cpf":"11144477735"}}';
    const confirm = await c.post(`/deposits/${deposit.body.id}/confirm`, Buffer.from(payer), { 'idempotency-key': uniq('dup-key') });
    t.same(refusal(confirm), refused('/payer/cpf'), 'nested: a deposit confirmed');
    t.equal((await c.get(`/players/${player.body.id}/wallet`)).body.available, '0.00', 'nothing credited');
  });

  t.test('admin API', async (t) => {
    const res = await fetch(`${stack.adminUrl}/admin/operators/${op.operator.id}/rate-limit`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: twice({ perMinute: 5 }, 'perMinute', 600),
    });
    t.same(refusal({ status: res.status, body: await res.json() }), refused('/perMinute'));
  });

  t.test('provider API', async (t) => {
    const admin = new AdminSide({ url: stack.adminUrl, token: ADMIN_TOKEN, retry: NO_RETRY });
    const casino = await admin.registerProvider({
      name: `Duplicates ${randomBytes(3).toString('hex')}`,
      kind: 'casino',
      launchUrl: launch.url,
      operatorId: op.operator.id,
      environment: 'sandbox',
    });
    const client = new ProviderClient({ baseUrl: stack.publicUrl, key: casino.key, secret: casino.secret, timeoutMs: 15_000 });
    const operator = new OperatorSide({ baseUrl: stack.publicUrl, ...op.sandbox, retry: NO_RETRY });
    const playerId = await operator.fundedPlayer('dup', '50.00');
    const { sessionId } = await operator.openSession(playerId, casino.games[0]!.id);
    const s = new PlayerSession({
      book: new Book(),
      provider: casino,
      game: casino.games[0]!,
      launch: launch.launches.get(sessionId)!,
      client,
      retry: NO_RETRY,
    });
    const body = twice(s.betBody('9.00'), 'amount', '1.00');
    const full = `${PROVIDER_API_PREFIX}/bets`;
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${stack.publicUrl}${full}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-provider-key': casino.key,
        'x-timestamp': ts,
        'x-signature': signRequest(casino.secret, 'POST', full, ts, body),
      },
      body,
    });
    t.same(refusal({ status: res.status, body: await res.json() }), refused('/amount'), 'a bet whose amount is named twice');
    t.equal((await c.get(`/players/${playerId}/wallet`)).body.available, '50.00', 'nothing debited');
  });
});
