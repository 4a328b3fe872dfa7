// The games module over NATS, against real Postgres and NATS, with the real players service:
// catalogue, every session rule in the contract's order, providers, tokens and demo rounds.
import t from 'tap';
import { createLaunchTokenSigner } from '../src/games/domain/launch-token.ts';
import { LAUNCH_SECRET, deadPort, gatewayScope, scopes, startFakeProvider, startGamesStack, tokenOf } from '@bo/test-support';
import { gamesServices } from './support/games-services.ts';

const future = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const internal = { kind: 'internal', service: 'payments' } as const;

t.test('games over NATS', async (t) => {
  const port = await deadPort();
  const h = await startGamesStack(t, gamesServices, {
    GAME_PROVIDER_URL: `http://127.0.0.1:${port}`,
    GAME_PROVIDER_TIMEOUT_MS: '500',
    GAME_SESSION_TTL_SECONDS: '1800',
  });
  const approved = await h.createPlayer(scopes.sandbox, { kyc: 'aprovado' });
  const create = (scope: typeof scopes.sandbox, playerId: string, body: unknown) => h.call('games.sessions.create', scope, { params: { playerId }, body });
  const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);

  t.test('games.list: the catalogue, with only the contract fields', async (t) => {
    const r = await h.call('games.list', scopes.sandbox);
    t.equal(r.ok && r.status, 200);
    const games = (r as any).body.data;
    t.same(
      games.map((g: any) => g.id),
      ['gm_aviator_demo', 'gm_dice_classic', 'gm_roulette_demo', 'gm_slots_fruit', 'gm_blackjack_live', 'gm_p_sandbox_slot'],
      'the built-in sandbox provider is offered in the sandbox',
    );
    for (const g of games) t.same(Object.keys(g).sort(), ['category', 'id', 'name', 'provider']);
    t.match(games[0], { id: 'gm_aviator_demo', name: 'Aviator', provider: 'bo-studio', category: 'crash' });
    t.match(games[4], { provider: 'northwind-live' }, 'one game comes from an external provider');

    // Enabled for the operator by hand, it is still not offered in production.
    await h.sql(`insert into wallet.provider_operators (provider_id, operator_id) values ('prv_sandbox', ?) on conflict do nothing`, [
      scopes.production.operatorId,
    ]);
    const live = (await h.call('games.list', scopes.production)) as any;
    t.notOk(
      live.body.data.some((g: any) => g.id === 'gm_p_sandbox_slot'),
      'the built-in sandbox provider is never offered in production',
    );
    const approvedLive = await h.createPlayer(scopes.production, { kyc: 'aprovado' });
    t.equal(code(await create(scopes.production, approvedLive, { gameId: 'gm_p_sandbox_slot' })), 'GAME_NOT_FOUND', 'nor launched there');
    await h.sql(`delete from wallet.provider_operators where provider_id = 'prv_sandbox'`);

    await h.sql(`update wallet.games set enabled = false where id = 'gm_dice_classic'`);
    const after = await h.call('games.list', scopes.production);
    t.notOk(
      (after as any).body.data.some((g: any) => g.id === 'gm_dice_classic'),
      'disabled games are not listed',
    );
    t.equal(code(await create(scopes.sandbox, approved, { gameId: 'gm_dice_classic' })), 'GAME_NOT_FOUND', 'nor playable');
    await h.sql(`update wallet.games set enabled = true where id = 'gm_dice_classic'`);
  });

  t.test('session rules in order: validation, player, game, KYC, RG, status', async (t) => {
    const pending = await h.createPlayer(scopes.sandbox, { kyc: 'em_analise' });
    // Our team's self-exclusion date (autoexcluido only through a self-exclusion, never by hand: issue #56).
    const selfExcluded = await h.createPlayer(scopes.sandbox, { kyc: 'aprovado', selfExcludedUntil: future() });
    const suspended = await h.createPlayer(scopes.sandbox, { kyc: 'aprovado', status: 'suspenso' });
    const closed = await h.createPlayer(scopes.sandbox, { kyc: 'aprovado', status: 'encerrado' });
    const pendingAndSuspended = await h.createPlayer(scopes.sandbox, { kyc: 'reprovado', status: 'suspenso' });

    const invalid = await create(scopes.sandbox, 'plr_nobody', {});
    t.equal(code(invalid), 'VALIDATION_ERROR', 'validation comes before the unknown player');
    t.match((invalid as any).error.details, { in: 'body', issues: [{ path: '/gameId' }] });
    t.equal(code(await create(scopes.sandbox, 'plr_nobody', { gameId: 'gm_nope' })), 'PLAYER_NOT_FOUND', 'unknown player before unknown game');
    t.equal(code(await create(scopes.otherBrand, approved, { gameId: 'gm_aviator_demo' })), 'PLAYER_NOT_FOUND', 'a player of another brand is unknown');
    t.equal(code(await create(scopes.production, approved, { gameId: 'gm_aviator_demo' })), 'PLAYER_NOT_FOUND', 'and so is one of the other environment');
    t.equal(code(await create(scopes.sandbox, pending, { gameId: 'gm_nope' })), 'GAME_NOT_FOUND', 'unknown game before KYC');
    t.equal(code(await create(scopes.sandbox, pending, { gameId: 'gm_aviator_demo' })), 'KYC_NOT_APPROVED');
    t.equal(code(await create(scopes.sandbox, pendingAndSuspended, { gameId: 'gm_aviator_demo' })), 'KYC_NOT_APPROVED', 'KYC before status');
    t.equal(code(await create(scopes.sandbox, selfExcluded, { gameId: 'gm_aviator_demo' })), 'RG_BLOCKED', 'autoexcluido is self-exclusion');
    t.equal(code(await create(scopes.sandbox, suspended, { gameId: 'gm_aviator_demo' })), 'PLAYER_NOT_ACTIVE');
    t.equal(code(await create(scopes.sandbox, closed, { gameId: 'gm_aviator_demo' })), 'PLAYER_NOT_ACTIVE');
    const [{ n }] = await h.sql(`select count(*)::int as n from wallet.game_sessions`);
    t.equal(n, 0, 'no refused request left a session');
    t.equal(
      code(await h.call('games.sessions.create', gatewayScope, { params: { playerId: approved }, body: { gameId: 'gm_aviator_demo' } })),
      'UNAUTHORIZED',
      'only operators open sessions',
    );
  });

  t.test('a sandbox session is a demo session; production is real; each call opens a new one', async (t) => {
    const before = Date.now();
    const a = await h.openSession(t, scopes.sandbox, approved, 'gm_aviator_demo');
    const b = await h.openSession(t, scopes.sandbox, approved, 'gm_aviator_demo');
    t.match(a, { id: /^gs_[0-9a-f]{32}$/, playerId: approved, gameId: 'gm_aviator_demo', mode: 'demo' });
    t.same(Object.keys(a).sort(), ['createdAt', 'expiresAt', 'gameId', 'gameUrl', 'id', 'mode', 'playerId']);
    t.not(a.id, b.id, 'not idempotent: a second call is a second session');
    t.match(a.gameUrl, /^http:\/\/games\.test:3000\/play\/v1\.gs_[0-9a-f]{32}\.[0-9]+\.[A-Za-z0-9_-]{43}$/);
    t.equal(tokenOf(a.gameUrl).split('.')[1], a.id, 'the token carries the session id');
    const ttl = Date.parse(a.expiresAt) - Date.parse(a.createdAt);
    t.ok(ttl > 1799_000 && ttl <= 1800_000, `expires 30 minutes after creation (${ttl} ms)`);
    t.ok(Date.parse(a.createdAt) >= before - 1000);
    t.match(a.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [row] = await h.sql(`select environment, mode, demo_balance, brand_id, operator_id, currency from wallet.game_sessions where id = ?`, [a.id]);
    t.same(row, { environment: 'sandbox', mode: 'demo', demo_balance: '1000.00', brand_id: 'brd_A_sandbox', operator_id: 'op_A', currency: 'BRL' });

    const live = await h.createPlayer(scopes.production, { kyc: 'aprovado' });
    const real = await h.openSession(t, scopes.production, live, 'gm_roulette_demo');
    t.equal(real.mode, 'real');
    const [liveRow] = await h.sql(`select mode, demo_balance from wallet.game_sessions where id = ?`, [real.id]);
    t.same(liveRow, { mode: 'real', demo_balance: null }, 'a real session has no fictitious balance');
  });

  t.test('external provider: unreachable, slow or failing is 502 PROVIDER_UNAVAILABLE and stores nothing', async (t) => {
    const refused = await create(scopes.sandbox, approved, { gameId: 'gm_blackjack_live' });
    t.equal(code(refused), 'PROVIDER_UNAVAILABLE', `nobody listens on port ${port}`);
    t.match((refused as any).error, { message: /could not be reached/, details: { provider: 'northwind-live' } });

    const slow = await startFakeProvider(t, 'hang');
    await h.sql(`update wallet.games set launch_url = ? where id = 'gm_blackjack_live'`, [slow.url]);
    const timedOut = await create(scopes.sandbox, approved, { gameId: 'gm_blackjack_live' });
    t.equal(code(timedOut), 'PROVIDER_UNAVAILABLE');
    t.match((timedOut as any).error.message, /did not answer in time/);
    t.equal(slow.requests.length, 1, 'the provider was asked');

    const failing = await startFakeProvider(t, 'error');
    await h.sql(`update wallet.games set launch_url = ? where id = 'gm_blackjack_live'`, [failing.url]);
    t.equal(code(await create(scopes.sandbox, approved, { gameId: 'gm_blackjack_live' })), 'PROVIDER_UNAVAILABLE');

    const [{ n }] = await h.sql(`select count(*)::int as n from wallet.game_sessions where game_id = 'gm_blackjack_live'`);
    t.equal(n, 0);
  });

  t.test('external provider that answers: the session launches through it', async (t) => {
    const provider = await startFakeProvider(t);
    await h.sql(`update wallet.games set launch_url = ? where id = 'gm_blackjack_live'`, [provider.url]);
    const s = await h.openSession(t, scopes.sandbox, approved, 'gm_blackjack_live');
    t.equal(provider.requests.length, 1);
    t.match(provider.requests[0], {
      path: '/launch',
      body: { sessionId: s.id, gameId: 'gm_blackjack_live', playerId: approved, mode: 'demo', currency: 'BRL', expiresAt: s.expiresAt },
    });
    t.match(s.gameUrl, /^http:\/\/games\.test:3000\/play\//, 'gameUrl stays ours: the token guards the provider page too');
    const view = await h.call('games.play.session', gatewayScope, { params: { token: tokenOf(s.gameUrl) } });
    t.match((view as any).body, {
      launch: { type: 'redirect', url: `https://provider.example/tables/${s.id}?lang=pt` },
      playable: false,
      game: { kind: 'external' },
    });
    const round = await h.call('games.play.round', gatewayScope, { params: { token: tokenOf(s.gameUrl) }, body: { amount: '1.00' } });
    t.equal(code(round), 'GAME_NOT_FOUND', 'rounds of an external game are played at the provider');
  });

  t.test('launch tokens: genuine, forged, foreign, expired', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, approved, 'gm_slots_fruit');
    const token = tokenOf(s.gameUrl);
    const view = (tok: string, scope = gatewayScope) => h.call('games.play.session', scope, { params: { token: tok } });

    const ok = await view(token);
    t.same((ok as any).body, {
      sessionId: s.id,
      mode: 'demo',
      currency: 'BRL',
      balance: '1000.00',
      expiresAt: s.expiresAt,
      playable: true,
      notice: null,
      game: { id: 'gm_slots_fruit', name: 'Fruit Slots', provider: 'bo-studio', category: 'slots', kind: 'slots' },
      launch: { type: 'page' },
      limits: { minBet: '0.10', maxBet: '1000.00' },
    });
    t.equal(code(await view(token, scopes.sandbox)), 'UNAUTHORIZED', 'only the gateway asks');

    const [v, id, exp, sig] = token.split('.');
    const flipped = sig![0] === 'A' ? `B${sig!.slice(1)}` : `A${sig!.slice(1)}`;
    t.equal(code(await view(`${v}.${id}.${exp}.${flipped}`)), 'LAUNCH_TOKEN_INVALID', 'altered signature');
    t.equal(code(await view(`${v}.${id}.${Number(exp) + 3600}.${sig}`)), 'LAUNCH_TOKEN_INVALID', 'extended expiry without re-signing');
    t.equal(code(await view('garbage')), 'LAUNCH_TOKEN_INVALID');
    t.equal(code(await view('')), 'LAUNCH_TOKEN_INVALID');
    const foreign = createLaunchTokenSigner('another-secret-of-enough-length').sign({ sessionId: s.id, expiresAt: new Date(s.expiresAt) });
    t.equal(code(await view(foreign)), 'LAUNCH_TOKEN_INVALID', 'signed with another key');

    const signer = createLaunchTokenSigner(LAUNCH_SECRET);
    const expired = signer.sign({ sessionId: s.id, expiresAt: new Date(Date.now() - 1000) });
    t.equal(code(await view(expired)), 'LAUNCH_TOKEN_EXPIRED', 'a genuine token past its expiry');
    t.equal(code(await h.call('games.play.round', gatewayScope, { params: { token: expired }, body: { amount: '1.00' } })), 'LAUNCH_TOKEN_EXPIRED');
    const unknown = signer.sign({ sessionId: 'gs_00000000000000000000000000000000', expiresAt: new Date(Date.now() + 60_000) });
    t.equal(code(await view(unknown)), 'LAUNCH_TOKEN_INVALID', 'a genuine token of no session');

    // The row is authoritative: ending the session early closes the page even for a fresh token.
    await h.sql(`update wallet.game_sessions set expires_at = created_at + interval '1 millisecond' where id = ?`, [s.id]);
    t.equal(code(await view(token)), 'LAUNCH_TOKEN_EXPIRED');
  });

  t.test('games.play.owner: the operator of a genuine token, for the gateway to check', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, approved, 'gm_dice_classic');
    const token = tokenOf(s.gameUrl);
    const owner = (tok: string, scope = gatewayScope) => h.call('games.play.owner', scope, { params: { token: tok } });
    t.same((await owner(token)) as any, { ok: true, status: 200, body: { sessionId: s.id, operatorId: scopes.sandbox.operatorId } });
    t.equal(code(await owner(token, scopes.sandbox)), 'UNAUTHORIZED', 'only the gateway asks');
    t.equal(code(await owner(`${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`)), 'LAUNCH_TOKEN_INVALID', 'a forged token names nobody');
    const expired = createLaunchTokenSigner(LAUNCH_SECRET).sign({ sessionId: s.id, expiresAt: new Date(Date.now() - 1000) });
    t.equal(code(await owner(expired)), 'LAUNCH_TOKEN_EXPIRED');
  });

  t.test('demo rounds re-check the player: blocked, suspended or paused ends play with the same token', async (t) => {
    const admin = { kind: 'admin', actor: 't' } as const;
    // Each leaves the session open, so the round's own check is what refuses it (a self-exclusion ends
    // the session itself: test/responsible-gaming.test.ts).
    const cases = [
      ['PLAYER_NOT_ACTIVE', (id: string) => h.call('players.admin.status', admin, { params: { id }, body: { status: 'bloqueado' } })],
      ['PLAYER_NOT_ACTIVE', (id: string) => h.call('players.admin.status', admin, { params: { id }, body: { status: 'suspenso' } })],
      ['RG_BLOCKED', (playerId: string) => h.call('players.rg.pause', scopes.sandbox, { params: { playerId }, body: { until: future() } })],
    ] as const;
    for (const [expected, change] of cases) {
      const player = await h.createPlayer(scopes.sandbox, { kyc: 'aprovado' });
      const s = await h.openSession(t, scopes.sandbox, player, 'gm_dice_classic');
      const token = tokenOf(s.gameUrl);
      const play = () => h.call('games.play.round', gatewayScope, { params: { token }, body: { amount: '10.00', target: '50' } });
      t.equal(code(await play()), 'ok:201', 'the player may play');
      t.ok((await change(player)).ok, 'the players service answered the change');
      const before = await h.sql(`select demo_balance, rounds_played from wallet.game_sessions where id = ?`, [s.id]);
      t.equal(code(await play()), expected, `the next demo round is refused: ${expected}`);
      t.same(await h.sql(`select demo_balance, rounds_played from wallet.game_sessions where id = ?`, [s.id]), before, 'nothing played');
      t.match(
        (await h.call('games.play.session', gatewayScope, { params: { token } })) as any,
        { body: { playable: false, notice: String } },
        'the page says why',
      );
    }
  });

  t.test('demo rounds: decided and recorded server-side, moving only the fictitious balance', async (t) => {
    const inputs: Record<string, Record<string, string>> = {
      gm_aviator_demo: { target: '1.50' },
      gm_dice_classic: { target: '50' },
      gm_roulette_demo: { pick: 'red' },
      gm_slots_fruit: {},
    };
    // Money in the sandbox brand's wallet, so "untouched" is checked against a ledger that is not empty.
    const credited = await h.call('wallet.credit', internal, {
      body: { brandId: scopes.sandbox.brandId, playerId: approved, currency: 'BRL', amount: '500.00', depositId: 'dep_demo_money' },
    });
    t.ok(credited.ok, 'the player has real money too');
    const [ledgerBefore] = await h.sql(
      `select (select count(*)::int from wallet.ledger_entries) as entries, (select count(*)::int from wallet.accounts) as accounts`,
    );
    t.ok(ledgerBefore.entries > 0);
    for (const [gameId, extra] of Object.entries(inputs)) {
      const s = await h.openSession(t, scopes.sandbox, approved, gameId);
      const token = tokenOf(s.gameUrl);
      let expected = '1000.00';
      for (let i = 0; i < 5; i++) {
        const r = await h.call('games.play.round', gatewayScope, { params: { token }, body: { amount: '10.00', ...extra } });
        t.equal(r.ok && r.status, 201, `${gameId} round ${i + 1}`);
        const round = (r as any).body;
        t.match(round, { id: /^gr_[0-9a-f]{32}$/, sessionId: s.id, gameId, amount: '10.00', payout: /^\d+\.\d\d$/ });
        t.equal(round.win, Number(round.payout) > 0);
        expected = `${(Math.round(Number(expected) * 100) - 1000 + Math.round(Number(round.payout) * 100)) / 100}`;
        t.equal(Number(round.balanceAfter), Number(expected), 'balance = before − bet + payout');
        const [row] = await h.sql(`select amount, payout, win, balance_before, balance_after, outcome from wallet.game_rounds where id = ?`, [round.id]);
        t.same(
          { payout: row.payout, balance_after: row.balance_after, outcome: row.outcome },
          { payout: round.payout, balance_after: round.balanceAfter, outcome: round.outcome },
          'what the page is told is what was recorded',
        );
      }
      const [sess] = await h.sql(`select demo_balance from wallet.game_sessions where id = ?`, [s.id]);
      t.equal(Number(sess.demo_balance), Number(expected));
    }
    const [after] = await h.sql(`select (select count(*)::int from wallet.ledger_entries) as entries, (select count(*)::int from wallet.accounts) as accounts`);
    t.same(after, ledgerBefore, 'demo play never touches the wallet: no ledger entry, no account');
    const wallet = await h.call('wallet.get', scopes.sandbox, { params: { playerId: approved } });
    t.match((wallet as any).body, { available: '500.00', withdrawable: '500.00' }, 'and the real balance is what was deposited');
  });

  t.test('round outcomes follow the rules of each game', async (t) => {
    const play = async (gameId: string, body: Record<string, string>) => {
      const s = await h.openSession(t, scopes.sandbox, approved, gameId);
      const r = await h.call('games.play.round', gatewayScope, { params: { token: tokenOf(s.gameUrl) }, body: { amount: '2.00', ...body } });
      return (r as any).body;
    };
    for (let i = 0; i < 10; i++) {
      const crash = await play('gm_aviator_demo', { target: '1.50' });
      t.equal(crash.win, Number(crash.outcome.crashPoint) >= 1.5);
      t.equal(crash.payout, crash.win ? '3.00' : '0.00');
      const dice = await play('gm_dice_classic', { target: '50' });
      t.equal(dice.win, dice.outcome.roll < 50);
      t.equal(dice.payout, dice.win ? '4.04' : '0.00', '99/49 = 2.0204×, paid rounded down');
      const roulette = await play('gm_roulette_demo', { pick: 'odd' });
      t.equal(roulette.win, roulette.outcome.number % 2 === 1);
      t.equal(roulette.payout, roulette.win ? '4.00' : '0.00');
    }
  });

  t.test('round refusals: validation, funds, real money without funds, append-only', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, approved, 'gm_aviator_demo');
    const token = tokenOf(s.gameUrl);
    const round = (body: unknown) => h.call('games.play.round', gatewayScope, { params: { token }, body });
    const issuesOf = (r: any) => r.error.details.issues.map((i: any) => i.path);

    t.same(issuesOf(await round({ target: '2.00' })), ['/amount']);
    t.same(issuesOf(await round({ amount: 5, target: '2.00' })), ['/amount'], 'no coercion of numbers');
    t.same(issuesOf(await round({ amount: '1.00' })), ['/target'], 'crash needs a target');
    t.same(issuesOf(await round({ amount: '1.00', target: '1.00' })), ['/target']);
    t.same(issuesOf(await round({ amount: '0.01', target: '2.00' })), ['/amount'], 'below the minimum bet');
    t.same(issuesOf(await round({ amount: '1000.01', target: '2.00' })), ['/amount'], 'above the maximum bet');
    t.same(issuesOf(await round({ amount: '1.00', target: '2.00', clientRoundId: 'x' })), ['/clientRoundId']);

    await h.sql(`update wallet.game_sessions set demo_balance = '0.50' where id = ?`, [s.id]);
    const poor = await round({ amount: '1.00', target: '2.00' });
    t.equal(code(poor), 'INSUFFICIENT_FUNDS');
    t.same((poor as any).error.details, { balance: '0.50' });
    const [{ n }] = await h.sql(`select count(*)::int as n from wallet.game_rounds where session_id = ?`, [s.id]);
    t.equal(n, 0, 'no refused round was recorded');

    const live = await h.createPlayer(scopes.production, { kyc: 'aprovado' });
    const real = await h.openSession(t, scopes.production, live, 'gm_dice_classic');
    const realView = await h.call('games.play.session', gatewayScope, { params: { token: tokenOf(real.gameUrl) } });
    t.match((realView as any).body, { mode: 'real', balance: '0.00', playable: true, notice: null }, 'a real session shows the real (empty) wallet');
    const realRound = (body: unknown) => h.call('games.play.round', gatewayScope, { params: { token: tokenOf(real.gameUrl) }, body });
    t.same(issuesOf(await realRound({ amount: '1.00', target: '50' })), ['/clientRoundId'], 'real rounds need a clientRoundId');
    const broke = await realRound({ amount: '1.00', target: '50', clientRoundId: 'real-click-0001' });
    t.equal(code(broke), 'INSUFFICIENT_FUNDS', 'no deposit, no bet');
    t.same((broke as any).error.details, { balance: '0.00' });
    const [{ rounds }] = await h.sql(`select count(*)::int as rounds from wallet.game_rounds where session_id = ?`, [real.id]);
    t.equal(rounds, 0);

    const played = await h.openSession(t, scopes.sandbox, approved, 'gm_slots_fruit');
    const r = await h.call('games.play.round', gatewayScope, { params: { token: tokenOf(played.gameUrl) }, body: { amount: '1.00' } });
    await t.rejects(h.sql(`update wallet.game_rounds set payout = 999 where id = ?`, [(r as any).body.id]), /append-only/);
    await t.rejects(h.sql(`delete from wallet.game_rounds where id = ?`, [(r as any).body.id]), /append-only/);
  });

  t.test('a retried click (same clientRoundId) returns the round already played', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, approved, 'gm_roulette_demo');
    const token = tokenOf(s.gameUrl);
    const body = { amount: '25.00', pick: 'black', clientRoundId: 'click-0001-abcdef' };
    const replies = await Promise.all(Array.from({ length: 5 }, () => h.call('games.play.round', gatewayScope, { params: { token }, body })));
    const ids = new Set(replies.map((r: any) => r.body.id));
    t.equal(ids.size, 1, 'five deliveries, one round');
    const [{ n, balance }] = await h.sql(
      `select count(*)::int as n, (select demo_balance from wallet.game_sessions where id = ?) as balance from wallet.game_rounds where session_id = ?`,
      [s.id, s.id],
    );
    t.equal(n, 1);
    t.equal(balance, (replies[0] as any).body.balanceAfter);
  });

  t.test('concurrent rounds on one session are serialised: the balance never goes negative and always adds up', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, approved, 'gm_aviator_demo');
    const token = tokenOf(s.gameUrl);
    // 30 bets of 100.00 at a 50× target mostly lose: the 1000.00 runs out part-way through.
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => h.call('games.play.round', gatewayScope, { params: { token }, body: { amount: '100.00', target: '50.00' } })),
    );
    const codes = replies.map(code);
    t.ok(
      codes.every((c) => c === 'ok:201' || c === 'INSUFFICIENT_FUNDS'),
      codes.join(','),
    );
    const rounds = await h.sql(`select seq, amount, payout, balance_before, balance_after from wallet.game_rounds where session_id = ? order by seq`, [s.id]);
    t.equal(rounds.length, codes.filter((c) => c === 'ok:201').length, 'every accepted round was recorded');
    // How many rounds were accepted depends on the draws: check them all, assert once, so every
    // run makes the same number of assertions.
    let balance = 100_000;
    const broken: string[] = [];
    rounds.forEach((r: any, i: number) => {
      if (r.seq !== i + 1) broken.push(`round ${i + 1}: seq ${r.seq}`);
      if (Math.round(Number(r.balance_before) * 100) !== balance) broken.push(`round ${i + 1}: starts from ${r.balance_before}, not the previous balance`);
      balance += Math.round(Number(r.payout) * 100) - Math.round(Number(r.amount) * 100);
      if (Math.round(Number(r.balance_after) * 100) !== balance) broken.push(`round ${i + 1}: ends at ${r.balance_after}`);
    });
    t.same(broken, [], 'rounds are numbered in order and each starts from the previous one');
    const [sess] = await h.sql(`select demo_balance from wallet.game_sessions where id = ?`, [s.id]);
    t.equal(Math.round(Number(sess.demo_balance) * 100), balance);
    t.ok(balance >= 0);
    t.ok(!codes.includes('INSUFFICIENT_FUNDS') || balance < 10_000, 'refused only once the balance was below the bet');
  });
});
