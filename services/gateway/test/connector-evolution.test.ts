// Evolution's One Wallet through the real gateway, to the real wallet and players services (issue
// #58, docs/connectors-evolution.md): a provider registered with protocol evolution, its connector
// set up by our team (Evolution's casino key and host, its API token and casino token kept sealed),
// its tables in our catalogue and launched through Evolution's User Authentication API, then
// Evolution's calls as valkyrie-fnd/valkyrie documents them, with the API token as `authToken`. The
// document's own request examples are replayed as published; every status of our mapping is
// answered where it belongs; a transaction id moves money once, twenty copies at a time included;
// the licensee test cases of valkyrie's copy (a second credit or cancel of a bet, a cancel of a bet
// never made, a credit after a cancel, two bets of a game settled one way and the other) hold; wins
// and cancels are paid whatever became of the session or the player; the ledger verifies.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  EVOLUTION_STATUSES,
  EVOLUTION_UNUSED_STATUSES,
  regulatorProviderMessages,
  type EvolutionStatus,
  type EvolutionWireAnswer,
  type OperatorScope,
} from '@bo/contracts';
import { DEV_MASTER_KEY, openSecret } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';
import { gatewayScope, startEvolutionStandin, startGamesStack } from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';
import { startHarness } from './support/harness.ts';

const id = () => randomBytes(6).toString('hex');

