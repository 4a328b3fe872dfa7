// Postgres down, through the real processes: every surface answers 503 SERVICE_UNAVAILABLE with
// Retry-After (never 500, never the database's words) while the services' database is away and
// while the gateway's is away too; afterwards the same requests, with the same keys, succeed and
// the ledger verifies. The database is taken away by cutting a TCP proxy the processes reach it
// through: their connections close and new ones are refused, as while Postgres restarts.
import t, { type Test } from 'tap';
import { startStack, ADMIN_TOKEN, playerInput } from './support/stack.ts';
import { startTcpProxy } from './support/tcp-proxy.ts';

const key = (label: string) => ({ 'idempotency-key': `outage-${label}-${Math.random().toString(36).slice(2, 12)}` });

t.test('dependency outage: 503 with Retry-After everywhere, then the same requests succeed', async (t) => {
  const servicesDb = await startTcpProxy();
  const gatewayDb = await startTcpProxy();
  t.teardown(() => Promise.all([servicesDb.close(), gatewayDb.close()]));
  // A request that meets the outage and hangs is turned into a 503 by the gateway's deadline: 8 s, not the
  // stack's 30 s ceiling (a quarter of this file's time was spent waiting it out), still far above what
  // an answer after the outage takes on a busy machine.
  const stack = await startStack({ RPC_TIMEOUT_MS: '8000' }, undefined, { databaseUrlOf: (c, url) => (c === 'gateway' ? gatewayDb : servicesDb).via(url) });
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Outage Bets');
  const live = op.productionClient;

  // Before the outage: a funded production player, a deposit to confirm, an approved withdrawal to
  // pay, a real-money game session.
  const player = await live.post('/players', playerInput('outage-1'), key('player'));
  t.equal(player.status, 201);
  const id = player.body.id as string;
  t.equal((await stack.admin('POST', `/admin/players/${id}/kyc/decision`, { status: 'aprovado' })).status, 200);
  const funded = await live.post(`/players/${id}/deposits`, { amount: '50.00', currency: 'BRL', method: 'pix', externalReference: 'outage-funds' }, key('d1'));
  t.equal((await live.post(`/deposits/${funded.body.id}/confirm`, {}, key('c1'))).body.status, 'confirmed');
  const pending = await live.post(
    `/players/${id}/deposits`,
    { amount: '20.00', currency: 'BRL', method: 'pix', externalReference: 'outage-pending' },
    key('d2'),
  );
  t.equal(pending.body.status, 'pending');
  const withdrawal = await live.post(`/players/${id}/withdrawals`, { amount: '10.00', currency: 'BRL', method: 'pix', destination: 'ana@pix' }, key('w'));
  t.equal(withdrawal.body.status, 'under_review');
  t.equal((await stack.admin('POST', `/admin/withdrawals/${withdrawal.body.id}/decision`, { decision: 'approve' }, 'ana')).body.status, 'approved');
  const session = await live.post(`/players/${id}/game-sessions`, { gameId: 'gm_aviator_demo' });
  t.equal(session.body.mode, 'real');
  const gameUrl = session.body.gameUrl as string;

  // The requests of every surface, each with the key it keeps across the outage.
  const confirmKey = key('c2');
  const payKey = key('pay');
  const confirm = () => live.post(`/deposits/${pending.body.id}/confirm`, {}, confirmKey);
  const pay = () =>
    fetch(`${stack.adminUrl}/admin/withdrawals/${withdrawal.body.id}/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-admin-actor': 'bruno', 'content-type': 'application/json', ...payKey },
      body: JSON.stringify({ decision: 'pay' }),
    });
  const verify = () => fetch(`${stack.adminUrl}/admin/ledger/verify`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const page = () => fetch(gameUrl);
  const round = () =>
    fetch(`${gameUrl}/rounds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '5.00', target: '2.00', clientRoundId: 'outage-round-1' }),
    });
  const signIn = () =>
    fetch(`${stack.adminUrl}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@team.example', password: 'not-a-password-1' }),
    });

  /** A 503 SERVICE_UNAVAILABLE in the envelope, with Retry-After and none of the database's words. */
  const unavailableJson = async (t: Test, what: string, res: { status: number; headers: Headers; text: string }) => {
    t.equal(res.status, 503, `${what}: 503`, { text: res.text });
    t.equal(res.headers.get('retry-after'), '1', `${what}: Retry-After`);
    t.match(JSON.parse(res.text), { error: { code: 'SERVICE_UNAVAILABLE', requestId: /^req_/ } }, `${what}: the envelope`);
    t.notMatch(res.text, /ECONNREFUSED|terminated|57P0|connect/i, `${what}: no database text`);
  };
  const fromFetch = async (res: Response) => ({ status: res.status, headers: res.headers, text: await res.text() });
  const everySurface = async (t: Test, extra: (t: Test) => Promise<void> = async () => undefined) => {
    await unavailableJson(t, 'confirm (public API, kept by payments)', await confirm());
    await unavailableJson(t, 'pay (admin API)', await fromFetch(await pay()));
    await unavailableJson(t, 'GET /admin/ledger/verify', await fromFetch(await verify()));
    const html = await page();
    const body = await html.text();
    t.equal(html.status, 503, 'the play page: 503', { text: body.slice(0, 300) });
    t.equal(html.headers.get('retry-after'), '1', 'the play page: Retry-After');
    t.match(html.headers.get('content-type'), /text\/html/, 'the play page: a page');
    t.match(body, /temporarily unavailable/, 'the play page: says so to a person');
    await unavailableJson(t, 'POST /play/<token>/rounds', await fromFetch(await round()));
    await extra(t);
  };

  t.test("the services' database is away", async (t) => {
    await servicesDb.cut();
    await everySurface(t);
  });

  t.test("the gateway's database is away too", async (t) => {
    await gatewayDb.cut();
    await everySurface(t, async (t) => unavailableJson(t, 'console sign-in', await fromFetch(await signIn())));
  });

  t.test('the database is back: the same requests, with the same keys, succeed', async (t) => {
    await Promise.all([servicesDb.restore(), gatewayDb.restore()]);
    const confirmed = await confirm();
    t.equal(confirmed.status, 200, 'the key the 503 released confirms', { text: confirmed.text });
    t.equal(confirmed.body.status, 'confirmed');
    const paid = await pay();
    t.equal(paid.status, 200, 'the key the 503 released pays');
    t.equal(((await paid.json()) as { status: string }).status, 'paid');
    t.equal((await page()).status, 200, 'the play page opens');
    const played = await round();
    t.equal(played.status, 201, 'the round plays');
    const r = (await played.json()) as { balanceAfter: string; payout: string };
    t.equal((await live.get(`/players/${id}/wallet`)).body.available, r.balanceAfter, 'the balance is the round’s');
    const expected = (50 + 20 - 10 - 5 + Number(r.payout)).toFixed(2);
    t.equal(r.balanceAfter, expected, 'deposits, the payout and the round, each once');
    const verified = await verify();
    t.equal(verified.status, 200);
    t.match(await verified.json(), { ok: true, mismatches: [] }, 'the ledger verifies');
  });
});
