// The operator's view: games through the real gateway (signed requests, validation, envelope)
// to the real players and wallet services, and the gameUrl opened on the gateway's public port.
import t from 'tap';
import { startHarness } from './support/harness.ts';
import { deadPort, startGamesStack } from '@bo/test-support';
import { randomCpf } from '@bo/service-kit/testing';
import { gamesServices } from '@bo/wallet/testing';

t.test('games through the gateway', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const gw = h.gateways[0];
  const port = await deadPort();
  const games = await startGamesStack(
    t,
    gamesServices,
    { PUBLIC_BASE_URL: gw!.publicUrl, GAME_PROVIDER_URL: `http://127.0.0.1:${port}`, GAME_PROVIDER_TIMEOUT_MS: '500' },
    { prefix: h.prefix },
  );
  const op = await h.createOperator();
  let n = 0;
  const newPlayer = async (client: typeof op.sandboxClient) => {
    const r = await client.post(
      '/players',
      { externalId: `gw-${++n}`, name: 'Ana Souza', email: `ana${n}@example.com`, cpf: randomCpf(), birthDate: '1990-01-01' },
      { 'idempotency-key': `games-gw-player-${n}` },
    );
    t.equal(r.status, 201, `player created: ${r.text}`);
    return r.body.id as string;
  };

  t.test('catalogue', async (t) => {
    const r = await op.sandboxClient.get('/games');
    t.equal(r.status, 200);
    t.equal(r.body.data.length, 6, "the studio games, the external one and the built-in sandbox provider's");
    t.match(r.body.data.at(-1), { id: 'gm_p_sandbox_slot', provider: 'Sandbox provider (built-in)' });
    const live = await op.productionClient.get('/games');
    t.notOk(
      live.body.data.some((g: { id: string }) => g.id === 'gm_p_sandbox_slot'),
      'never offered in production',
    );
    t.match(r.body.data[0], { id: 'gm_aviator_demo', name: 'Aviator', provider: 'bo-studio', category: 'crash' });
  });

  t.test('sandbox: the rules, then a demo session whose gameUrl plays on the gateway', async (t) => {
    const c = op.sandboxClient;
    const id = await newPlayer(c);
    const open = (playerId: string, body: unknown) => c.post(`/players/${playerId}/game-sessions`, body);

    const invalid = await open(id, { gameId: 7 });
    t.equal(invalid.status, 422);
    t.match(invalid.body.error, { code: 'VALIDATION_ERROR', details: { in: 'body' } });
    const nobody = await open('plr_nobody', { gameId: 'gm_aviator_demo' });
    t.equal(nobody.status, 404);
    t.equal(nobody.body.error.code, 'PLAYER_NOT_FOUND');
    t.equal(nobody.body.error.requestId, nobody.headers.get('x-request-id'));
    t.equal((await open(id, { gameId: 'gm_nope' })).body.error.code, 'GAME_NOT_FOUND');
    const kyc = await open(id, { gameId: 'gm_aviator_demo' });
    t.equal(kyc.status, 403);
    t.equal(kyc.body.error.code, 'KYC_NOT_APPROVED');

    t.equal((await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' })).status, 200);
    const unavailable = await open(id, { gameId: 'gm_blackjack_live' });
    t.equal(unavailable.status, 502);
    t.equal(unavailable.body.error.code, 'PROVIDER_UNAVAILABLE');

    const created = await open(id, { gameId: 'gm_roulette_demo' });
    t.equal(created.status, 201);
    t.match(created.body, { id: /^gs_/, playerId: id, gameId: 'gm_roulette_demo', mode: 'demo' });
    t.ok(created.body.gameUrl.startsWith(`${gw!.publicUrl}/play/`), created.body.gameUrl);
    const again = await open(id, { gameId: 'gm_roulette_demo' });
    t.not(again.body.id, created.body.id, 'not idempotent');

    const page = await fetch(created.body.gameUrl);
    t.equal(page.status, 200);
    t.match(page.headers.get('content-type'), /^text\/html/);
    t.ok(page.headers.get('x-request-id'), 'the page has a request id like every gateway response');
    const html = await page.text();
    t.match(html, /<h1 id="game-name">European Roulette<\/h1>/);
    t.match(html, /<strong id="balance">1000\.00<\/strong>/);

    const round = await fetch(`${created.body.gameUrl}/rounds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '50.00', pick: 'even' }),
    });
    t.equal(round.status, 201);
    const r = (await round.json()) as any;
    t.equal(Number(r.balanceAfter), 950 + Number(r.payout));
  });

  t.test('sandbox: the built-in provider plays on the provider wallet, seen in the rounds and transactions', async (t) => {
    const c = op.sandboxClient;
    const id = await newPlayer(c);
    t.equal((await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' })).status, 200);
    const brandId = (await c.get('/me')).body.brand.id as string;
    await games.credit({ kind: 'operator', operatorId: 'op', brandId, environment: 'sandbox', currency: 'BRL' }, id, '10.00');
    const created = await c.post(`/players/${id}/game-sessions`, { gameId: 'gm_p_sandbox_slot' });
    t.equal(created.status, 201, JSON.stringify(created.body));
    const launch = await fetch(created.body.gameUrl, { redirect: 'manual' });
    t.equal(launch.status, 302, 'the launch page sends the player to the provider');
    const pageUrl = launch.headers.get('location')!;
    t.match(pageUrl, new RegExp(`^${gw!.publicUrl}/play/sandbox-provider/pst_`), 'with the session token, as a provider is launched');
    const page = await fetch(pageUrl);
    t.equal(page.status, 200);
    t.match(await page.text(), /<strong id="balance">10\.00<\/strong>/, 'authenticate answered the balance');
    const spin = async (body: unknown) => {
      const r = await fetch(`${pageUrl}/spin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const won = await spin({ amount: '2.00', outcome: 'win' });
    t.equal(won.status, 200);
    t.same(
      won.body.calls.map((call: any) => call.call),
      ['/authenticate', '/bets', '/wins'],
      'authenticate, bet, win',
    );
    t.equal(won.body.balance, '12.00');
    const rolled = await spin({ amount: '3.00', outcome: 'rollback' });
    t.same(
      rolled.body.calls.map((call: any) => `${call.call} ${call.answer.balance}`),
      ['/authenticate 12.00', '/bets 9.00', '/rollbacks 12.00'],
      'a bet whose answer was lost is rolled back',
    );
    const broke = await spin({ amount: '50.00', outcome: 'lose' });
    t.equal(broke.status, 422);
    t.match(broke.body.error, { code: 'INSUFFICIENT_FUNDS', details: { balance: '12.00' } }, 'a refusal in the envelope');
    t.equal((await spin({ amount: 'lots' })).body.error.code, 'VALIDATION_ERROR');
    t.equal((await fetch(`${gw!.publicUrl}/play/sandbox-provider/pst_forged`)).status, 401, 'a token of another shape');

    const rounds = await c.get(`/players/${id}/rounds`);
    t.equal(rounds.status, 200);
    t.same(
      rounds.body.data.map((r: any) => [r.providerId, r.gameCode, r.status, r.staked, r.won]),
      [
        ['prv_sandbox', 'sandbox-slot', 'voided', '0.00', '0.00'],
        ['prv_sandbox', 'sandbox-slot', 'settled', '2.00', '4.00'],
      ],
      'the rounds an operator reads, newest first',
    );
    const txs = await c.get(`/players/${id}/transactions`);
    t.same(
      txs.body.data.slice(0, 4).map((x: any) => `${x.type} ${x.amount}`),
      ['ROLLBACK 3.00', 'BET -3.00', 'WIN 4.00', 'BET -2.00'],
      'in the ledger, newest first',
    );
  });

  t.test('production: a real session plays real money, seen in the wallet and the transactions', async (t) => {
    const c = op.productionClient;
    const id = await newPlayer(c);
    t.equal((await h.admin('POST', `/admin/players/${id}/kyc/decision`, { status: 'aprovado' })).status, 200);
    const created = await c.post(`/players/${id}/game-sessions`, { gameId: 'gm_slots_fruit' });
    t.equal(created.status, 201);
    t.equal(created.body.mode, 'real');
    const round = (clientRoundId: string) =>
      fetch(`${created.body.gameUrl}/rounds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: '2.00', clientRoundId }),
      });
    const broke = await round('gw-real-click-1');
    t.equal(broke.status, 422, 'no money yet');
    t.match(await broke.json(), { error: { code: 'INSUFFICIENT_FUNDS', details: { balance: '0.00' } } });

    const brandId = (await c.get('/me')).body.brand.id as string;
    await games.credit({ kind: 'operator', operatorId: 'op', brandId, environment: 'production', currency: 'BRL' }, id, '10.00');
    const page = await fetch(created.body.gameUrl);
    t.equal(page.status, 200);
    const html = await page.text();
    t.match(html, /<strong id="balance">10\.00<\/strong>/, 'the page shows the real balance');
    t.notMatch(html, /not available/);

    const played = await round('gw-real-click-2');
    t.equal(played.status, 201);
    const r = (await played.json()) as any;
    const replay = await round('gw-real-click-2');
    t.equal(((await replay.json()) as any).id, r.id, 'a retried click is the same round');
    const wallet = await c.get(`/players/${id}/wallet`);
    t.equal(wallet.body.available, r.balanceAfter);
    t.equal(Math.round(Number(wallet.body.available) * 100), 1000 - 200 + Math.round(Number(r.payout) * 100));
    const txs = await c.get(`/players/${id}/transactions`);
    t.equal(txs.status, 200);
    const types = txs.body.data.map((e: any) => `${e.type} ${e.amount} ${e.referenceId === r.id ? 'round' : 'other'}`);
    t.same(types, [...(r.win ? [`WIN ${r.payout} round`] : []), 'BET -2.00 round', 'DEPOSIT 10.00 other']);
    const verify = await h.admin('GET', '/admin/ledger/verify');
    t.equal(verify.status, 200);
    t.equal(verify.body.ok, true, 'the ledger verifies');
  });
});