t.test('Evolution connector', async (t) => {
  // A deadline no call of a busy machine reaches: these tests are about answers, not about timeouts.
  const h = await startHarness({ RPC_TIMEOUT_MS: '30000' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: gw.publicUrl }, { prefix: h.prefix });
  const op = await h.createOperator({ name: `Evolution Casino ${randomBytes(3).toString('hex')}` });
  const me = await op.productionClient.get('/me');
  const live: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: me.body.brand.id, environment: 'production', currency: 'BRL' };
  const evo = await startEvolutionStandin(t);

  const admin = async (method: string, path: string, body?: unknown, expected = [200, 201]) => {
    const r = await h.admin(method, path, body);
    if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  // Our team's side: register, set up the connector, the tables in our catalogue, offered to the operator.
  const provider = await admin('POST', '/admin/providers', { name: `Evolution ${randomBytes(3).toString('hex')}`, kind: 'casino', protocol: 'evolution' });
  t.match(provider, { id: /^prv_/, protocol: 'evolution', status: 'enabled' }, 'registered with its protocol');
  const P = `/admin/providers/${provider.id}/connector`;
  const wrong = await h.admin('PUT', `${P}/production`, { settings: { operatorId: 1, apiBaseUrl: evo.url } });
  t.equal(wrong.status, 422, "Hub88's settings on an Evolution connector are refused");
  t.match(wrong.body.error, { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/settings' }] } });
  await admin('PUT', `${P}/production`, { settings: { casinoKey: evo.casinoKey, apiBaseUrl: evo.url } });
  const authToken = await admin('POST', `${P}/production/secrets`, { name: 'authToken', value: evo.authToken });
  t.match(authToken, { id: /^cs_/, name: 'authToken', owner: 'theirs', status: 'active', fingerprint: /^[0-9a-f]{16}$/ });
  t.notOk(JSON.stringify(authToken).includes(evo.authToken), 'a secret is never answered');
  await admin('POST', `${P}/production/secrets`, { name: 'casinoToken', value: evo.casinoToken });
  const hub88Secret = await h.admin('POST', `${P}/production/secrets`, { name: 'nonsense', value: 'x'.repeat(12) });
  t.equal(hub88Secret.status, 422, 'a secret the protocol does not keep is refused');
  const noList = await h.admin('POST', `${P}/production/sync-games`);
  t.equal(noList.status, 422, 'no game list API to sync from: the tables are put in the catalogue by hand');
  const table = await admin('PUT', `/admin/providers/${provider.id}/games/vctlz20yfnmp1ylr`, { name: 'Lightning Roulette', category: 'live' });
  await admin('PUT', `/admin/providers/${provider.id}/games/LightningTable01`, { name: 'Lightning Baccarat', category: 'live' });
  await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
  const view = await admin('GET', P);
  const production = view.environments.find((e: any) => e.environment === 'production');
  t.equal(production.endpointUrl, `${gw.publicUrl}/connectors/evolution/${provider.id}/production`, 'the endpoint URL we hand Evolution');
  t.same(
    production.secrets.map((s: any) => `${s.name} ${s.owner} ${s.status}`).sort(),
    ['authToken theirs active', 'casinoToken ours active'],
    'the secrets listed, never their values',
  );
  const base = production.endpointUrl as string;

  /** A call as Evolution makes it: the exact bytes, the API token as `authToken`. */
  const call = async (path: string, body: unknown, o: { token?: string | null; raw?: string } = {}): Promise<{ http: number; body: EvolutionWireAnswer }> => {
    const token = o.token === undefined ? evo.authToken : o.token;
    const res = await fetch(`${base}${path}${token === null ? '' : `?authToken=${encodeURIComponent(token)}`}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: o.raw ?? JSON.stringify(body),
    });
    return { http: res.status, body: (await res.json()) as EvolutionWireAnswer };
  };

  /** A funded player with a session of an Evolution table: Evolution got the sid through its UA API. */
  const session = async (t: Test, funds = '100.00', gameId = table.id) => {
    const player = await games.createPlayer(live, { kyc: 'aprovado' });
    if (funds !== '0.00') await games.credit(live, player, funds);
    const before = evo.launches.length;
    await games.openSession(t, live, player, gameId);
    t.equal(evo.launches.length, before + 1, "the launch asked Evolution's UA API");
    return { player, sid: evo.launches.at(-1)!.body.player.session.id };
  };
  type S = { player: string; sid: string };
  const game = (round: string, tableId = 'vctlz20yfnmp1ylr') => ({ id: round, type: 'roulette', details: { table: { id: tableId, vid: tableId } } });
  const debitBody = (s: S, over: { amount?: number; round?: string; refId?: string; id?: string; tableId?: string; currency?: string; sid?: string } = {}) => ({
    sid: over.sid ?? s.sid,
    userId: s.player,
    currency: over.currency ?? 'BRL',
    game: game(over.round ?? id(), over.tableId),
    transaction: { id: over.id ?? id(), refId: over.refId ?? id(), amount: over.amount ?? 10 },
    uuid: randomUUID(),
  });
  type Tx = ReturnType<typeof debitBody>;
  /** A credit of a bet: a transaction of its own naming the debit's refId and game. */
  const creditOf = (d: Tx, amount: number, over: { id?: string } = {}) => ({
    ...d,
    transaction: { id: over.id ?? id(), refId: d.transaction.refId, amount },
    uuid: randomUUID(),
  });
  /** A cancel of a debit: its own transaction id, refId and amount (valkyrie's licensee tests send them). */
  const cancelOf = (d: Tx) => ({ ...d, uuid: randomUUID() });
  const seen = new Set<EvolutionStatus>();
  const expectStatus = (
    t: Test,
    a: { http: number; body: EvolutionWireAnswer },
    status: EvolutionStatus,
    request: { uuid?: string },
    what: string,
    http = 200,
  ) => {
    t.equal(a.http, http, `${what}: HTTP ${http}`);
    t.equal(a.body.status, status, what);
    if (request.uuid !== undefined) t.equal(a.body.uuid, request.uuid, `${what}: uuid echoed`);
    seen.add(a.body.status);
  };
  const balanceOf = async (s: S) => {
    const r = await call('/balance', { sid: s.sid, userId: s.player, currency: 'BRL', game: null, uuid: randomUUID() });
    return r.body.balance;
  };

  t.test('launch: the UA API with our casino key and token, the player as player.id, the session token as its session id', async (t) => {
    const s = await session(t);
    const sent = evo.launches.at(-1)!;
    t.equal(sent.accepted, true, 'our casino key and casino token, opened from their sealed column');
    t.match(sent.body, {
      player: { id: s.player, update: true, country: 'BR', language: 'pt', currency: 'BRL', session: { id: /^pst_/ } },
      config: { brand: { id: live.brandId }, game: { table: { id: 'vctlz20yfnmp1ylr' } }, channel: { wrapped: false } },
    });
    t.notOk('firstName' in sent.body.player || 'lastName' in sent.body.player, 'nothing personal: no name');
    const rows = await games.sql<{ provider_url: string }>('select provider_url from wallet.game_sessions where player_id = ?', [s.player]);
    t.equal(rows[0]?.provider_url, `${evo.url}/entry?params=vctlz20yfnmp1ylr&JSESSIONID=${s.sid}`, "the player is sent to Evolution's entry");
  });

  t.test("the document's request examples, replayed as published: answered in the documented shape", async (t) => {
    // valkyrie's controller test, "… example from specs": Evolution's own examples, sent as they are.
    // None of them names a session of ours.
    const examples: Array<[string, string]> = [
      [
        '/balance',
        `{"sid":"sid-parameter-from-UserAuthentication-call","userId":"euID-parameter-from-UserAuthentication-call","game": null,"currency":"EUR","uuid":"ce186440-ed92-11e3-ac10-0800200c9a66"}`,
      ],
      [
        '/debit',
        `{"sid":"sid-parameter-from-UserAuthentication-call","userId":"euID-parameter-from-UserAuthentication-call","currency":"EUR","game":{"id":"7kfwqku4jb4mtas1n4k4irqa","type":"blackjack","details" : {"table" : {"id" : "aaabbbcccdddeee111","vid" : "aaabbbcccdddeee111"}}},"transaction":{"id":"9AotBIvi23","refId":"1459zzz","amount":1.556179},"uuid":"ce186440-ed92-11e3-ac10-0800200c9a66"}`,
      ],
      [
        '/credit',
        `{"sid":"sid-parameter-from-UserAuthentication-call","userId":"euID-parameter-from-UserAuthentication-call","currency":"EUR","game":{"id":"7kfwqku4jb4mtas1n4k4irqa","type":"blackjack","details" : {"table" : {"id" : "aaabbbcccdddeee111","vid" : "aaabbbcccdddeee111"}}},"transaction":{"id":"K4FOqh17v0","refId":"1459zzz","amount":1.556179},"uuid":"ce186440-ed92-11e3-ac10-0800200c9a66"}`,
      ],
      [
        '/cancel',
        `{"transaction": {"id": "9AotBIvi23","refId": "1459zzz","amount": 1.556179},"sid": "sid-parameter-from-UserAuthentication-call","userId": "euID-parameter-from-UserAuthentication-call","uuid": "ce186440-ed92-11e3-ac10-0800200c9a66","currency": "EUR","game": {"id": "7kfwqku4jb4mtas1n4k4irqa","type": "blackjack","details": {"table": {"id": "aaabbbcccdddeee111","vid": "aaabbbcccdddeee111"}}}}`,
      ],
      [
        '/promo_payout',
        `{"sid": "sid-parameter-from-UserAuthentication-call","userId": "euID-parameter-from-UserAuthentication-call","currency": "EUR","game": null,"promoTransaction": {"type": "FreeRoundPlayableSpent","id": "TD1459zzz","amount": 1.556179,"voucherId": "d82ce074-bd5a-11eb-8529-0242ac130003","remainingRounds": 0},"uuid": "ce186440-ed92-11e3-ac10-0800200c9a66"}`,
      ],
    ];
    for (const [path, raw] of examples) {
      const a = await call(path, undefined, { raw });
      expectStatus(t, a, 'INVALID_SID', { uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, `${path}: a sid we never issued`);
      t.same(Object.keys(a.body).sort(), ['balance', 'bonus', 'status', 'uuid'], `${path}: the standard answer's members`);
      t.same([a.body.balance, a.body.bonus], [0, 0], `${path}: no balance of a user we do not know`);
    }
    const check = await call('/check', undefined, {
      raw: `{"sid":"sid-parameter-from-UserAuthentication-call","userId":"euID-parameter-from-UserAuthentication-call","channel":{"type":"P"},"uuid":"ce186440-ed92-11e3-ac10-0800200c9a66"}`,
    });
    expectStatus(t, check, 'INVALID_SID', { uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/check of a sid we never issued');
    t.same(
      check.body,
      { status: 'INVALID_SID', sid: 'sid-parameter-from-UserAuthentication-call', uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' },
      "/check's shape",
    );

    // The same examples with our session: the documented answers.
    const s = await session(t, '50.00');
    const ours = (raw: string) =>
      raw
        .replaceAll('sid-parameter-from-UserAuthentication-call', s.sid)
        .replaceAll('euID-parameter-from-UserAuthentication-call', s.player)
        .replaceAll('"EUR"', '"BRL"')
        .replaceAll('aaabbbcccdddeee111', 'vctlz20yfnmp1ylr');
    const c = await call('/check', undefined, {
      raw: ours(
        `{"sid":"sid-parameter-from-UserAuthentication-call","userId":"euID-parameter-from-UserAuthentication-call","channel":{"type":"P"},"uuid":"ce186440-ed92-11e3-ac10-0800200c9a66"}`,
      ),
    });
    t.same(c.body, { status: 'OK', sid: s.sid, uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/check: OK, the same sid');
    const b = await call('/balance', undefined, { raw: ours(examples[0]![1]) });
    t.same(b.body, { status: 'OK', balance: 50, bonus: 0, uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/balance: the documented answer');
    const exact = await call('/debit', undefined, { raw: ours(examples[1]![1]) });
    expectStatus(t, exact, 'INVALID_PARAMETER', { uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/debit of 1.556179: not a whole cent, never rounded');
    t.equal(exact.body.balance, 50, 'with the balance, untouched');
    const d = await call('/debit', undefined, { raw: ours(examples[1]![1]).replace('1.556179', '1.55') });
    t.same(d.body, { status: 'OK', balance: 48.45, bonus: 0, uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/debit of 1.55: the documented answer');
    const cr = await call('/credit', undefined, { raw: ours(examples[2]![1]).replace('1.556179', '3.10') });
    t.same(cr.body, { status: 'OK', balance: 51.55, bonus: 0, uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/credit of 3.10: the bet settled');
    const cn = await call('/cancel', undefined, { raw: ours(examples[3]![1]).replace('1.556179', '1.55') });
    expectStatus(t, cn, 'BET_ALREADY_SETTLED', { uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/cancel of a credited bet');
    // Issue #59: free rounds' winnings Evolution funds are credited (FREE_BET_WIN), once (off: not br-spa).
    const promo = await call('/promo_payout', undefined, { raw: ours(examples[4]![1]).replace('1.556179', '1.00') });
    t.same(promo.body, { status: 'OK', balance: 52.55, bonus: 0, uuid: 'ce186440-ed92-11e3-ac10-0800200c9a66' }, '/promo_payout of 1.00: credited');
    const again = await call('/promo_payout', undefined, { raw: ours(examples[4]![1]).replace('1.556179', '1.00') });
    t.same(again.body, promo.body, 'sent again: the same answer, nothing more credited');
    t.equal(await balanceOf(s), 52.55);
  });

  t.test('the API token: Evolution’s in force only; a rotation keeps the old one for its overlap; a revoked one stops at once', async (t) => {
    const s = await session(t);
    const d = debitBody(s);
    expectStatus(t, await call('/debit', d, { token: null }), 'INVALID_TOKEN_ID', d, 'no authToken', 401);
    expectStatus(t, await call('/debit', d, { token: 'at_not-theirs-at-all' }), 'INVALID_TOKEN_ID', d, 'another token', 401);
    t.equal(await balanceOf(s), 100, 'none of them moved money');
    const next = `at_${randomBytes(16).toString('hex')}`;
    const added = await admin('POST', `${P}/production/secrets`, { name: 'authToken', value: next, overlapMinutes: 10 });
    const withNew = debitBody(s, { amount: 1 });
    expectStatus(t, await call('/debit', withNew, { token: next }), 'OK', withNew, 'the new token');
    const withOld = debitBody(s, { amount: 1 });
    expectStatus(t, await call('/debit', withOld), 'OK', withOld, 'the old token during the overlap');
    await admin('POST', `${P}/production/keys/${added.id}/revoke`);
    const revoked = debitBody(s, { amount: 1 });
    expectStatus(t, await call('/debit', revoked, { token: next }), 'INVALID_TOKEN_ID', revoked, 'a revoked token', 401);
    t.equal(await balanceOf(s), 98);
    const [row] = await games.sql<{ sealed: string }>('select sealed from wallet.provider_connector_secrets where id = ?', [added.id]);
    t.notOk(row!.sealed.includes(next), 'sealed at rest');
    t.equal(openSecret(row!.sealed, DEV_MASTER_KEY), next, 'and opens to the token Evolution gave');
  });

  t.test('syntax, types and amounts: refused with the documented status, nothing moves', async (t) => {
    const s = await session(t);
    const d = debitBody(s);
    expectStatus(t, await call('/debit', undefined, { raw: '{"sid":' }), 'INVALID_PARAMETER', {}, 'not JSON', 400);
    const { transaction: _, ...missing } = d;
    expectStatus(t, await call('/debit', missing), 'INVALID_PARAMETER', d, 'a required member missing', 400);
    expectStatus(t, await call('/debit', { ...d, transaction: { ...d.transaction, amount: '10' } }), 'INVALID_PARAMETER', d, 'an amount as a string', 400);
    expectStatus(t, await call('/debit', { ...d, currency: 'E' }), 'INVALID_PARAMETER', d, 'a currency of one letter (valkyrie: len=3)', 400);
    const at = (amount: string) => JSON.stringify(d).replace(/"amount":10/, `"amount":${amount}`);
    expectStatus(t, await call('/debit', undefined, { raw: at('10.005') }), 'INVALID_PARAMETER', d, '10.005: not a whole cent, never rounded');
    expectStatus(t, await call('/debit', undefined, { raw: at('-1') }), 'INVALID_PARAMETER', d, 'a negative amount');
    expectStatus(t, await call('/debit', undefined, { raw: at('1e1') }), 'INVALID_PARAMETER', d, 'an exponent');
    expectStatus(t, await call('/debit', undefined, { raw: at('0') }), 'INVALID_PARAMETER', d, 'a debit of 0.00');
    const spaced = debitBody(s, { round: 'a round with spaces' });
    expectStatus(t, await call('/debit', spaced), 'INVALID_PARAMETER', spaced, 'a game id our wallet cannot key');
    t.equal(await balanceOf(s), 100);
    const trailing = await call('/debit', undefined, { raw: at('10.010000') });
    t.same([trailing.body.status, trailing.body.balance], ['OK', 89.99], '10.010000 is 10.01 exactly (valkyrie writes six decimals)');
  });

  t.test('exactly once: an id moves money once, 20 copies at a time; the same id for another call is BET_ALREADY_EXIST', async (t) => {
    const s = await session(t);
    const d = debitBody(s, { amount: 7.5 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('/debit', d)));
    t.same(new Set(answers.map((a) => `${a.http} ${a.body.status} ${a.body.balance}`)), new Set(['200 OK 92.5']), 'every copy answered as the first');
    t.equal(await balanceOf(s), 92.5, 'one debit');
    t.equal((await call('/debit', { ...d, uuid: randomUUID() })).body.balance, 92.5, 'a later retransmission: the first answer');
    const dup = { ...d, transaction: { ...d.transaction, amount: 8 }, uuid: randomUUID() };
    expectStatus(t, await call('/debit', dup), 'BET_ALREADY_EXIST', dup, 'the same id, another amount');
    const c = creditOf(d, 10);
    const credits = await Promise.all(Array.from({ length: 20 }, () => call('/credit', c)));
    t.same(new Set(credits.map((a) => `${a.body.status} ${a.body.balance}`)), new Set(['OK 102.5']), 'a credit 20 times at once: one credit');
    const second = creditOf(d, 10);
    expectStatus(t, await call('/credit', second), 'BET_ALREADY_SETTLED', second, 'another credit of the settled bet');
    t.equal(await balanceOf(s), 102.5);
  });

  t.test(
    'twenty copies of every money call at once, in rounds of one bet and of two, each answered as the first; a big payout paid (issue #66 items 5, 7)',
    async (t) => {
      const s = await session(t);
      const sources: string[] = [];
      /** Twenty copies of one call at once: each answer the same (status, balance, uuid); the balance the one expected. */
      const twenty = async (path: string, body: { uuid?: string }, balance: number, what: string) => {
        const answers = await Promise.all(Array.from({ length: 20 }, () => call(path, body)));
        t.same(
          [...new Set(answers.map((a) => `${a.http} ${JSON.stringify(a.body)}`))],
          [`200 ${JSON.stringify({ status: 'OK', balance, bonus: 0, uuid: body.uuid })}`],
          `${what}: twenty copies, each answered as the first`,
        );
      };
      // A round of one bet, its credit Evolution's big payout (Test_debitCreditWithBigPayout: 63,727,092.34).
      const one = debitBody(s, { amount: 7 });
      await twenty('/debit', one, 93, 'a debit');
      const big = creditOf(one, 63727092.34);
      await twenty('/credit', big, 63727185.34, 'a big payout');
      sources.push(one.transaction.id, `credit:${big.transaction.id}`);
      // A round of two bets (two debits of one bet, Evolution's refId): the first cancelled, the second credited.
      const first = debitBody(s, { amount: 10 });
      const second = debitBody(s, { amount: 5, round: first.game.id, refId: first.transaction.refId });
      await twenty('/debit', first, 63727175.34, 'the first debit of a round of two');
      await twenty('/debit', second, 63727170.34, 'the second debit');
      await twenty('/cancel', cancelOf(first), 63727180.34, 'a cancel of the first debit');
      const won = creditOf(second, 3);
      await twenty('/credit', won, 63727183.34, 'the credit of the round');
      sources.push(first.transaction.id, second.transaction.id, `cancel:${first.transaction.id}`, `credit:${won.transaction.id}`);
      // A round of one bet, cancelled.
      const lone = debitBody(s, { amount: 2 });
      await twenty('/debit', lone, 63727181.34, 'a debit');
      await twenty('/cancel', cancelOf(lone), 63727183.34, 'its cancel');
      sources.push(lone.transaction.id, `cancel:${lone.transaction.id}`);
      // A promotional payout (a jackpot).
      const promoId = id();
      const promo = {
        sid: s.sid,
        userId: s.player,
        currency: 'BRL',
        game: null,
        promoTransaction: { type: 'JackpotWin', id: promoId, amount: 1250000.5 },
        uuid: randomUUID(),
      };
      await twenty('/promo_payout', promo, 64977183.84, 'a jackpot payout of 1,250,000.50');
      sources.push(`promo:${promoId}`);
      t.equal(await balanceOf(s), 64977183.84, 'each call moved money once');
      const ledger = await games.sql<{ source: string; n: number }>(
        `select source, count(*)::int as n from wallet.ledger_transactions where source = any(?::text[]) group by source`,
        [sources.map((x) => `provider:${provider.id}:${x}`)],
      );
      const bySource = (a: { source: string }, b: { source: string }) => (a.source < b.source ? -1 : 1);
      t.same(ledger.sort(bySource), sources.map((x) => ({ source: `provider:${provider.id}:${x}`, n: 1 })).sort(bySource), 'one ledger transaction per call');
    },
  );

  t.test("cancels and credits: valkyrie's copy of Evolution's licensee cases", async (t) => {
    const s = await session(t);
    // debitCancel, then debitCancelBetAlreadySettled: the cancel sent again answers as the first ("BET_ALREADY_SETTLED or OK").
    const d = debitBody(s, { amount: 3 });
    await call('/debit', d);
    const cn = cancelOf(d);
    const first = await call('/cancel', cn);
    expectStatus(t, first, 'OK', cn, 'the cancel');
    t.equal(first.body.balance, 100, 'the stake back');
    t.equal((await call('/cancel', { ...cn, uuid: randomUUID() })).body.balance, 100, 'sent again: its first answer, nothing more');
    // debitCancelCredit: a credit after the cancel.
    const late = creditOf(d, 300);
    expectStatus(t, await call('/credit', late), 'BET_ALREADY_SETTLED', late, 'a credit of a cancelled bet');
    // debitCreditCancel: a cancel after the credit.
    const d2 = debitBody(s, { amount: 2 });
    await call('/debit', d2);
    await call('/credit', creditOf(d2, 2));
    const tooLate = cancelOf(d2);
    expectStatus(t, await call('/cancel', tooLate), 'BET_ALREADY_SETTLED', tooLate, 'a cancel of a credited bet');
    // debitCreditBetDoesNotExist and debitCancelBetDoesNotExist: a credit or a cancel naming no bet of ours.
    const d3 = debitBody(s, { amount: 2 });
    await call('/debit', d3);
    const fakeCredit = { ...creditOf(d3, 2), transaction: { id: id(), refId: id(), amount: 2 } };
    expectStatus(t, await call('/credit', fakeCredit), 'BET_DOES_NOT_EXIST', fakeCredit, 'a credit of a refId we never took');
    t.equal(await balanceOf(s), 98, 'nothing moved');
    const fakeCancel = { ...cancelOf(d3), transaction: { id: id(), refId: id(), amount: 2 } };
    const never = await call('/cancel', fakeCancel);
    expectStatus(t, never, 'BET_DOES_NOT_EXIST', fakeCancel, 'a cancel of a debit we never received');
    t.equal(never.body.balance, 98, 'with the balance, nothing moved');
    t.equal((await call('/cancel', { ...fakeCancel, uuid: randomUUID() })).body.status, 'BET_DOES_NOT_EXIST', 'its retransmission: the same');
    // ... and that debit arriving after its cancel is refused: Evolution cancelled it.
    const arriving = { ...debitBody(s, { amount: 2 }), game: fakeCancel.game, transaction: fakeCancel.transaction };
    expectStatus(t, await call('/debit', arriving), 'BET_ALREADY_SETTLED', arriving, 'the debit arriving after its cancel');
    await call('/credit', creditOf(d3, 0));
    // multiStepGameTwoDebitsCreditCancel: two bets of one game round, the first credited, the second cancelled.
    const round = id();
    const a = debitBody(s, { amount: 7, round });
    const b = debitBody(s, { amount: 5, round });
    await call('/debit', a);
    await call('/debit', b);
    t.equal((await call('/credit', creditOf(a, 7))).body.balance, 93, 'the first bet credited');
    const cb = cancelOf(b);
    const cancelled = await call('/cancel', cb);
    expectStatus(t, cancelled, 'OK', cb, 'the second bet of the same game cancelled after the first was credited');
    t.equal(cancelled.body.balance, 98, 'its stake back');
    // creditWithZeroAmount.
    const lost = debitBody(s, { amount: 3 });
    await call('/debit', lost);
    t.equal((await call('/credit', creditOf(lost, 0))).body.balance, 95, 'a credit of 0 settles the bet lost');
  });

  t.test("every refusal of a debit, Brazil's rules included; credits and cancels still paid", async (t) => {
    const s = await session(t);
    const refused = async (t: Test, what: string, body: Tx, status: EvolutionStatus) => expectStatus(t, await call('/debit', body), status, body, what);
    await refused(t, 'an unknown sid', debitBody(s, { sid: 'pst_never-issued' }), 'INVALID_SID');
    const other = await session(t);
    await refused(t, "another user's sid", debitBody(s, { sid: other.sid }), 'INVALID_SID');
    await refused(t, 'another currency', debitBody(s, { currency: 'USD' }), 'INVALID_PARAMETER');
    await refused(t, 'a table we do not have', debitBody(s, { tableId: 'no_such_table' }), 'INVALID_PARAMETER');
    await admin('PUT', `/admin/providers/${provider.id}/games/LightningTable01`, { name: 'Lightning Baccarat', category: 'live', enabled: false });
    await refused(t, 'a disabled table', debitBody(s, { tableId: 'LightningTable01' }), 'FINAL_ERROR_ACTION_FAILED');
    const rich = debitBody(s, { amount: 100.01 });
    const poor = await call('/debit', rich);
    expectStatus(t, poor, 'INSUFFICIENT_FUNDS', rich, 'more than the balance');
    t.equal(poor.body.balance, 100, 'with the balance, as the licensee tests ask');

    // Bets open before the player's standing changes: their credit and cancel are paid after.
    const open = debitBody(s, { amount: 5 });
    await call('/debit', open);
    const spare = debitBody(s, { amount: 5 });
    await call('/debit', spare);
    const wager = await games.call('players.rg.setLimit', live, { params: { playerId: s.player, type: 'wager', period: 'day' }, body: { value: '15.00' } });
    t.equal(wager.ok, true, 'a wager limit of 15.00 a day');
    await refused(t, 'a wager limit', debitBody(s, { amount: 6 }), 'ACCOUNT_LOCKED');

    await admin('PUT', `/admin/providers/${provider.id}`, { status: 'disabled' });
    await refused(t, 'the provider disabled', debitBody(s, { amount: 1 }), 'FINAL_ERROR_ACTION_FAILED');
    await admin('PUT', `/admin/providers/${provider.id}`, { status: 'enabled' });
    await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: false });
    await refused(t, 'not offered to the operator', debitBody(s, { amount: 1 }), 'FINAL_ERROR_ACTION_FAILED');
    await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
    await admin('POST', `/admin/operators/${live.operatorId}/suspend`);
    await refused(t, 'the operator suspended', debitBody(s, { amount: 1 }), 'FINAL_ERROR_ACTION_FAILED');
    await admin('POST', `/admin/operators/${live.operatorId}/resume`);

    const excluded = await games.call('players.rg.selfExclude', live, { params: { playerId: s.player }, body: { months: 1 } });
    t.equal(excluded.ok, true, 'the player self-excludes');
    await refused(t, 'self-excluded', debitBody(s, { amount: 1 }), 'ACCOUNT_LOCKED');
    const c = creditOf(open, 12);
    expectStatus(t, await call('/credit', c), 'OK', c, 'the credit of a bet open before: paid');
    const cn = cancelOf(spare);
    expectStatus(t, await call('/cancel', cn), 'OK', cn, 'the cancel of a bet before: refunded');
    t.equal(await balanceOf(s), 107, '100 - 5 - 5 + 12 + 5');

    const blocked = await session(t);
    const paused = await games.call('players.rg.pause', live, {
      params: { playerId: blocked.player },
      body: { until: new Date(Date.now() + 86_400_000).toISOString() },
    });
    if (paused.ok) await refused(t, 'paused', debitBody(blocked, { amount: 1 }), 'ACCOUNT_LOCKED');
    else t.fail(`pause: ${JSON.stringify(paused)}`);
    const frozen = await session(t);
    const status = await games.call(
      'players.admin.status',
      { kind: 'admin', actor: 'test-admin' },
      { params: { id: frozen.player }, body: { status: 'bloqueado' } },
    );
    t.equal(status.ok, true, 'a player blocked by our team');
    await refused(t, 'a blocked player', debitBody(frozen, { amount: 1 }), 'ACCOUNT_LOCKED');
  });

  t.test('after the session: /check and a debit refused, the balance still reads, a credit and a cancel paid', async (t) => {
    const s = await session(t);
    const d = debitBody(s);
    const spare = debitBody(s, { amount: 2 });
    await call('/debit', d);
    await call('/debit', spare);
    await games.sql(`update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where player_id = ?`, [
      s.player,
    ]);
    const chk = { sid: s.sid, userId: s.player, channel: { type: 'P' }, uuid: randomUUID() };
    expectStatus(t, await call('/check', chk), 'INVALID_SID', chk, '/check of an ended session');
    const next = debitBody(s);
    expectStatus(t, await call('/debit', next), 'INVALID_SID', next, 'a debit needs a live session');
    const c = creditOf(d, 15);
    expectStatus(t, await call('/credit', c), 'OK', c, 'a credit after the session ends');
    const cn = cancelOf(spare);
    expectStatus(t, await call('/cancel', cn), 'OK', cn, 'a cancel after the session ends');
    t.equal(await balanceOf(s), 105, 'the balance still reads after the session');
    const stranger = await session(t);
    const stolen = { ...creditOf(d, 50), sid: stranger.sid };
    expectStatus(t, await call('/credit', stolen), 'INVALID_SID', stolen, "a credit under another player's sid");
    const wrongUser = { ...creditOf(d, 50), userId: stranger.player, sid: stranger.sid };
    expectStatus(t, await call('/credit', wrongUser), 'BET_DOES_NOT_EXIST', wrongUser, "a credit naming another player's bet");
    const bal = { sid: stranger.sid, userId: s.player, currency: 'BRL', uuid: randomUUID() };
    expectStatus(t, await call('/balance', bal), 'INVALID_SID', bal, "a balance of a user under another's sid");
  });

  t.test('the partner: an unknown provider, a native one, an address outside the allow-list', async (t) => {
    const b = { sid: 'x', userId: 'y', currency: 'BRL', uuid: randomUUID() };
    const at = async (url: string) => {
      const res = await fetch(`${url}?authToken=${evo.authToken}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
      return { http: res.status, body: (await res.json()) as EvolutionWireAnswer };
    };
    expectStatus(t, await at(`${gw.publicUrl}/connectors/evolution/prv_nobody/production/balance`), 'INVALID_TOKEN_ID', b, 'an unknown provider', 401);
    const native = await admin('POST', '/admin/providers', { name: `Native ${randomBytes(3).toString('hex')}`, kind: 'casino' });
    expectStatus(t, await at(`${gw.publicUrl}/connectors/evolution/${native.id}/production/balance`), 'INVALID_TOKEN_ID', b, 'a native provider', 401);
    expectStatus(t, await at(`${base.replace('/production', '/staging')}/balance`), 'INVALID_TOKEN_ID', b, 'no such environment', 401);
    expectStatus(
      t,
      await at(`${base.replace('/production', '/sandbox')}/balance`),
      'INVALID_TOKEN_ID',
      b,
      "the sandbox, where Evolution's token is not set",
      401,
    );
    await admin('PUT', `/admin/providers/${provider.id}`, { allowedIps: ['203.0.113.0/24'] });
    expectStatus(t, await at(`${base}/balance`), 'INVALID_TOKEN_ID', b, 'a caller outside the allow-list', 401);
    await admin('PUT', `/admin/providers/${provider.id}`, { allowedIps: [] });
  });

  t.test('every status of the mapping was answered where it belongs', async (t) => {
    // TEMPORARY_ERROR (our outage) is answered in connector-evolution-crash.test.ts; UNKNOWN_ERROR (a fault
    // of ours) in connector-evolution-statuses.test.ts; OPERATION_IN_PROCESS is never answered.
    const elsewhere: EvolutionStatus[] = ['TEMPORARY_ERROR', 'UNKNOWN_ERROR', ...EVOLUTION_UNUSED_STATUSES];
    t.same(
      EVOLUTION_STATUSES.filter((s) => !seen.has(s) && !elsewhere.includes(s)),
      [],
      'none missing',
    );
  });

  t.test("the connector's traffic is the provider wallet's: the regulator's lines list it; the health counts it; the ledger verifies", async (t) => {
    const s = await session(t);
    const d = debitBody(s, { amount: 3 });
    await call('/debit', d);
    const moves = await games.call(regulatorProviderMessages.providerMoves.subject, gatewayScope, {
      body: { brandId: live.brandId, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), limit: 1000 },
    });
    if (!moves.ok) t.fail(JSON.stringify(moves));
    t.ok(
      JSON.stringify(moves.ok ? moves.body : {}).includes(d.transaction.id),
      "the debit is one of the regulator file's lines, under Evolution's transaction id",
    );
    const health = await waitFor(
      async () => {
        const v = await admin('GET', P);
        const env = v.environments.find((e: any) => e.environment === 'production');
        return env.health.calls > 0 && env.health.byStatus.OK > 0 && env.health.byStatus.INVALID_TOKEN_ID > 0 ? env.health : undefined;
      },
      { what: 'the health report' },
    );
    t.match(
      health,
      { lastCallAt: String, byStatus: { OK: Number, INVALID_TOKEN_ID: Number, ACCOUNT_LOCKED: Number } },
      'the health: last call, answers by status',
    );
    t.ok(health.errorRate > 0 && health.errorRate < 1, 'an error rate between 0 and 1');
    const audited = await waitFor(
      async () => {
        const r = await admin('GET', `/admin/audit?target=provider:${provider.id}&limit=100`);
        const actions = new Set((r.data as Array<{ action: string }>).map((a) => a.action));
        return ['adminSetConnectorSettings', 'adminSetConnectorSecret', 'adminRevokeConnectorKey'].every((a) => actions.has(a)) ? r.data : undefined;
      },
      { what: "the connector changes' audit rows" },
    );
    t.notMatch(JSON.stringify(audited), new RegExp(`${evo.authToken}|${evo.casinoToken}`), 'no audit row holds a secret');
    const v = await games.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
  });
});
