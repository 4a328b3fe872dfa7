// Hub88's Wallet API through the real gateway, to the real wallet and players services (issue
// #58, docs/connectors-hub88.md): a provider registered with protocol hub88, its connector set up
// by our team (Hub88's operator_id, Hub88's public key, a key pair of ours), games synced from
// Hub88's game list and launched through /game/url, then Hub88's calls as Hub88 sends them, signed
// with Hub88's private key. The document's own request examples are replayed as published; every
// status of Hub88's table is answered where it belongs; a transaction_uuid moves money once,
// twenty copies at a time included; wins and rollbacks are paid whatever became of the session
// or the player; the connector's traffic is the provider wallet's (the regulator's lines list it);
// the ledger verifies.
import t from 'tap';
import type { Test } from 'tap';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import {
  HUB88_STATUSES,
  hub88AmountToMoney,
  regulatorProviderMessages,
  signHub88,
  type Hub88Answer,
  type Hub88Status,
  type OperatorScope,
} from '@bo/contracts';
import { DEV_MASTER_KEY, openSecret } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';
import { gatewayScope, startGamesStack, startHub88Standin } from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';
import { startHarness } from './support/harness.ts';

const uuid = () => randomUUID();
/** Hub88's units: 1.00 is 100000. */
const units = (money: string) => Math.round(Number(money) * 100) * 1000;

