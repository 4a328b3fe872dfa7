// The launch-page plugin in isolation: a bare Fastify with only playRoutes and its wallet port over
// real NATS (walletGames), the real wallet and players services in-process; HTTP through inject,
// then a real browser (Chromium through playwright-core) on a real listening socket.
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium } from 'playwright-core';
import { connect } from '@nats-io/transport-node';
import { playRoutes, walletGames } from '../src/index.ts';
import { createLaunchTokenSigner } from '@bo/wallet/testing';
import {
  CHROMIUM_LAUNCH,
  CHROMIUM_PATH,
  LAUNCH_SECRET,
  scopes,
  startFakeProvider,
  startGamesStack,
  testNatsUrl,
  testPrefix,
  timedPhase,
  tokenOf,
} from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';

// `npm test` finds or installs a Chromium and names it here.

t.test('launch page plugin', async (t) => {
  const prefix = testPrefix('play');
  const nc = await connect({ servers: testNatsUrl().split(','), name: 'play-test' });
  const app: FastifyInstance = Fastify();
  t.teardown(async () => {
    await app.close();
    await nc.drain().catch(() => undefined);
  });
  // No operatorRefusal: the gateway's operator check is played through the real gateway in
  // services/gateway/test/play-stops.test.ts.
  // The wallet's answers are waited for 30 s, a ceiling a busy machine does not reach ("no wallet
  // answering" below is "no responders", told at once).
  await app.register(playRoutes, { games: walletGames({ nc, prefix, timeoutMs: 30_000 }), publicBaseUrl: 'http://127.0.0.1' });
  // Listen first: the wallet builds gameUrl from PUBLIC_BASE_URL, which is this address.
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const provider = await startFakeProvider(t);
  const h = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: baseUrl, GAME_PROVIDER_URL: provider.url }, { prefix });
  const player = await h.createPlayer(scopes.sandbox, { kyc: 'aprovado' });
  const pathOf = (gameUrl: string) => new URL(gameUrl).pathname;

  t.test('GET /play/:token renders the game, self-contained and uncached', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, player, 'gm_aviator_demo');
    t.ok(s.gameUrl.startsWith(`${baseUrl}/play/`), 'gameUrl points at this server');
    const res = await app.inject({ method: 'GET', url: pathOf(s.gameUrl) });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^text\/html; charset=utf-8/);
    t.equal(res.headers['cache-control'], 'no-store');
    t.equal(res.headers['referrer-policy'], 'no-referrer');
    const csp = String(res.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    t.ok(nonce, 'scripts only by nonce');
    t.match(csp, /default-src 'none'/);
    t.match(res.body, `<script nonce="${nonce}">`);
    t.match(res.body, /<h1 id="game-name">Aviator<\/h1>/);
    t.match(res.body, /<strong id="balance">1000\.00<\/strong>/);
    t.match(res.body, /DEMO · fictitious balance/);
    t.notMatch(res.body, /(src|href)=["']?https?:/, 'no external assets');
  });

  t.test('POST /play/:token/rounds plays a round and answers what was recorded', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, player, 'gm_roulette_demo');
    const url = `${pathOf(s.gameUrl)}/rounds`;
    const res = await app.inject({ method: 'POST', url, payload: { amount: '10.00', pick: 'red' } });
    t.equal(res.statusCode, 201);
    t.equal(res.headers['cache-control'], 'no-store');
    const round = res.json();
    const [row] = await h.sql(`select payout, balance_after from wallet.game_rounds where id = ?`, [round.id]);
    t.same(row, { payout: round.payout, balance_after: round.balanceAfter });

    const bad = await app.inject({ method: 'POST', url, payload: '{not json', headers: { 'content-type': 'application/json' } });
    t.equal(bad.statusCode, 422);
    t.match(bad.json(), { error: { code: 'VALIDATION_ERROR', requestId: String, details: { in: 'body' } } });
    const arr = await app.inject({ method: 'POST', url, payload: '[1]', headers: { 'content-type': 'application/json' } });
    t.equal(arr.statusCode, 422);
    const missing = await app.inject({ method: 'POST', url, payload: { amount: '10.00' } });
    t.equal(missing.statusCode, 422);
    t.match(missing.json(), { error: { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/pick' }] } } });
    const big = await app.inject({ method: 'POST', url, payload: { amount: '1.00', pick: 'red', pad: 'x'.repeat(5000) } });
    t.equal(big.statusCode, 413, 'round bodies are small');
  });

  t.test('forged, expired and malformed links get a clear HTML error page', async (t) => {
    const s = await h.openSession(t, scopes.sandbox, player, 'gm_dice_classic');
    const token = tokenOf(s.gameUrl);
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const f = await app.inject({ method: 'GET', url: `/play/${forged}` });
    t.equal(f.statusCode, 403);
    t.match(f.headers['content-type'], /^text\/html/);
    t.match(f.body, /<h1 id="error-title">This game link is not valid<\/h1>/);
    t.match(f.body, /LAUNCH_TOKEN_INVALID/);

    const expired = createLaunchTokenSigner(LAUNCH_SECRET).sign({ sessionId: s.id, expiresAt: new Date(Date.now() - 60_000) });
    const e = await app.inject({ method: 'GET', url: `/play/${expired}` });
    t.equal(e.statusCode, 410);
    t.match(e.body, /This game session has expired/);
    t.match(e.body, /open the game again/);
    const er = await app.inject({ method: 'POST', url: `/play/${expired}/rounds`, payload: { amount: '1.00', target: '50' } });
    t.equal(er.statusCode, 410);
    t.match(er.json(), { error: { code: 'LAUNCH_TOKEN_EXPIRED' } });

    const weird = await app.inject({ method: 'GET', url: '/play/%3Cscript%3Ealert(1)%3C%2Fscript%3E' });
    t.equal(weird.statusCode, 403);
    t.notMatch(weird.body, /<script>alert/);
  });

  t.test('names from the catalogue are escaped on the page', async (t) => {
    await h.sql(
      `insert into wallet.games (id, name, provider, category, kind, adapter) values ('gm_xss', '<img src=x onerror=alert(1)>', 'p"q', '</style>', 'dice', 'local')`,
    );
    const s = await h.openSession(t, scopes.sandbox, player, 'gm_xss');
    const res = await app.inject({ method: 'GET', url: pathOf(s.gameUrl) });
    t.equal(res.statusCode, 200);
    t.notMatch(res.body, /<img/);
    t.match(res.body, /&lt;img src=x onerror=alert\(1\)&gt;/);
    t.match(res.body, /p&quot;q · &lt;\/style&gt;/);
  });

  t.test('an external game redirects to the provider page', async (t) => {
    const ext = await h.openSession(t, scopes.sandbox, player, 'gm_blackjack_live');
    const r = await app.inject({ method: 'GET', url: pathOf(ext.gameUrl) });
    t.equal(r.statusCode, 302);
    t.equal(r.headers.location, `https://provider.example/tables/${ext.id}?lang=pt`);
    t.equal(r.headers['referrer-policy'], 'no-referrer', 'the token does not leak to the provider');
  });

  t.test('a real session shows the real withdrawable balance and plays real rounds', async (t) => {
    const live = await h.createPlayer(scopes.production, { kyc: 'aprovado' });
    await h.credit(scopes.production, live, '20.00');
    await h.hold(scopes.production, live, '5.00');
    const real = await h.openSession(t, scopes.production, live, 'gm_slots_fruit');
    const page = await app.inject({ method: 'GET', url: pathOf(real.gameUrl) });
    t.equal(page.statusCode, 200);
    t.match(page.body, /REAL MONEY/);
    t.match(page.body, /<strong id="balance">15\.00<\/strong>/, 'available 20.00 − 5.00 reserved for a withdrawal');
    t.notMatch(page.body, /id="notice"/, 'no notice: real play is available');
    t.match(page.body, /<button id="play" type="submit">/, 'Play is enabled');

    const url = `${pathOf(real.gameUrl)}/rounds`;
    const noId = await app.inject({ method: 'POST', url, payload: { amount: '1.00' } });
    t.equal(noId.statusCode, 422, 'a real round needs a clientRoundId');
    const round = await app.inject({ method: 'POST', url, payload: { amount: '1.00', clientRoundId: 'page-real-0001' } });
    t.equal(round.statusCode, 201);
    const r = round.json();
    t.equal(Math.round(Number(r.balanceAfter) * 100), 1500 - 100 + Math.round(Number(r.payout) * 100));
    const [bet] = await h.sql(
      `select amount from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id where a.kind = 'player' and e.reference_id = ? and e.type = 'BET'`,
      [r.id],
    );
    t.same(bet, { amount: '-1.00' }, 'the bet is in the ledger');
    // A cent more than the balance the round left: a fixed 100.00 was played when the slot paid 100× (a run of 2026-11-28).
    const overBalance = ((Math.round(Number(r.balanceAfter) * 100) + 1) / 100).toFixed(2);
    const tooMuch = await app.inject({ method: 'POST', url, payload: { amount: overBalance, clientRoundId: 'page-real-0002' } });
    t.equal(tooMuch.statusCode, 422);
    t.match(tooMuch.json(), { error: { code: 'INSUFFICIENT_FUNDS', details: { balance: r.balanceAfter } } });

    // A pause leaves the session open (a self-exclusion ends it: the wallet's test/responsible-gaming.test.ts):
    // the page and the round re-check the player.
    const paused = await h.createPlayer(scopes.production, { kyc: 'aprovado' });
    const blockedSession = await h.openSession(t, scopes.production, paused, 'gm_slots_fruit');
    const pause = await h.call('players.rg.pause', scopes.production, {
      params: { playerId: paused },
      body: { until: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    });
    t.equal(pause.ok && pause.status, 200, 'the player paused');
    const blocked = await app.inject({ method: 'GET', url: pathOf(blockedSession.gameUrl) });
    t.equal(blocked.statusCode, 200);
    t.match(blocked.body, /<p class="notice" id="notice">The player has paused play until a later time\.<\/p>/);
    t.match(blocked.body, /<button id="play" type="submit" disabled>/);
    const refused = await app.inject({
      method: 'POST',
      url: `${pathOf(blockedSession.gameUrl)}/rounds`,
      payload: { amount: '1.00', clientRoundId: 'page-real-0003' },
    });
    t.equal(refused.statusCode, 403);
    t.match(refused.json(), { error: { code: 'RG_BLOCKED', details: { reason: 'paused' } } });
  });

  t.test('no wallet answering: 503 page and JSON, with Retry-After', async (t) => {
    const lonely = Fastify();
    t.teardown(() => lonely.close());
    await lonely.register(playRoutes, { games: walletGames({ nc, prefix: testPrefix('nobody'), timeoutMs: 300 }), publicBaseUrl: baseUrl });
    const token = createLaunchTokenSigner(LAUNCH_SECRET).sign({ sessionId: 'gs_0123456789abcdef0123456789abcdef', expiresAt: new Date(Date.now() + 60_000) });
    const page = await lonely.inject({ method: 'GET', url: `/play/${token}` });
    t.equal(page.statusCode, 503);
    t.equal(page.headers['retry-after'], '1');
    t.match(page.body, /temporarily unavailable/);
    const json = await lonely.inject({ method: 'POST', url: `/play/${token}/rounds`, payload: { amount: '1.00' } });
    t.equal(json.statusCode, 503);
    t.match(json.json(), { error: { code: 'SERVICE_UNAVAILABLE' } });
  });

  t.test('in a real browser: the page renders, one round plays, the balance follows the recorded outcome', async (t) => {
    t.ok(fs.existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} is installed (apt-get install chromium, or set CHROMIUM_PATH)`);
    const browser = await timedPhase('chromium', () => chromium.launch(CHROMIUM_LAUNCH));
    t.teardown(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 560, height: 720 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));

    const s = await h.openSession(t, scopes.sandbox, player, 'gm_dice_classic');
    const res = await page.goto(s.gameUrl);
    t.equal(res?.status(), 200);
    t.equal(await page.textContent('#game-name'), 'Classic Dice');
    t.equal(await page.textContent('#balance'), '1000.00');
    t.equal(await page.textContent('#currency'), 'BRL');

    await page.fill('#amount', '5.00');
    await page.fill('#target', '50');
    await page.click('#play');
    await page.waitForSelector('#outcome[data-round-id]', { timeout: 15_000 });
    const roundId = await page.getAttribute('#outcome', 'data-round-id');
    const shownBalance = await page.textContent('#balance');
    const shownWin = await page.getAttribute('#outcome', 'data-win');
    const outcomeText = await page.textContent('#outcome');

    const [row] = await h.sql(`select amount, payout, win, balance_before, balance_after, outcome from wallet.game_rounds where id = ?`, [roundId]);
    t.ok(row, `round ${roundId} was recorded server-side`);
    t.same({ amount: row.amount, balance_before: row.balance_before }, { amount: '5.00', balance_before: '1000.00' });
    t.equal(shownBalance, row.balance_after, 'the page shows the balance the server recorded');
    t.equal(Math.round(Number(row.balance_after) * 100), 100_000 - 500 + Math.round(Number(row.payout) * 100), 'balance = 1000.00 − 5.00 + payout');
    t.equal(shownWin, String(row.win));
    t.equal(row.win, row.outcome.roll < 50, 'the recorded outcome decides the win');
    t.match(outcomeText, row.win ? `You won ${row.payout}` : 'No win this time');
    t.match(outcomeText, `Rolled ${row.outcome.roll}`);
    const [sess] = await h.sql(`select demo_balance from wallet.game_sessions where id = ?`, [s.id]);
    t.equal(sess.demo_balance, row.balance_after);
    t.equal(await page.locator('#history li').count(), 1);

    const shot = path.join(t.testdir(), 'dice-round.png');
    await page.screenshot({ path: shot, fullPage: true });
    const png = fs.readFileSync(shot);
    t.ok(png.length > 1000, `screenshot written (${png.length} bytes)`);
    t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'it is a PNG');

    t.same(consoleErrors, [], 'no script errors and no CSP violations while playing');

    const expired = createLaunchTokenSigner(LAUNCH_SECRET).sign({ sessionId: s.id, expiresAt: new Date(Date.now() - 1000) });
    const gone = await page.goto(`${baseUrl}/play/${expired}`);
    t.equal(gone?.status(), 410);
    t.equal(await page.textContent('#error-title'), 'This game session has expired');
    t.same(
      consoleErrors.filter((e) => !/status of 410/.test(e)),
      [],
      'the error page renders without script or CSP errors',
    );
  });
  t.test('in a real browser, real money: the page shows the wallet, plays, and the ledger has the round', async (t) => {
    const browser = await timedPhase('chromium', () => chromium.launch(CHROMIUM_LAUNCH));
    t.teardown(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 560, height: 760 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 422/.test(m.text())) consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));

    const live = await h.createPlayer(scopes.production, { kyc: 'aprovado' });
    await h.credit(scopes.production, live, '50.00');
    const s = await h.openSession(t, scopes.production, live, 'gm_roulette_demo');
    t.equal((await page.goto(s.gameUrl))?.status(), 200);
    t.equal(await page.textContent('#mode'), 'REAL MONEY');
    t.equal(await page.textContent('#balance'), '50.00', 'the real withdrawable balance');
    t.equal(await page.locator('#notice').count(), 0, 'no "not available" notice');

    const rounds: string[] = [];
    for (const pick of ['red', 'odd']) {
      await page.fill('#amount', '10.00');
      await page.selectOption('#pick', pick);
      await page.click('#play');
      // Runs in the page (no DOM types here): a new round shown and Play usable again.
      await page.waitForFunction(
        (prev) => {
          const doc = (globalThis as any).document;
          const id = doc.getElementById('outcome')?.dataset.roundId;
          return id && id !== prev && !doc.getElementById('play').disabled;
        },
        rounds.at(-1) ?? '',
        { timeout: 15_000 },
      );
      rounds.push((await page.getAttribute('#outcome', 'data-round-id'))!);
    }
    const shown = await page.textContent('#balance');
    const rows = await h.sql(`select id, payout, balance_after, win from wallet.game_rounds where id in (?, ?) order by seq`, rounds);
    t.equal(rows.length, 2, 'both rounds were recorded');
    t.equal(shown, rows[1].balance_after, 'the page shows the balance the server recorded');
    const wallet = ((await h.call('wallet.get', scopes.production, { params: { playerId: live } })) as any).body;
    t.equal(wallet.withdrawable, shown, 'which is the wallet balance');
    t.equal(Math.round(Number(shown) * 100), 5000 - 2000 + rows.reduce((c: number, r: any) => c + Math.round(Number(r.payout) * 100), 0));
    const entries = await h.sql(
      `select e.reference_id, e.type, e.amount from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id
      where a.kind = 'player' and e.reference_id in (?, ?)`,
      rounds,
    );
    for (const r of rows) {
      const mine = entries
        .filter((e: any) => e.reference_id === r.id)
        .map((e: any) => `${e.type} ${e.amount}`)
        .sort();
      t.same(mine, r.win ? ['BET -10.00', `WIN ${r.payout}`] : ['BET -10.00'], `round ${r.id} has its BET${r.win ? ' and WIN' : ''}`);
    }

    await page.fill('#amount', '900.00');
    await page.click('#play');
    await page.waitForSelector('#outcome[data-error-code="INSUFFICIENT_FUNDS"]', { timeout: 15_000 });
    t.match(await page.textContent('#outcome'), /larger than the withdrawable balance/);
    t.equal(await page.textContent('#balance'), shown, 'a refused bet leaves the balance as it was');

    const shot = path.join(t.testdir(), 'real-roulette.png');
    await page.screenshot({ path: shot, fullPage: true });
    t.ok(fs.statSync(shot).size > 1000, 'screenshot written');
    t.same(consoleErrors, [], 'no script errors and no CSP violations while playing');
    const v = await h.verifyLedger();
    t.equal(v.ok, true, 'the ledger verifies');
  });

  t.test('in a real browser: the reality check stops play until the player acknowledges it', async (t) => {
    const browser = await timedPhase('chromium', () => chromium.launch(CHROMIUM_LAUNCH));
    t.teardown(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 560, height: 820 } });
    const consoleErrors: string[] = [];
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    // A player with a limit carries the operator's responsible-gaming settings: a reality check every 60 minutes.
    // Real money: the acknowledgement is counted in the wallet's usage (a harm marker, issue #68).
    const limited = await h.createPlayer(scopes.production, { kyc: 'aprovado' });
    await h.credit(scopes.production, limited, '50.00');
    const set = await h.call('players.rg.setLimit', scopes.production, {
      params: { playerId: limited, type: 'loss', period: 'day' },
      body: { value: '500.00' },
    });
    t.equal(set.ok, true, 'a loss limit set');
    const s = await h.openSession(t, scopes.production, limited, 'gm_dice_classic');
    await page.clock.install();
    await page.goto(s.gameUrl);
    t.equal(await page.isHidden('#reality-check'), true, 'no reality check at first');
    await page.fill('#amount', '5.00');
    await page.click('#play');
    await page.waitForSelector('#outcome[data-round-id]', { timeout: 15_000 });
    const firstRound = await page.getAttribute('#outcome', 'data-round-id');
    const [round] = await h.sql('select payout - amount as net from wallet.game_rounds where id = ?', [firstRound]);

    await page.clock.fastForward(60 * 60_000);
    await page.waitForSelector('#reality-check:not([hidden])', { timeout: 15_000 });
    await page.locator('#reality-text', { hasText: 'Net result' }).waitFor({ timeout: 15_000 });
    const text = await page.textContent('#reality-text');
    t.match(text, /You have been playing for 60 minutes\./, 'time played');
    t.match(text, `Net result of this session: ${round.net} BRL`, 'the net result the server recorded');
    t.equal(await page.isDisabled('#play'), true, 'play waits for the acknowledgement');
    await page.dispatchEvent('#bet-form', 'submit');
    t.equal(await page.locator('#history li').count(), 1, 'no round while the check is shown');

    const told = page.waitForResponse((r) => r.url().endsWith('/heartbeat') && (r.request().postData() ?? '').includes('acknowledged'));
    await page.click('#reality-continue');
    t.equal(await page.isHidden('#reality-check'), true);
    t.equal((await told).status(), 200, 'the acknowledgement told to the wallet');
    const [usage] = await h.sql(
      'select coalesce(sum(u.reality_checks), 0)::int as n from wallet.rg_usage u join wallet.accounts a on a.id = u.account_id where a.player_id = ?',
      [limited],
    );
    t.equal(usage.n, 1, "one reality check dismissed in the hour's usage (a harm marker)");
    t.equal(await page.isEnabled('#play'), true, 'play continues after the acknowledgement');
    await page.click('#play');
    await page.locator('#history li').nth(1).waitFor({ timeout: 15_000 });
    t.pass('a round plays again');
    t.same(consoleErrors, [], 'no script errors and no CSP violations');
  });
});
