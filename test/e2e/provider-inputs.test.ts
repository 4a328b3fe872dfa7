// The provider wallet API exactly as docs/providers.md states it (issue #56 items 3 and 6), through
// the real gateway and services, as a provider's engineer reads the guide: amounts within their
// ranges and nothing beyond (422 VALIDATION_ERROR naming /amount, nothing moved); a bet's
// transaction id bound to its player (another player's token under it, of the same operator or
// another, is 409 TRANSACTION_CONFLICT naming playerId and carries nothing of the first player); a
// second rollback of a bet that never arrived answered as done; bodies only as `application/json`;
// the signature's hex compared case-insensitively, as on /api/v1; codes of the guide's table that
// no operation names (404 NOT_FOUND, 431 HEADERS_TOO_LARGE) answered as the table says; and a
// transaction id shared by the sandbox and production keys (409 differs environment), as the guide
// documents it. The wallets are read on the operator API after each.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { PROVIDER_API_PREFIX, signRequest } from '@bo/contracts';
import { AdminSide, Book, OperatorSide, PlayerSession, ProviderClient, startLaunchServer, type SimProvider } from '@bo/provider-sim';
import { ADMIN_TOKEN, startStack } from './support/stack.ts';

const NO_RETRY = { deadlineMs: 0 };
const code = (r: { status: number; body: any }) => `${r.status} ${r.body?.error?.code ?? ''}`.trim();

