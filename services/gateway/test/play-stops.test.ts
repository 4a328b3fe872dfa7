// Play stops at the next round, whatever token the page holds (issue #24): an operator suspended
// through the admin API (answered by one gateway replica, played on the other at once), a player
// blocked or suspended through the admin API or paused through the operator's (the session stays
// open: the round's own check refuses it), a player self-excluded through our team's limits form (the
// session ends before the answer, as for the player's own), a session that has ended. Two real gateway
// replicas, the real players and wallet services, real NATS and Postgres, the page's own script in
// Chromium. A refused round moves no money: the wallet, the ledger and the rounds stay as they
// were, and the ledger verifies.
import t from 'tap';
import type { Test } from 'tap';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { startHarness } from './support/harness.ts';
import { CHROMIUM_LAUNCH, CHROMIUM_PATH, startGamesStack } from '@bo/test-support';
import { randomCpf } from '@bo/service-kit/testing';
import type { OperatorScope } from '@bo/contracts';
import { gamesServices } from '@bo/wallet/testing';
import type { RunningGateway } from '../src/gateway.ts';

const clickId = () => `click-${randomBytes(8).toString('hex')}`;

t.test('play stops at the next round', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = h.gateways[0]!;
  const b = await h.startReplica();
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: a.publicUrl }, { prefix: h.prefix });
  let n = 0;

  type Op = Awaited<ReturnType<typeof h.createOperator>>;
  /** A production session with money (real rounds) and a sandbox one (demo rounds), each of its own approved player. */
  async function sessions(op: Op) {
    const open = async (env: 'sandbox' | 'production') => {
      const c = env === 'sandbox' ? op.sandboxClient : op.productionClient;
      const p = await c.post(
        '/players',
        { externalId: `stop-${++n}`, name: 'Ana Souza', email: `ana${n}@example.com`, cpf: randomCpf(), birthDate: '1990-01-01' },
        { 'idempotency-key': `play-stops-player-${n}` },
      );
      if (p.status !== 201) throw new Error(`player: ${p.text}`);
      const approved = await h.admin('POST', `/admin/players/${p.body.id}/kyc/decision`, { status: 'aprovado' });
      if (approved.status !== 200) throw new Error(`kyc: ${JSON.stringify(approved.body)}`);
      const scope: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: op[env].brandId, environment: env, currency: 'BRL' };
      if (env === 'production') await games.credit(scope, p.body.id, '50.00');
      const s = await c.post(`/players/${p.body.id}/game-sessions`, { gameId: 'gm_dice_classic' });
      if (s.status !== 201) throw new Error(`session: ${s.text}`);
      return { playerId: p.body.id as string, sessionId: s.body.id as string, path: new URL(s.body.gameUrl).pathname, scope };
    };
    return { real: await open('production'), demo: await open('sandbox') };
  }
  type Session = Awaited<ReturnType<typeof sessions>>['real'];

  /** A round of the session's page (the same token), on a given replica. */
  async function round(s: Session, gw: RunningGateway = a, clientRoundId = clickId()) {
    const res = await fetch(`${gw.publicUrl}${s.path}/rounds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '1.00', target: '50', clientRoundId }),
    });
    const body = (await res.json()) as any;
    return { status: res.status, code: res.ok ? 'played' : body.error.code, message: res.ok ? '' : body.error.message };
  }
  const page = async (s: Session, gw: RunningGateway = a) => {
    const res = await fetch(`${gw.publicUrl}${s.path}`);
    return { status: res.status, html: await res.text() };
  };
  /** What a refused round must leave as it was: the wallet, the player's entries, every round. */
  async function money(s: Session) {
    const [entries] = await games.sql(
      `select count(*)::int as n from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id where a.player_id = ?`,
      [s.playerId],
    );
    const [rounds] = await games.sql(
      `select count(*)::int as n from wallet.game_rounds r join wallet.game_sessions gs on gs.id = r.session_id where gs.player_id = ?`,
      [s.playerId],
    );
    const [session] = await games.sql(`select demo_balance from wallet.game_sessions where id = ?`, [s.sessionId]);
    // Read in the wallet: the operator API refuses a suspended operator.
    const wallet = await games.call('wallet.get', s.scope, { params: { playerId: s.playerId } });
    return { entries: entries.n, rounds: rounds.n, demoBalance: session.demo_balance, available: (wallet as any).body.available };
  }
  async function ledgerVerifies(t: Test) {
    const v = await h.admin('GET', '/admin/ledger/verify');
    t.equal(v.body.ok, true, 'the ledger verifies');
  }

  t.test('operator suspended: every round and page of its sessions is refused on every replica, until it is resumed', async (t) => {
    const op = await h.createOperator({ name: 'Suspendable Bets' });
    const { real, demo } = await sessions(op);
    t.equal((await round(real)).code, 'played', 'a real round plays before the suspension');
    t.equal((await round(demo)).code, 'played', 'a demo round plays before the suspension');
    const before = { real: await money(real), demo: await money(demo) };

    // Answered by replica A; the very next request on replica B, which never saw these tokens, is refused.
    t.equal((await h.admin('POST', `/admin/operators/${op.operator.id}/suspend`, undefined, a)).status, 200);
    for (const [s, gw, what] of [
      [real, b, 'real, replica B'],
      [real, a, 'real, replica A'],
      [demo, b, 'demo, replica B'],
    ] as const) {
      const r = await round(s, gw);
      t.same(
        { status: r.status, code: r.code, message: r.message },
        { status: 403, code: 'OPERATOR_SUSPENDED', message: 'Play is suspended: the operator of this site is suspended.' },
        `${what}: refused`,
      );
    }
    const p = await page(real, b);
    t.equal(p.status, 403, 'the page is refused too');
    t.match(p.html, /<h1 id="error-title">This game is not available<\/h1>/);
    t.match(p.html, /the operator of this site is suspended/);
    t.match(p.html, /Code OPERATOR_SUSPENDED/);
    t.same({ real: await money(real), demo: await money(demo) }, before, 'no money moved, no round recorded');
    await ledgerVerifies(t);

    t.equal((await h.admin('POST', `/admin/operators/${op.operator.id}/resume`, undefined, b)).status, 200);
    t.equal((await round(real, a)).code, 'played', 'resumed: the same token plays real money again');
    t.equal((await round(demo, b)).code, 'played', 'and demo');
    t.equal((await page(real, a)).status, 200, 'and the page opens');
    await ledgerVerifies(t);
  });

  t.test('player blocked or suspended through the admin API, or paused: the next round is refused, demo and real', async (t) => {
    const op = await h.createOperator({ name: 'Careful Bets' });
    const clientOf = (s: Session) => (s.scope.environment === 'sandbox' ? op.sandboxClient : op.productionClient);
    // Each leaves the session open, so the round's own check is what refuses it (a self-exclusion ends the session: below).
    const changes = [
      ['bloqueado', 'PLAYER_NOT_ACTIVE', (s: Session) => h.admin('POST', `/admin/players/${s.playerId}/status`, { status: 'bloqueado' })],
      ['suspenso', 'PLAYER_NOT_ACTIVE', (s: Session) => h.admin('POST', `/admin/players/${s.playerId}/status`, { status: 'suspenso' })],
      [
        'paused',
        'RG_BLOCKED',
        (s: Session) =>
          clientOf(s).post(
            `/players/${s.playerId}/pause`,
            { until: new Date(Date.now() + 7 * 86_400_000).toISOString() },
            { 'idempotency-key': `play-stops-pause-${s.playerId}` },
          ),
      ],
    ] as const;
    for (const [what, code, change] of changes) {
      const { real, demo } = await sessions(op);
      for (const [mode, s] of [
        ['real', real],
        ['demo', demo],
      ] as const) {
        t.equal((await round(s)).code, 'played', `${what}, ${mode}: plays before`);
        const before = await money(s);
        t.equal((await change(s)).status, 200, `${what}: answered`);
        const r = await round(s, b);
        t.same({ status: r.status, code: r.code }, { status: 403, code }, `${what}, ${mode}: the next round with the same token is refused`);
        const p = await page(s, a);
        t.equal(p.status, 200, `${what}, ${mode}: the page opens to say why`);
        t.match(p.html, /<p class="notice" id="notice">/);
        t.match(p.html, /<button id="play" type="submit" disabled>/, 'without Play');
        t.same(await money(s), before, `${what}, ${mode}: no money moved, no round recorded`);
      }
    }
    await ledgerVerifies(t);
  });

  t.test("player self-excluded through our team's limits form: the open session ends before the answer, demo and real", async (t) => {
    const op = await h.createOperator({ name: 'Excluded Bets' });
    const { real, demo } = await sessions(op);
    for (const [mode, s] of [
      ['real', real],
      ['demo', demo],
    ] as const) {
      t.equal((await round(s)).code, 'played', `${mode}: plays before`);
      const before = await money(s);
      const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
      t.equal(
        (await h.admin('PUT', `/admin/players/${s.playerId}/limits`, { dailyDepositLimit: null, selfExcludedUntil: until })).status,
        200,
        `${mode}: answered`,
      );
      const r = await round(s, b);
      t.same({ status: r.status, code: r.code }, { status: 410, code: 'GAME_SESSION_ENDED' }, `${mode}: the session ended, as for the player's own`);
      t.equal((await page(s, a)).status, 410, `${mode}: the page says the session has ended`);
      t.same(await money(s), before, `${mode}: no money moved, no round recorded`);
    }
    await ledgerVerifies(t);
  });

  t.test('a session that has ended (its row ended early): the next round is refused, demo and real', async (t) => {
    const op = await h.createOperator({ name: 'Closing Bets' });
    const { real, demo } = await sessions(op);
    for (const [mode, s] of [
      ['real', real],
      ['demo', demo],
    ] as const) {
      t.equal((await round(s)).code, 'played', `${mode}: plays before`);
      const before = await money(s);
      await games.sql(`update wallet.game_sessions set expires_at = created_at + interval '1 millisecond' where id = ?`, [s.sessionId]);
      const r = await round(s, b);
      t.same({ status: r.status, code: r.code }, { status: 410, code: 'LAUNCH_TOKEN_EXPIRED' }, `${mode}: refused`);
      t.equal((await page(s, a)).status, 410, `${mode}: the page says the session has ended`);
      t.same(await money(s), before, `${mode}: no money moved, no round recorded`);
    }
    await ledgerVerifies(t);
  });

  t.test('in a real browser: the open page of a suspended operator says why and stops offering Play', async (t) => {
    t.ok(fs.existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} is installed (apt-get install chromium, or set CHROMIUM_PATH)`);
    const browser = await chromium.launch(CHROMIUM_LAUNCH);
    t.teardown(() => browser.close());
    const op = await h.createOperator({ name: 'Watched Bets' });
    const { real } = await sessions(op);
    const tab = await browser.newPage();
    t.equal((await tab.goto(`${a.publicUrl}${real.path}`))?.status(), 200);
    t.equal(await tab.isDisabled('#play'), false, 'Play is offered');
    const before = await money(real);

    t.equal((await h.admin('POST', `/admin/operators/${op.operator.id}/suspend`)).status, 200);
    await tab.click('#play');
    await tab.waitForSelector('#outcome[data-error-code="OPERATOR_SUSPENDED"]', { timeout: 15_000 });
    t.equal(await tab.textContent('#outcome'), 'Play is suspended: the operator of this site is suspended.', 'the page says why');
    t.equal(await tab.isDisabled('#play'), true, 'Play is no longer offered');
    t.equal(await tab.textContent('#balance'), before.available, 'the balance shown is unchanged');
    t.same(await money(real), before, 'no money moved');
  });
});