t.test('Hub88 connector', async (t) => {
  // A deadline no call of a busy machine reaches: these tests are about answers, not about timeouts.
  const h = await startHarness({ RPC_TIMEOUT_MS: '30000' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: gw.publicUrl }, { prefix: h.prefix });
  const op = await h.createOperator({ name: `Hub88 Casino ${randomBytes(3).toString('hex')}` });
  const me = await op.productionClient.get('/me');
  const live: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: me.body.brand.id, environment: 'production', currency: 'BRL' };
  const hub88 = await startHub88Standin(t, [
    { game_code: 'clt_dragonrising', name: 'Dragon Rising', category: 'Video Slots', enabled: true },
    { game_code: 'evo_lightningroulette', name: 'Lightning Roulette', category: 'Live Roulette', enabled: true },
  ]);

  const admin = async (method: string, path: string, body?: unknown, expected = [200, 201]) => {
    const r = await h.admin(method, path, body);
    if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  // Our team's side: register, set up the connector, sync the games, offer them to the operator.
  const provider = await admin('POST', '/admin/providers', { name: `Hub88 ${randomBytes(3).toString('hex')}`, kind: 'casino', protocol: 'hub88' });
  t.match(provider, { id: /^prv_/, protocol: 'hub88', status: 'enabled' }, 'registered with its protocol');
  const P = `/admin/providers/${provider.id}/connector`;
  await admin('PUT', `${P}/production`, { settings: { operatorId: 4242, apiBaseUrl: hub88.url } });
  const theirs = await admin('POST', `${P}/production/their-keys`, { publicKey: hub88.keys.publicKeyPem });
  t.match(theirs, { id: /^ck_/, owner: 'theirs', status: 'active', fingerprint: /^[0-9a-f]{64}$/ });
  const ours = await admin('POST', `${P}/production/our-keys`, {});
  t.match(ours, { owner: 'ours', status: 'active', publicKey: /BEGIN PUBLIC KEY/ });
  t.notOk(JSON.stringify(ours).includes('PRIVATE'), 'our private key is never answered');
  hub88.trust(ours.publicKey);
  const sync = await admin('POST', `${P}/production/sync-games`);
  t.same(sync, { added: 2, updated: 0, disabled: 0, total: 2 }, "Hub88's game list copied into our catalogue");
  const catalogue = (await admin('GET', `/admin/providers/${provider.id}/games`)).data as Array<{ id: string; gameCode: string; enabled: boolean }>;
  const dragon = catalogue.find((g) => g.gameCode === 'clt_dragonrising')!;
  await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
  const view = await admin('GET', P);
  const production = view.environments.find((e: any) => e.environment === 'production');
  t.equal(production.endpointUrl, `${gw.publicUrl}/connectors/hub88/${provider.id}/production`, 'the endpoint URL we hand Hub88');
  const base = production.endpointUrl as string;

  /** A Wallet API call as Hub88 makes it: the exact bytes, signed with Hub88's private key. */
  const call = async (path: string, body: unknown, o: { signature?: string | null; raw?: string } = {}): Promise<{ http: number; body: Hub88Answer }> => {
    // The exact bytes sent are what is signed (a raw text too), unless the test gives a signature.
    const text = o.raw ?? JSON.stringify(body);
    const signature = o.signature === undefined ? signHub88(text, hub88.keys.privateKey) : o.signature;
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-hub88-signature': signature }) },
      body: text,
    });
    return { http: res.status, body: (await res.json()) as Hub88Answer };
  };

  /** A funded player with a session of a Hub88 game: Hub88 got the token through /game/url. */
  const session = async (t: Test, funds = '100.00', gameId = dragon.id) => {
    const player = await games.createPlayer(live, { kyc: 'aprovado' });
    if (funds !== '0.00') await games.credit(live, player, funds);
    const before = hub88.gameUrlRequests.length;
    await games.openSession(t, live, player, gameId);
    const sent = hub88.gameUrlRequests.at(-1)!;
    t.equal(hub88.gameUrlRequests.length, before + 1, 'the launch asked Hub88 for the game URL');
    return { player, token: String(sent.body.token) };
  };
  const betBody = (s: { player: string; token: string }, over: Record<string, unknown> = {}) => ({
    user: s.player,
    transaction_uuid: uuid(),
    supplier_transaction_id: uuid(),
    token: s.token,
    round: uuid(),
    round_closed: false,
    request_uuid: uuid(),
    is_free: false,
    is_aggregated: false,
    game_code: 'clt_dragonrising',
    currency: 'BRL',
    bet: 'zero',
    amount: units('10.00'),
    ...over,
  });
  const winBody = (s: { player: string; token: string }, bet: { transaction_uuid: string; round: string }, over: Record<string, unknown> = {}) => ({
    ...betBody(s),
    reference_transaction_uuid: bet.transaction_uuid,
    round: bet.round,
    round_closed: true,
    amount: units('25.00'),
    ...over,
  });
  const rollbackBody = (s: { player: string; token: string }, bet: { transaction_uuid: string; round?: string }) => ({
    user: s.player,
    transaction_uuid: uuid(),
    supplier_transaction_id: uuid(),
    token: s.token,
    round: bet.round,
    round_closed: true,
    request_uuid: uuid(),
    reference_transaction_uuid: bet.transaction_uuid,
    game_code: 'clt_dragonrising',
  });
  const seen = new Set<Hub88Status>();
  const expectStatus = (t: Test, answer: { http: number; body: Hub88Answer }, status: Hub88Status, request: { request_uuid?: unknown }, what: string) => {
    t.equal(answer.http, 200, `${what}: HTTP 200`);
    t.equal(answer.body.status, status, what);
    t.equal(answer.body.request_uuid, request.request_uuid, `${what}: request_uuid echoed`);
    seen.add(answer.body.status);
  };
  const balanceOf = async (s: { player: string; token: string }) => {
    const r = await call('/user/balance', { user: s.player, token: s.token, request_uuid: uuid(), game_code: 'clt_dragonrising' });
    return hub88AmountToMoney(r.body.balance);
  };

  t.test('launch: /game/url signed with our key, the player as user, the session token, the brand as sub-partner', async (t) => {
    const s = await session(t);
    const sent = hub88.gameUrlRequests.at(-1)!;
    t.equal(sent.verified, true, 'our signature verified with the public key we handed Hub88');
    t.match(sent.body, {
      user: s.player,
      token: /^pst_/,
      sub_partner_id: live.brandId,
      operator_id: 4242,
      game_code: 'clt_dragonrising',
      currency: 'BRL',
      platform: 'GPL_DESKTOP',
    });
    const sessions = await games.sql<{ provider_url: string }>('select provider_url from wallet.game_sessions where player_id = ?', [s.player]);
    t.equal(sessions[0]?.provider_url, `https://games.hub88.test/launch/clt_dragonrising?token=${s.token}`, "the player is sent to Hub88's URL");
  });

  t.test("the document's request examples, replayed as published: answered in the documented shape", async (t) => {
    // Hub88's Wallet API reference (docs.hub88.io/developer-docs/operator-api-reference/wallet-api): its example
    // values, sent as they are. None of them names a player, token or bet of ours.
    const example = {
      user: 'john12345',
      transaction_uuid: '16d2dcfe-b89e-11e7-854a-58404eea6d16',
      supplier_transaction_id: '41ecc3ad-b181-4235-bf9d-acf0a7ad9730',
      token: '55b7518e-b89e-11e7-81be-58404eea6d16',
      supplier_user: 'cg_45141',
      round_closed: true,
      round: 'rNEMwgzJAOZ6eR3V',
      reward_uuid: 'a28f93f2-98c5-41f7-8fbb-967985acf8fe',
      request_uuid: '583c985f-fee6-4c0e-bbf5-308aad6265af',
      is_free: false,
      is_aggregated: false,
      game_code: 'clt_dragonrising',
      currency: 'EUR',
      bet: 'zero',
      amount: 100500,
      meta: { selection: 'home_team', odds: 2.5 },
    };
    const info = await call('/user/info', { user: example.user, request_uuid: example.request_uuid });
    expectStatus(t, info, 'RS_ERROR_UNKNOWN', example, '/user/info of a user we never launched');
    const balance = await call('/user/balance', { user: example.user, token: example.token, request_uuid: example.request_uuid, game_code: example.game_code });
    expectStatus(t, balance, 'RS_ERROR_INVALID_TOKEN', example, '/user/balance with a token we never issued');
    expectStatus(
      t,
      await call('/transaction/bet', example),
      'RS_ERROR_WRONG_TYPES',
      example,
      '/transaction/bet of 1.005 (100500): not a whole cent, never rounded',
    );
    const win = { ...example, transaction_uuid: '15d2dcfe-b89e-11e7-854a-58404eea6d16', reference_transaction_uuid: example.transaction_uuid, amount: 100000 };
    expectStatus(t, await call('/transaction/win', win), 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', example, '/transaction/win of a bet never made');
    const rollback = {
      user: example.user,
      transaction_uuid: '17d2dcfe-b89e-11e7-854a-58404eea6d16',
      supplier_transaction_id: example.supplier_transaction_id,
      token: example.token,
      round_closed: true,
      round: example.round,
      request_uuid: example.request_uuid,
      reference_transaction_uuid: example.transaction_uuid,
      game_code: example.game_code,
      meta: example.meta,
    };
    const rb = await call('/transaction/rollback', rollback);
    expectStatus(t, rb, 'RS_OK', example, '/transaction/rollback of a transaction we cannot find: RS_OK, as Hub88 asks');
    t.same(Object.keys(rb.body).sort(), ['request_uuid', 'status', 'user'], 'nothing else: no balance of a user we do not know');

    // The same examples with our session's player, token, game and currency: the documented answers.
    const s = await session(t, '50.00');
    const ours = { ...example, user: s.player, token: s.token, currency: 'BRL', transaction_uuid: uuid(), round: uuid(), amount: 1_000_000 };
    const bet = await call('/transaction/bet', ours);
    expectStatus(t, bet, 'RS_OK', ours, 'the bet');
    t.same(bet.body, { user: s.player, status: 'RS_OK', request_uuid: ours.request_uuid, currency: 'BRL', balance: units('40.00') }, 'the documented answer');
    const w = await call('/transaction/win', { ...ours, transaction_uuid: uuid(), reference_transaction_uuid: ours.transaction_uuid, amount: 2_550_000 });
    t.same(w.body, { user: s.player, status: 'RS_OK', request_uuid: ours.request_uuid, currency: 'BRL', balance: units('65.50') }, 'the win: 25.50 credited');
    const u = await call('/user/info', { user: s.player, request_uuid: ours.request_uuid });
    t.same(u.body, { user: s.player, status: 'RS_OK', request_uuid: ours.request_uuid, sub_partner_id: live.brandId, country: 'BR' }, 'the user info');
    t.equal(await balanceOf(s), '65.50');
  });

  t.test('signatures: Hub88 key in force only; a rotation keeps the old key for its overlap; a revoked key stops at once', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    expectStatus(t, await call('/transaction/bet', b, { signature: null }), 'RS_ERROR_INVALID_SIGNATURE', b, 'no signature');
    expectStatus(t, await call('/transaction/bet', b, { signature: 'not base64 !' }), 'RS_ERROR_INVALID_SIGNATURE', b, 'a malformed one');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expectStatus(
      t,
      await call('/transaction/bet', b, { signature: hub88.signed(b, stranger.privateKey).signature }),
      'RS_ERROR_INVALID_SIGNATURE',
      b,
      'another key',
    );
    const tampered = JSON.stringify({ ...b, amount: units('1.00') });
    expectStatus(
      t,
      await call('/transaction/bet', b, { raw: tampered, signature: hub88.signed(b).signature }),
      'RS_ERROR_INVALID_SIGNATURE',
      b,
      'a body changed after signing',
    );
    t.equal(await balanceOf(s), '100.00', 'none of them moved money');

    // Hub88 rotates its key: the new one uploaded with a 10-minute overlap, the old one keeps verifying.
    const next = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const added = await admin('POST', `${P}/production/their-keys`, {
      publicKey: next.publicKey.export({ type: 'pkcs1', format: 'pem' }),
      overlapMinutes: 10,
    });
    const withNew = betBody(s, { amount: units('1.00') });
    expectStatus(t, await call('/transaction/bet', withNew, { signature: hub88.signed(withNew, next.privateKey).signature }), 'RS_OK', withNew, 'the new key');
    const withOld = betBody(s, { amount: units('1.00') });
    expectStatus(t, await call('/transaction/bet', withOld), 'RS_OK', withOld, 'the old key during the overlap');
    await admin('POST', `${P}/production/keys/${added.id}/revoke`);
    const revoked = betBody(s, { amount: units('1.00') });
    expectStatus(
      t,
      await call('/transaction/bet', revoked, { signature: hub88.signed(revoked, next.privateKey).signature }),
      'RS_ERROR_INVALID_SIGNATURE',
      revoked,
      'a revoked key',
    );
    t.equal(await balanceOf(s), '98.00');
    const refused = await h.admin('POST', `${P}/production/their-keys`, {
      publicKey: '-----BEGIN PUBLIC KEY-----\nnot a key at all, just text long enough for the schema ........\n-----END PUBLIC KEY-----',
    });
    t.equal(refused.status, 422, 'a public key that does not parse is refused');
    t.match(refused.body.error, { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/publicKey' }] } });
  });

  t.test('syntax, types and amounts: refused with the documented status, nothing moves', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    expectStatus(t, await call('/transaction/bet', b, { raw: '{"user":' }), 'RS_ERROR_WRONG_SYNTAX', { request_uuid: undefined }, 'not JSON');
    const { transaction_uuid: _, ...missing } = b;
    expectStatus(t, await call('/transaction/bet', missing), 'RS_ERROR_WRONG_SYNTAX', b, 'a required member missing');
    expectStatus(t, await call('/transaction/bet', { ...b, amount: '1000000' }), 'RS_ERROR_WRONG_TYPES', b, 'an amount as a string');
    expectStatus(t, await call('/transaction/bet', { ...b, amount: 1000000.5 }), 'RS_ERROR_WRONG_TYPES', b, 'an amount with a fraction');
    expectStatus(t, await call('/transaction/bet', { ...b, amount: 1_000_500 }), 'RS_ERROR_WRONG_TYPES', b, '10.005: not a whole cent, never rounded');
    expectStatus(t, await call('/transaction/bet', { ...b, amount: -1_000_000 }), 'RS_ERROR_WRONG_TYPES', b, 'a negative amount');
    expectStatus(t, await call('/transaction/bet', { ...b, amount: 0 }), 'RS_ERROR_WRONG_TYPES', b, 'a bet of 0.00');
    expectStatus(t, await call('/transaction/bet', { ...b, round: 'a round with spaces' }), 'RS_ERROR_WRONG_TYPES', b, 'a round id our wallet cannot key');
    t.equal(await balanceOf(s), '100.00');
    t.equal((await call('/transaction/bet', { ...b, amount: 1_001_000 })).body.balance, units('89.99'), '10.01 exactly');
  });

  t.test('exactly once: a transaction_uuid moves money once, 20 copies at a time; the same uuid for another call is a duplicate', async (t) => {
    const s = await session(t);
    const b = betBody(s, { amount: units('7.50') });
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('/transaction/bet', b)));
    t.same(
      new Set(answers.map((a) => `${a.http} ${a.body.status} ${a.body.balance}`)),
      new Set([`200 RS_OK ${units('92.50')}`]),
      'every copy answered as the first',
    );
    t.equal(await balanceOf(s), '92.50', 'one debit');
    const again = await call('/transaction/bet', { ...b, request_uuid: uuid() });
    t.equal(again.body.balance, units('92.50'), 'a later retry: the first answer (request_uuid is its own)');
    const dup = { ...b, amount: units('8.00'), request_uuid: uuid() };
    expectStatus(t, await call('/transaction/bet', dup), 'RS_ERROR_DUPLICATE_TRANSACTION', dup, 'the same uuid, another amount');
    const w = winBody(s, b, { amount: units('10.00') });
    const wins = await Promise.all(Array.from({ length: 20 }, () => call('/transaction/win', w)));
    t.same(new Set(wins.map((a) => `${a.body.status} ${a.body.balance}`)), new Set([`RS_OK ${units('102.50')}`]), 'a win 20 times at once: one credit');
    const asBet = { ...betBody(s), transaction_uuid: w.transaction_uuid };
    expectStatus(t, await call('/transaction/bet', asBet), 'RS_ERROR_DUPLICATE_TRANSACTION', asBet, "a win's uuid reused for a bet");
    t.equal(await balanceOf(s), '102.50');
  });

  t.test(
    'twenty copies of every money call at once, in rounds of one bet and of two, each answered as the first; a big win paid (issue #66 items 5, 7)',
    async (t) => {
      const s = await session(t);
      const ids: string[] = [];
      /** Twenty copies of one call at once: each answer the same, its balance the one expected. */
      const twenty = async (path: string, body: { request_uuid: string; transaction_uuid: string }, balance: string, what: string) => {
        const answers = await Promise.all(Array.from({ length: 20 }, () => call(path, body)));
        t.same(
          [...new Set(answers.map((a) => `${a.http} ${JSON.stringify(a.body)}`))],
          [`200 ${JSON.stringify({ user: s.player, status: 'RS_OK', request_uuid: body.request_uuid, currency: 'BRL', balance: units(balance) })}`],
          `${what}: twenty copies, each answered as the first`,
        );
        ids.push(body.transaction_uuid);
      };
      // A round of one bet, won big (a jackpot's or a multiplier's prize, beyond a bet's cap).
      const one = betBody(s, { amount: units('7.00') });
      await twenty('/transaction/bet', one, '93.00', 'a bet');
      await twenty('/transaction/win', winBody(s, one, { amount: units('63727092.34') }), '63727185.34', 'a win of 63,727,092.34');
      // A round of two bets: the first rolled back, the round then won.
      const first = betBody(s, { amount: units('10.00') });
      const second = betBody(s, { amount: units('5.00'), round: first.round });
      await twenty('/transaction/bet', first, '63727175.34', 'the first bet of a round of two');
      await twenty('/transaction/bet', second, '63727170.34', 'the second bet');
      await twenty('/transaction/rollback', rollbackBody(s, first), '63727180.34', 'a rollback of the first bet');
      await twenty('/transaction/win', winBody(s, second, { amount: units('3.00') }), '63727183.34', 'the win of the round');
      // A round of one bet, rolled back.
      const lone = betBody(s, { amount: units('2.00') });
      await twenty('/transaction/bet', lone, '63727181.34', 'a bet');
      await twenty('/transaction/rollback', rollbackBody(s, lone), '63727183.34', 'its rollback');
      t.equal(await balanceOf(s), '63727183.34', 'each call moved money once');
      const sources = ids.map((x) => `provider:${provider.id}:${x}`);
      const ledger = await games.sql<{ source: string; n: number }>(
        `select source, count(*)::int as n from wallet.ledger_transactions where source = any(?::text[]) group by source`,
        [sources],
      );
      const bySource = (a: { source: string }, b: { source: string }) => (a.source < b.source ? -1 : 1);
      t.same(ledger.sort(bySource), sources.map((source) => ({ source, n: 1 })).sort(bySource), 'one ledger transaction per call');
    },
  );

  t.test('rollbacks: once; before their bet (RS_OK, the bet then refused); of a bet settled; never a second refund', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    await call('/transaction/bet', b);
    const rb = rollbackBody(s, b);
    const first = await call('/transaction/rollback', rb);
    expectStatus(t, first, 'RS_OK', rb, 'the rollback');
    t.equal(first.body.balance, units('100.00'), 'the stake back');
    t.equal((await call('/transaction/rollback', rb)).body.balance, units('100.00'), 'the same rollback again: its first answer');
    t.equal((await call('/transaction/rollback', rollbackBody(s, b))).body.balance, units('100.00'), 'another rollback of the bet: nothing more');
    const winOfRolledBack = winBody(s, b);
    expectStatus(t, await call('/transaction/win', winOfRolledBack), 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', winOfRolledBack, 'a win of a rolled-back bet');

    const late = betBody(s);
    const early = rollbackBody(s, late);
    expectStatus(t, await call('/transaction/rollback', early), 'RS_OK', early, 'a rollback of a bet not received yet');
    t.equal((await call('/transaction/rollback', early)).body.balance, units('100.00'));
    expectStatus(t, await call('/transaction/bet', late), 'RS_ERROR_DUPLICATE_TRANSACTION', late, 'the bet arriving after its rollback');
    const noRound = rollbackBody(s, { transaction_uuid: late.transaction_uuid });
    expectStatus(t, await call('/transaction/rollback', noRound), 'RS_OK', noRound, 'a rollback without a round finds its bet');

    const settledBet = betBody(s);
    await call('/transaction/bet', settledBet);
    await call('/transaction/win', winBody(s, settledBet, { amount: 0 }));
    t.equal(await balanceOf(s), '90.00', 'the bet settled lost');
    const tooLate = rollbackBody(s, settledBet);
    const refunded = await call('/transaction/rollback', tooLate);
    expectStatus(t, refunded, 'RS_OK', tooLate, 'a rollback of a bet whose round is settled: Hub88 cancels the bet');
    t.equal(refunded.body.balance, units('100.00'), 'its stake back');
    t.equal((await call('/transaction/rollback', { ...tooLate, request_uuid: uuid() })).body.balance, units('100.00'), 'sent again: its first answer');
    const ledger = await games.sql<{ type: string; amount: string }>(
      `select e.type, e.amount::text from wallet.ledger_transactions lt join wallet.ledger_entries e on e.transaction_id = lt.id
       where lt.source = ? and e.account_seq is not null`,
      [`provider:${provider.id}:${tooLate.transaction_uuid}`],
    );
    t.same(ledger, [{ type: 'CORRECTION', amount: '10.00' }], "one credit, a correction of the settled round (the native API's way)");

    // Two bets in one round, the first rolled back: the round stays open, and a win naming the
    // rolled-back bet is still refused (the wallet's win statement checks its bet), nothing credited.
    const gone = betBody(s);
    const live = betBody(s, { round: gone.round });
    await call('/transaction/bet', gone);
    await call('/transaction/bet', live);
    await call('/transaction/rollback', rollbackBody(s, gone));
    const winOfFirst = winBody(s, gone);
    expectStatus(
      t,
      await call('/transaction/win', winOfFirst),
      'RS_ERROR_TRANSACTION_DOES_NOT_EXIST',
      winOfFirst,
      'a win of a rolled-back bet in an open round',
    );
    t.equal(await balanceOf(s), '90.00', 'nothing credited: the second bet alone is taken (100.00 before)');
    const winOfSecond = winBody(s, live);
    expectStatus(t, await call('/transaction/win', winOfSecond), 'RS_OK', winOfSecond, 'its round still takes the win of its live bet');
    t.equal(await balanceOf(s), '115.00');
  });

  t.test('wins: after the session (token not checked), of an unknown bet, of another player, on a settled round', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    await call('/transaction/bet', b);
    await games.sql(`update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where player_id = ?`, [
      s.player,
    ]);
    const next = betBody(s);
    expectStatus(t, await call('/transaction/bet', next), 'RS_ERROR_TOKEN_EXPIRED', next, 'a bet needs a live session');
    const w = winBody(s, b, { token: 'expired-or-anything', round_closed: false });
    expectStatus(t, await call('/transaction/win', w), 'RS_OK', w, 'a win after the session ends');
    t.equal(await balanceOf(s), '115.00', 'the balance still reads after the session');
    const other = await session(t);
    const stolen = winBody(other, b);
    expectStatus(t, await call('/transaction/win', stolen), 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', stolen, "a win naming another player's bet");
    const closing = winBody(s, b, { amount: 0, round_closed: true });
    expectStatus(t, await call('/transaction/win', closing), 'RS_OK', closing, 'the closing win of 0');
    const afterClose = winBody(s, b);
    const late = await call('/transaction/win', afterClose);
    expectStatus(t, late, 'RS_OK', afterClose, 'a win of a live bet after its round was settled: still owed, paid');
    t.equal(late.body.balance, units('140.00'), '25.00 credited as a correction of the settled round');
    t.equal((await call('/transaction/win', { ...afterClose, request_uuid: uuid() })).body.balance, units('140.00'), 'sent again: its first answer');
    const wrongCurrency = winBody(s, betBody(s), { currency: 'USD' });
    t.equal((await call('/transaction/win', wrongCurrency)).body.status, 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', 'its bet was never taken');
  });

  t.test("a win's bet is part of its identity: the same transaction_uuid naming another bet is a duplicate", async (t) => {
    const s = await session(t);
    const round = uuid();
    const first = betBody(s, { round, amount: units('5.00') });
    const second = betBody(s, { round, amount: units('5.00') });
    await call('/transaction/bet', first);
    await call('/transaction/bet', second);
    const w = winBody(s, first, { round_closed: false, amount: units('8.00') });
    expectStatus(t, await call('/transaction/win', w), 'RS_OK', w, 'the win of the first bet');
    const other = { ...w, reference_transaction_uuid: second.transaction_uuid, request_uuid: uuid() };
    expectStatus(t, await call('/transaction/win', other), 'RS_ERROR_DUPLICATE_TRANSACTION', other, 'the same uuid naming the other bet of the round');
    t.equal((await call('/transaction/win', { ...w, request_uuid: uuid() })).body.balance, units('98.00'), 'the same win again: its first answer');
    t.equal(await balanceOf(s), '98.00', 'one credit: 100 - 5 - 5 + 8');
  });

  t.test('round_closed on a bet: the round ends with it; its rollback still refunds it', async (t) => {
    const s = await session(t);
    const b = betBody(s, { round_closed: true, amount: units('4.00') });
    expectStatus(t, await call('/transaction/bet', b), 'RS_OK', b, 'a bet closing its round');
    const [round] = await games.sql<{ status: string; wins: number }>(
      'select status, wins from wallet.provider_rounds where provider_id = ? and round_id = ?',
      [provider.id, b.round],
    );
    t.same(round, { status: 'settled', wins: 1 }, 'the round is settled, by a win of 0.00');
    t.equal((await call('/transaction/bet', { ...b, request_uuid: uuid() })).body.balance, units('96.00'), 'the bet sent again: its first answer');
    const next = betBody(s, { round: b.round, amount: units('1.00') });
    expectStatus(t, await call('/transaction/bet', next), 'RS_ERROR_UNKNOWN', next, 'no more bets in a closed round');
    const moves = await games.sql<{ n: number }>('select count(*)::int as n from wallet.ledger_transactions where source = ?', [
      `provider:${provider.id}:close:${b.transaction_uuid}`,
    ]);
    t.equal(moves[0]!.n, 0, 'the close moved no money');
    const rb = rollbackBody(s, b);
    const refunded = await call('/transaction/rollback', rb);
    expectStatus(t, refunded, 'RS_OK', rb, "Hub88's rollback of that bet (its answer lost, say)");
    t.equal(refunded.body.balance, units('100.00'), 'the stake back');
  });

  t.test("every refusal of a bet, Brazil's rules included; wins and rollbacks still paid", async (t) => {
    const s = await session(t);
    const refused = async (t: Test, what: string, body: Record<string, unknown>, status: Hub88Status) =>
      expectStatus(t, await call('/transaction/bet', body), status, body, what);
    await refused(t, 'an unknown token', betBody(s, { token: 'pst_never-issued' }), 'RS_ERROR_INVALID_TOKEN');
    const other = await session(t);
    await refused(t, "another user's token", betBody(s, { token: other.token }), 'RS_ERROR_INVALID_TOKEN');
    await refused(t, 'another currency', betBody(s, { currency: 'USD' }), 'RS_ERROR_WRONG_CURRENCY');
    await refused(t, 'an unknown game', betBody(s, { game_code: 'no_such_game' }), 'RS_ERROR_INVALID_GAME');
    await admin('PUT', `/admin/providers/${provider.id}/games/evo_lightningroulette`, {
      name: 'Lightning Roulette',
      category: 'Live Roulette',
      enabled: false,
    });
    await refused(t, 'a disabled game', betBody(s, { game_code: 'evo_lightningroulette' }), 'RS_ERROR_INVALID_GAME');
    const rich = betBody(s, { amount: units('100.01') });
    const poor = await call('/transaction/bet', rich);
    expectStatus(t, poor, 'RS_ERROR_NOT_ENOUGH_MONEY', rich, 'more than the balance');
    t.same({ balance: poor.body.balance, currency: poor.body.currency }, { balance: units('100.00'), currency: 'BRL' }, 'with the balance, as Hub88 asks');
    // Issue #59: a free bet (Hub88's Freebets API) takes nothing from the player; its win is credited (FREE_BET_WIN).
    const free = betBody(other, { is_free: true, reward_uuid: uuid(), amount: units('2.00') });
    t.match((await call('/transaction/bet', free)).body, { status: 'RS_OK', balance: units('100.00') }, 'a free bet: accepted, nothing taken');
    t.match((await call('/transaction/bet', free)).body, { status: 'RS_OK', balance: units('100.00') }, 'sent again: the same answer');
    t.match(
      (await call('/transaction/win', winBody(other, free, { amount: units('3.00') }))).body,
      { status: 'RS_OK', balance: units('103.00') },
      'its win credited',
    );

    // A round open before the player's standing changes: its win and rollback are paid after.
    const open = betBody(s, { amount: units('5.00') });
    await call('/transaction/bet', open);
    const spare = betBody(s, { amount: units('5.00') });
    await call('/transaction/bet', spare);

    const wager = await games.call('players.rg.setLimit', live, { params: { playerId: s.player, type: 'wager', period: 'day' }, body: { value: '15.00' } });
    t.equal(wager.ok, true, 'a wager limit of 15.00 a day');
    await refused(t, 'a wager limit', betBody(s, { amount: units('6.00') }), 'RS_ERROR_LIMIT_REACHED');

    await admin('PUT', `/admin/providers/${provider.id}`, { status: 'disabled' });
    await refused(t, 'the provider disabled', betBody(s, { amount: units('1.00') }), 'RS_ERROR_INVALID_PARTNER');
    await admin('PUT', `/admin/providers/${provider.id}`, { status: 'enabled' });
    await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: false });
    await refused(t, 'not offered to the operator', betBody(s, { amount: units('1.00') }), 'RS_ERROR_INVALID_PARTNER');
    await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
    await admin('POST', `/admin/operators/${live.operatorId}/suspend`);
    await refused(t, 'the operator suspended', betBody(s, { amount: units('1.00') }), 'RS_ERROR_INVALID_PARTNER');
    await admin('POST', `/admin/operators/${live.operatorId}/resume`);

    const excluded = await games.call('players.rg.selfExclude', live, { params: { playerId: s.player }, body: { months: 1 } });
    t.equal(excluded.ok, true, 'the player self-excludes');
    await refused(t, 'self-excluded', betBody(s, { amount: units('1.00') }), 'RS_ERROR_USER_DISABLED');
    const w = winBody(s, open, { amount: units('12.00') });
    expectStatus(t, await call('/transaction/win', w), 'RS_OK', w, 'the win of a round open before: paid');
    const rb = rollbackBody(s, spare);
    expectStatus(t, await call('/transaction/rollback', rb), 'RS_OK', rb, 'the rollback of a bet before: refunded');
    t.equal(await balanceOf(s), '107.00', '100 - 5 - 5 + 12 + 5');

    const blocked = await session(t);
    const paused = await games.call('players.rg.pause', live, {
      params: { playerId: blocked.player },
      body: { until: new Date(Date.now() + 86_400_000).toISOString() },
    });
    if (paused.ok) await refused(t, 'paused', betBody(blocked, { amount: units('1.00') }), 'RS_ERROR_USER_DISABLED');
    else t.fail(`pause: ${JSON.stringify(paused)}`);
    const frozen = await session(t);
    const status = await games.call(
      'players.admin.status',
      { kind: 'admin', actor: 'test-admin' },
      { params: { id: frozen.player }, body: { status: 'bloqueado' } },
    );
    t.equal(status.ok, true, 'a player blocked by our team');
    await refused(t, 'a blocked player', betBody(frozen, { amount: units('1.00') }), 'RS_ERROR_USER_DISABLED');
  });

  t.test('the partner: an unknown provider, a native one, an address outside the allow-list', async (t) => {
    const b = { user: 'x', token: 'y', request_uuid: uuid() };
    const at = async (url: string) => {
      const signed = hub88.signed(b);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub88-signature': signed.signature },
        body: signed.text,
      });
      return { http: res.status, body: (await res.json()) as Hub88Answer };
    };
    expectStatus(t, await at(`${gw.publicUrl}/connectors/hub88/prv_nobody/production/user/balance`), 'RS_ERROR_INVALID_PARTNER', b, 'an unknown provider');
    const native = await admin('POST', '/admin/providers', { name: `Native ${randomBytes(3).toString('hex')}`, kind: 'casino' });
    t.equal(native.protocol, 'native', 'native unless said');
    expectStatus(t, await at(`${gw.publicUrl}/connectors/hub88/${native.id}/production/user/balance`), 'RS_ERROR_INVALID_PARTNER', b, 'a native provider');
    expectStatus(t, await at(`${base.replace('/production', '/staging')}/user/balance`), 'RS_ERROR_INVALID_PARTNER', b, 'no such environment');
    await admin('PUT', `/admin/providers/${provider.id}`, { allowedIps: ['203.0.113.0/24'] });
    expectStatus(t, await at(`${base}/user/balance`), 'RS_ERROR_INVALID_PARTNER', b, 'a caller outside the allow-list');
    await admin('PUT', `/admin/providers/${provider.id}`, { allowedIps: [] });
    const nativeConnector = await h.admin('PUT', `/admin/providers/${native.id}/connector/production`, { settings: { operatorId: 1, apiBaseUrl: hub88.url } });
    t.equal(nativeConnector.status, 422, 'a native provider has no connector to set');
  });

  t.test('every status of Hub88 table was answered where it belongs', async (t) => {
    t.same(
      [...HUB88_STATUSES].filter((s) => !seen.has(s)),
      [],
      'none missing',
    );
  });

  t.test("the connector's traffic is the provider wallet's: the regulator's lines list it; the health counts it; the ledger verifies", async (t) => {
    const s = await session(t);
    const b = betBody(s, { amount: units('3.00') });
    await call('/transaction/bet', b);
    const moves = await games.call(regulatorProviderMessages.providerMoves.subject, gatewayScope, {
      body: { brandId: live.brandId, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), limit: 1000 },
    });
    if (!moves.ok) t.fail(JSON.stringify(moves));
    const lines = JSON.stringify(moves.ok ? moves.body : {});
    t.ok(lines.includes(b.transaction_uuid), "the bet is one of the regulator file's lines, under Hub88's transaction_uuid");
    // The bet's UTC day (a run across midnight reads the day before too).
    const brandOn = async (day: string) =>
      (await admin('GET', `/admin/providers/${provider.id}/daily-report?date=${day}`)).brands.find((x: { brandId: string }) => x.brandId === live.brandId);
    const brand = (await brandOn(new Date().toISOString().slice(0, 10))) ?? (await brandOn(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)));
    t.ok(brand && brand.bets.count > 0 && brand.ties, "the provider's daily report counts Hub88's bets, tied to its clearing account's ledger");
    const health = await waitFor(
      async () => {
        const v = await admin('GET', P);
        const env = v.environments.find((e: any) => e.environment === 'production');
        return env.health.calls > 0 && env.health.byStatus.RS_OK > 0 ? env.health : undefined;
      },
      { what: 'the health report' },
    );
    t.match(health, { lastCallAt: String, byStatus: { RS_OK: Number, RS_ERROR_INVALID_SIGNATURE: Number } }, 'the health: last call, answers by status');
    t.ok(health.errorRate > 0 && health.errorRate < 1, 'an error rate between 0 and 1');
    const v = await games.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
  });

  t.test("a sync after Hub88's list changed: names updated, games it dropped disabled", async (t) => {
    hub88.games = [{ game_code: 'clt_dragonrising', name: 'Dragon Rising Deluxe', category: 'Video Slots', enabled: true }];
    t.same(await admin('POST', `${P}/production/sync-games`), { added: 0, updated: 1, disabled: 0, total: 1 }, 'the roulette was already disabled');
    hub88.trust(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) as string);
    const r = await h.admin('POST', `${P}/production/sync-games`);
    t.equal(r.status, 502, 'Hub88 refusing our signature: 502');
    t.equal(r.body.error.code, 'PROVIDER_UNAVAILABLE');
  });
  t.test('our keys: a rotation signs with the old pair until its overlap ends; a later one supersedes it; sealed at rest; every change audited', async (t) => {
    hub88.trust(ours.publicKey);
    const waiting = await admin('POST', `${P}/production/our-keys`, { overlapMinutes: 10 });
    t.equal(waiting.status, 'pending', 'the new pair waits for the overlap');
    const mid = (await admin('GET', P)).environments.find((e: any) => e.environment === 'production').keys;
    t.equal(mid.find((k: any) => k.id === ours.id).status, 'expiring', 'the pair in use signs until then');
    await session(t);
    t.equal(hub88.gameUrlRequests.at(-1)!.verified, true, 'the launch is still signed with the pair Hub88 has');
    const now = await admin('POST', `${P}/production/our-keys`, { overlapMinutes: 0 });
    const after = (await admin('GET', P)).environments.find((e: any) => e.environment === 'production').keys;
    t.same(
      Object.fromEntries([ours.id, waiting.id, now.id].map((id) => [id, after.find((k: any) => k.id === id).status])),
      { [ours.id]: 'expired', [waiting.id]: 'revoked', [now.id]: 'active' },
      'a rotation at once: the new pair signs, the waiting one never will',
    );
    hub88.trust(now.publicKey);
    await session(t);
    t.equal(hub88.gameUrlRequests.at(-1)!.verified, true, 'the launch signed with the new pair');
    const [row] = await games.sql<{ sealed: string }>('select private_key_sealed as sealed from wallet.provider_connector_keys where id = ?', [now.id]);
    t.notMatch(row!.sealed, /PRIVATE|BEGIN/, 'the private key is sealed at rest');
    const opened = createPrivateKey(openSecret(row!.sealed, DEV_MASTER_KEY));
    t.equal(String(createPublicKey(opened).export({ type: 'spki', format: 'pem' })), now.publicKey, 'and opens to the pair whose public key we handed over');
    const audited = await waitFor(
      async () => {
        const r = await admin('GET', `/admin/audit?target=provider:${provider.id}&limit=100`);
        const actions = new Set((r.data as Array<{ action: string }>).map((a) => a.action));
        const want = [
          'adminSetConnectorSettings',
          'adminAddConnectorTheirKey',
          'adminRotateConnectorOurKey',
          'adminRevokeConnectorKey',
          'adminSyncConnectorGames',
        ];
        return want.every((a) => actions.has(a)) ? r.data : undefined;
      },
      { what: "the connector changes' audit rows" },
    );
    t.notMatch(JSON.stringify(audited), /PRIVATE KEY/, 'no audit row holds a private key');
  });
});