t.test('provider inputs as docs/providers.md states them', async (t) => {
  const stack = await startStack({ RPC_TIMEOUT_MS: '15000' });
  const launch = await startLaunchServer();
  t.teardown(async () => {
    await launch.close();
    await stack.close();
  });
  const opA = await stack.createOperator('Provider Inputs A');
  const opB = await stack.createOperator('Provider Inputs B');
  const admin = new AdminSide({ url: stack.adminUrl, token: ADMIN_TOKEN, retry: NO_RETRY });
  const casino: SimProvider = await admin.registerProvider({
    name: `Inputs casino ${randomBytes(3).toString('hex')}`,
    kind: 'casino',
    launchUrl: launch.url,
    operatorId: opA.operator.id,
    environment: 'sandbox',
  });
  await admin.call('PUT', `/admin/providers/${casino.providerId}/operators/${opB.operator.id}`, { enabled: true }, 200);
  const client = new ProviderClient({ baseUrl: stack.publicUrl, key: casino.key, secret: casino.secret, timeoutMs: 15_000 });

  /** A funded sandbox player of an operator with a session of the casino's first game. */
  const session = async (op: typeof opA, funds: string) => {
    const book = new Book();
    const operator = new OperatorSide({ baseUrl: stack.publicUrl, ...op.sandbox, retry: NO_RETRY });
    const playerId = await operator.fundedPlayer('inputs', funds);
    const { sessionId } = await operator.openSession(playerId, casino.games[0]!.id);
    const s = new PlayerSession({ book, provider: casino, game: casino.games[0]!, launch: launch.launches.get(sessionId)!, client, retry: NO_RETRY });
    const wallet = async () => (await op.sandboxClient.get(`/players/${playerId}/wallet`)).body.available as string;
    return { s, playerId, wallet };
  };
  /** A signed call as the provider's own code would send it: any path, body bytes, content type and signature case. */
  const raw = async (path: string, body: string, over: { type?: string; upperHex?: boolean; headers?: Record<string, string> } = {}) => {
    const full = `${PROVIDER_API_PREFIX}${path}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = signRequest(casino.secret, 'POST', full, ts, body);
    const res = await fetch(`${stack.publicUrl}${full}`, {
      method: 'POST',
      headers: {
        'content-type': over.type ?? 'application/json',
        'x-provider-key': casino.key,
        'x-timestamp': ts,
        'x-signature': over.upperHex ? sig.toUpperCase() : sig,
        ...over.headers,
      },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  t.test('amounts: each within its range, nothing beyond (422 VALIDATION_ERROR at /amount)', async (t) => {
    const { s, playerId, wallet } = await session(opA, '100.00');
    const amountRefusal = (r: { status: number; body: any }) =>
      `${code(r)} ${r.body?.error?.details?.in} ${(r.body?.error?.details?.issues ?? []).map((i: any) => i.path).join(',')}`;
    const refused = '422 VALIDATION_ERROR body /amount';
    for (const amount of ['0', '0.00', '1000000.01', '99999999.00']) {
      t.equal(amountRefusal(await client.call('bets', s.betBody(amount))), refused, `a bet of ${amount}`);
    }
    const open = s.betBody('10.00');
    t.equal(code(await client.call('bets', open)), '200', 'a bet within the range');
    for (const amount of ['10000000000000.00', '-1.00']) {
      t.equal(amountRefusal(await client.call('wins', s.winBody(open.roundId, amount, { roundClosed: false }))), refused, `a win of ${amount}`);
    }
    t.equal(code(await client.call('wins', s.winBody(open.roundId, '0.00'))), '200', 'a win of 0.00 settles the round');
    const correction = (amount: string) => ({
      transactionId: `cor-${randomBytes(6).toString('hex')}`,
      playerId,
      roundId: open.roundId,
      amount,
      currency: 'BRL',
      reason: 'x',
    });
    for (const amount of ['-0', '0.00', '-10000000000000.00'])
      t.equal(amountRefusal(await client.call('corrections', correction(amount))), refused, `a correction of ${amount}`);
    t.equal(await wallet(), '90.00', 'only the bet within the range moved money');
  });

  t.test("a bet id is bound to its player: another player's token is a conflict naming playerId, with nothing of the first player", async (t) => {
    const a = await session(opA, '50.00');
    const b = await session(opA, '30.00');
    const c = await session(opB, '20.00');
    const first = a.s.betBody('4.00');
    const taken = await client.call('bets', first);
    t.match(taken.body, { playerId: a.playerId, balance: '46.00', replayed: false });
    for (const [who, other] of [
      ['a player of the same operator', b],
      ['a player of another operator', c],
    ] as const) {
      const r = await client.call('bets', { ...first, token: other.s.launch.token });
      t.equal(code(r), '409 TRANSACTION_CONFLICT', who);
      t.same(r.body?.error?.details, { transactionId: first.transactionId, differs: ['playerId'] }, `${who}: differs names playerId`);
      t.notOk(JSON.stringify(r.body).includes(a.playerId) || JSON.stringify(r.body).includes('46.00'), `${who}: nothing of the first player`);
    }
    t.same([await a.wallet(), await b.wallet(), await c.wallet()], ['46.00', '30.00', '20.00'], 'only the first bet moved money');
  });

  t.test('a second rollback of a bet that never arrived: 200, moved 0.00', async (t) => {
    const { s, playerId, wallet } = await session(opA, '20.00');
    const never = s.betBody('5.00');
    const rollback = () => ({ transactionId: `rb-${randomBytes(6).toString('hex')}`, playerId, betTransactionId: never.transactionId, roundId: never.roundId });
    t.match((await client.call('rollbacks', rollback())).body, { moved: '0.00' }, 'the first');
    const second = await client.call('rollbacks', rollback());
    t.equal(code(second), '200', 'the second');
    t.match(second.body, { kind: 'rollback', moved: '0.00', balance: '20.00', replayed: false });
    t.equal(code(await client.call('bets', never)), '409 BET_ROLLED_BACK', 'the bet arriving later is refused');
    t.equal(await wallet(), '20.00');
  });

  t.test('bodies only as application/json; the signature hex compared case-insensitively', async (t) => {
    const { s, wallet } = await session(opA, '10.00');
    const bet = JSON.stringify(s.betBody('1.00'));
    for (const type of ['application/vnd.api+json', 'application/problem+json', 'text/plain']) {
      t.equal(code(await raw('/bets', bet, { type })), '415 UNSUPPORTED_MEDIA_TYPE', `${type}: refused`);
    }
    t.equal(await wallet(), '10.00', 'nothing moved');
    t.equal(code(await raw('/bets', bet, { type: 'application/json; charset=utf-8' })), '200', 'application/json with a charset: taken');
    const balance = JSON.stringify({ token: s.launch.token });
    t.equal(code(await raw('/balance', balance, { upperHex: true })), '200', 'an upper-case signature is the same signature');
    t.equal(code(await raw('/balance', balance, { type: 'APPLICATION/JSON' })), '200', 'the media type in any case');
    t.equal(await wallet(), '9.00');
  });

  t.test("the table's codes that no operation names: NOT_FOUND and HEADERS_TOO_LARGE", async (t) => {
    t.equal(code(await raw('/payouts', '{}')), '404 NOT_FOUND', 'a signed call to no operation');
    t.equal(code(await raw('/balance', '{}', { headers: { 'x-padding': 'x'.repeat(20_000) } })), '431 HEADERS_TOO_LARGE');
  });

  t.test("transaction ids are shared by the provider's sandbox and production keys, as documented", async (t) => {
    const { s, wallet } = await session(opA, '10.00');
    const open = s.betBody('2.00');
    await client.call('bets', open);
    const win = s.winBody(open.roundId, '3.00');
    t.equal(code(await client.call('wins', win)), '200');
    const issued = await admin.call('POST', `/admin/providers/${casino.providerId}/credentials`, { environment: 'production' }, 201);
    const live = new ProviderClient({ baseUrl: stack.publicUrl, key: issued.key, secret: issued.secret, timeoutMs: 15_000 });
    const r = await live.call('wins', win);
    t.equal(code(r), '409 TRANSACTION_CONFLICT', 'the same win id with the production key');
    t.same(r.body?.error?.details?.differs, ['environment']);
    t.equal(await wallet(), '11.00', 'credited once');
  });
});
