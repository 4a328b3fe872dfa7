// Betsy's sportsbook through the real gateway, to the real wallet and players services (issue #58,
// docs/connectors-betsy.md): a sportsbook provider registered with protocol betsy, its connector set
// up by our team (its frame page, its PARTNER_SECRET kept sealed), its `sportsbook` game in our
// catalogue and launched into its frame with our session token, then Betsy's calls as its partner
// backend API documents them, each signed with `x-sign-jws`. The document's own request examples are
// replayed as published; every code of our mapping is answered where it belongs; a transaction id
// moves money once, twenty copies at a time included; settles, resettles (up, and down into the
// player's debt), unsettles, cash-outs and rollbacks (of a settled bet too) move exactly the
// difference; settles and rollbacks are paid whatever became of the session or the player; the
// regulator's lines carry the slip with its legs; the ledger verifies.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  BETSY_ERROR_CODES,
  BETSY_UNUSED_CODES,
  betsySignature,
  regulatorProviderMessages,
  type BetsyErrorCode,
  type BetsyWireAnswer,
  type OperatorScope,
} from '@bo/contracts';
import { DEV_MASTER_KEY, openSecret } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';
import { gatewayScope, startGamesStack } from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';
import { startHarness } from './support/harness.ts';

const id = (): string => randomUUID();
/** The document's place bet example (docs.betsy.gg/backend/place-bet.html), as published. */
const PLACE_BET_EXAMPLE = `{
  "token": "5caa4cabce523c2f7610c50ce9819bfb",
  "transactionId": "b26153f9-ef3a-4768-b6c8-0861acdecb7a",
  "currency": "USD",
  "amount": 12.12,
  "userId": "1999",
  "info": "bet info",
  "type": 1,
  "coefficient": 1.2,
  "ip": "35.168.110.10",
  "subPartnerId": null,
  "requestId": "d9195aef-9492-43dd-88d0-dc1732a37f4e",
  "bonusId": null,
  "bonusTemplateId": null,
  "bonusAmount": null,
  "gameType": "sportsbook",
  "ticketType": "single",
  "boosterCoefficient": 1,
  "metadata": [
    {
      "disciplineId": "fifa",
      "discipline": "Fifa",
      "tournamentId": "3971",
      "tournament": "Championship of League",
      "tournamentRegionCode": "GB",
      "eventId": "5663102",
      "event": "Club Black and Club White",
      "eventDate": "2021-03-05 11:08:00",
      "marketId": "5fa4e904d043dea8811a5f98",
      "market": "Match Winner",
      "outcomeId": "111",
      "outcome": "Club Black",
      "coefficient": 1.2,
      "stage": 1
    }
  ]
}`;
/** The user balance example (docs.betsy.gg/backend/user-balance.html) and the user data one (docs.frozebet.com's user-data page). */
const BALANCE_EXAMPLE = `{
  "userId": "1999",
  "currency": "USD",
  "token": "5caa4cabce523c2f7610c50ce9819bfb",
  "requestId": "d9195aef-9492-43dd-88d0-dc1732a37f4e"
}`;
const PROFILE_EXAMPLE = `{
"token": "5caa4cabce523c2f7610c50ce9819bfb",
"requestId": "d9195aef-9492-43dd-88d0-dc1732a37f4e"
}`;

t.test('Betsy connector', async (t) => {
  // A deadline no call of a busy machine reaches: these tests are about answers, not about timeouts.
  const h = await startHarness({ RPC_TIMEOUT_MS: '30000' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: gw.publicUrl }, { prefix: h.prefix });
  const op = await h.createOperator({ name: `Betsy Sports ${randomBytes(3).toString('hex')}` });
  const me = await op.productionClient.get('/me');
  const live: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: me.body.brand.id, environment: 'production', currency: 'BRL' };
  const secret = `ps_${randomBytes(16).toString('hex')}`;
  const frameUrl = 'https://sports.operator.test/betsy-frame';

  const admin = async (method: string, path: string, body?: unknown, expected = [200, 201]) => {
    const r = await h.admin(method, path, body);
    if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  // Our team's side: register, set up the connector, the game in our catalogue, offered to the operator.
  const provider = await admin('POST', '/admin/providers', { name: `Betsy ${randomBytes(3).toString('hex')}`, kind: 'sportsbook', protocol: 'betsy' });
  t.match(provider, { id: /^prv_/, protocol: 'betsy', kind: 'sportsbook', status: 'enabled' }, 'registered with its protocol');
  const P = `/admin/providers/${provider.id}/connector`;
  const wrong = await h.admin('PUT', `${P}/production`, { settings: { casinoKey: 'x', apiBaseUrl: frameUrl } });
  t.equal(wrong.status, 422, "Evolution's settings on a Betsy connector are refused");
  await admin('PUT', `${P}/production`, { settings: { frameUrl } });
  const kept = await admin('POST', `${P}/production/secrets`, { name: 'partnerSecret', value: secret });
  t.match(kept, { id: /^cs_/, name: 'partnerSecret', owner: 'theirs', status: 'active', fingerprint: /^[0-9a-f]{16}$/ });
  t.notOk(JSON.stringify(kept).includes(secret), 'a secret is never answered');
  const notBetsys = await h.admin('POST', `${P}/production/secrets`, { name: 'authToken', value: 'x'.repeat(12) });
  t.equal(notBetsys.status, 422, "a secret Betsy's protocol does not keep is refused");
  const noList = await h.admin('POST', `${P}/production/sync-games`);
  t.equal(noList.status, 422, 'no game list API to sync from: the game is put in the catalogue by hand');
  const sportsbook = await admin('PUT', `/admin/providers/${provider.id}/games/sportsbook`, { name: 'Sportsbook', category: 'sports' });
  await admin('PUT', `/admin/providers/${provider.id}/games/esports`, { name: 'eSports', category: 'sports' });
  await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
  const view = await admin('GET', P);
  const production = view.environments.find((e: any) => e.environment === 'production');
  t.equal(production.endpointUrl, `${gw.publicUrl}/connectors/betsy/${provider.id}/production`, 'the PARTNER_API_URL we hand Betsy');
  const base = production.endpointUrl as string;

  /** A call as Betsy makes it: the exact bytes, signed with `x-sign-jws`. */
  const call = async (
    method: 'POST' | 'PUT',
    path: string,
    body: unknown,
    o: { raw?: string; sign?: string | null; secret?: string; url?: string } = {},
  ): Promise<{ http: number; body: BetsyWireAnswer }> => {
    const raw = o.raw ?? JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (o.sign !== null) headers['x-sign-jws'] = o.sign ?? betsySignature(raw, o.secret ?? secret);
    const res = await fetch(`${o.url ?? base}${path}`, { method, headers, body: raw });
    return { http: res.status, body: (await res.json()) as BetsyWireAnswer };
  };
  const seen = new Set<BetsyErrorCode>();
  const expectCode = (t: Test, a: { http: number; body: BetsyWireAnswer }, code: BetsyErrorCode, what: string) => {
    t.equal(a.http, 400, `${what}: HTTP 400`);
    t.equal(a.body.code, code, `${what}: code ${code}`);
    t.type(a.body.message, 'string', `${what}: with a message`);
    seen.add(a.body.code as BetsyErrorCode);
  };

  type S = { player: string; token: string };
  /** A funded player with a session of the sportsbook: its frame got our token at launch. */
  const session = async (t: Test, funds = '100.00', state: Parameters<typeof games.createPlayer>[1] = { kyc: 'aprovado' }) => {
    const player = await games.createPlayer(live, state);
    if (funds !== '0.00') await games.credit(live, player, funds);
    await games.openSession(t, live, player, sportsbook.id);
    const [row] = await games.sql<{ provider_url: string }>('select provider_url from wallet.game_sessions where player_id = ? order by created_at desc', [
      player,
    ]);
    const url = new URL(row!.provider_url);
    return { player, token: url.searchParams.get('token')! } satisfies S;
  };
  const leg = (event = 'Flamengo x Palmeiras', coefficient = 2.35) => ({
    disciplineId: 'football',
    discipline: 'Football',
    tournamentId: '325',
    tournament: 'Brasileirão',
    eventId: randomBytes(3).toString('hex'),
    event,
    eventDate: '2026-11-22 19:00:00',
    marketId: 'm1',
    market: 'Match Winner',
    outcomeId: '1',
    outcome: event.split(' x ')[0],
    coefficient,
    stage: 1,
  });
  const betBody = (s: S, over: Record<string, unknown> = {}) => ({
    token: s.token,
    transactionId: id(),
    currency: 'BRL',
    amount: 10,
    userId: s.player,
    info: 'bet info',
    type: 1,
    coefficient: 2.35,
    ip: '203.0.113.7',
    subPartnerId: null,
    requestId: id(),
    bonusId: null,
    bonusTemplateId: null,
    bonusAmount: null,
    gameType: 'sportsbook',
    ticketType: 'single',
    boosterCoefficient: 1,
    metadata: [leg()],
    ...over,
  });
  type Bet = ReturnType<typeof betBody>;
  const settleOf = (b: Bet, amount: number, resultType = 'won', over: Record<string, unknown> = {}) => ({
    transactionId: b.transactionId,
    userId: b.userId,
    currency: b.currency,
    amount,
    type: 2,
    resultType,
    requestId: id(),
    ...over,
  });
  const unsettleOf = (b: Bet) => ({ transactionId: b.transactionId, userId: b.userId, currency: b.currency, amount: 0, type: 1, requestId: id() });
  const rollbackOf = (b: Bet, errorCode = 8) => ({ ...b, type: 3, errorCode, requestId: id() });
  const place = (b: unknown) => call('POST', '/payment/bet', b);
  const put = (b: unknown) => call('PUT', '/payment/bet', b);
  const balanceOf = async (s: S) => (await call('POST', '/user/balance', { userId: s.player, currency: 'BRL', token: s.token, requestId: id() })).body.amount;
  const okMove = (t: Test, a: { http: number; body: BetsyWireAnswer }, transactionId: string, what: string) => {
    t.equal(a.http, 200, `${what}: HTTP 200`);
    t.same(Object.keys(a.body).sort(), ['transactionId', 'transactionTime'], `${what}: the place bet's answer`);
    t.equal(a.body.transactionId, transactionId, `${what}: the bet's transactionId`);
    t.ok(!Number.isNaN(Date.parse(a.body.transactionTime ?? '')), `${what}: when`);
  };
  const roundOf = async (b: { transactionId: string }) =>
    (
      await games.sql<{ status: string; staked: string; won: string; corrected: string; slip: any; outcome: string | null }>(
        'select status, staked::text, won::text, corrected::text, slip, outcome from wallet.provider_rounds where provider_id = ? and round_id = ?',
        [provider.id, b.transactionId],
      )
    )[0];

  t.test('launch: into the frame page, with our session token and the language', async (t) => {
    const s = await session(t);
    t.match(s.token, /^pst_/, 'our session token');
    const [row] = await games.sql<{ provider_url: string }>('select provider_url from wallet.game_sessions where player_id = ?', [s.player]);
    t.equal(row!.provider_url, `${frameUrl}?token=${encodeURIComponent(s.token)}&lang=pt`, "the player is sent to the frame's page");
  });

  t.test("the document's request examples, replayed as published: answered in the documented shape", async (t) => {
    // Betsy's own examples name a token of theirs: none of ours.
    expectCode(t, await call('POST', '/payment/bet', undefined, { raw: PLACE_BET_EXAMPLE }), 3, 'the place bet example: a token we never issued');
    expectCode(t, await call('POST', '/user/balance', undefined, { raw: BALANCE_EXAMPLE }), 3, 'the user balance example');
    expectCode(t, await call('POST', '/user/profile', undefined, { raw: PROFILE_EXAMPLE }), 3, 'the user data example');

    // The same examples with our session: the documented answers.
    const s = await session(t, '50.00');
    const ours = (raw: string) =>
      raw.replaceAll('5caa4cabce523c2f7610c50ce9819bfb', s.token).replaceAll('"1999"', JSON.stringify(s.player)).replaceAll('"USD"', '"BRL"');
    const profile = await call('POST', '/user/profile', undefined, { raw: ours(PROFILE_EXAMPLE) });
    t.same(profile, { http: 200, body: { userId: s.player, currency: 'BRL', currencies: ['BRL'], isTest: false } }, '/user/profile: the user data');
    const balance = await call('POST', '/user/balance', undefined, { raw: ours(BALANCE_EXAMPLE) });
    t.same(balance, { http: 200, body: { userId: s.player, currency: 'BRL', amount: 50 } }, '/user/balance: the documented answer');
    const placed = await call('POST', '/payment/bet', undefined, { raw: ours(PLACE_BET_EXAMPLE) });
    okMove(t, placed, 'b26153f9-ef3a-4768-b6c8-0861acdecb7a', 'the place bet example');
    t.equal(await balanceOf(s), 37.88, '50 - 12.12');
    const example = { transactionId: 'b26153f9-ef3a-4768-b6c8-0861acdecb7a' };
    const round = await roundOf(example);
    t.same(
      round?.slip,
      {
        sport: 'Fifa',
        event: 'Club Black and Club White',
        market: 'Match Winner',
        selection: 'Club Black',
        odds: '1.2',
        eventStartsAt: '2021-03-05T11:08:00.000Z',
        betType: 'single',
        legs: [
          {
            sport: 'Fifa',
            event: 'Club Black and Club White',
            market: 'Match Winner',
            selection: 'Club Black',
            odds: '1.2',
            eventStartsAt: '2021-03-05T11:08:00.000Z',
          },
        ],
      },
      "the slip: the metadata's leg, its odds, its event's start",
    );
    // The settle page's example is not readable (docs/connectors-betsy.md): its described members.
    const won = await put({
      transactionId: example.transactionId,
      userId: s.player,
      currency: 'BRL',
      amount: 14.54,
      type: 2,
      resultType: 'won',
      requestId: id(),
    });
    okMove(t, won, example.transactionId, 'the settle');
    t.equal(await balanceOf(s), 52.42, '37.88 + 14.54');
    t.match(await roundOf(example), { status: 'settled', outcome: 'won', won: '14.54' });
  });

  t.test('the signature: Betsy’s partner secrets in force only; a rotation keeps the old one for its overlap; a revoked one stops at once', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    expectCode(t, await call('POST', '/payment/bet', b, { sign: null }), 1, 'no x-sign-jws');
    expectCode(t, await call('POST', '/payment/bet', b, { secret: 'not-their-secret' }), 1, 'signed with another secret');
    const raw = JSON.stringify(b);
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}..`;
    expectCode(t, await call('POST', '/payment/bet', undefined, { raw, sign: unsigned }), 1, 'alg none');
    const [h0, , mac] = betsySignature(raw, secret).split('.');
    expectCode(
      t,
      await call('POST', '/payment/bet', undefined, { raw: raw.replace('"amount":10', '"amount":1'), sign: `${h0}..${mac}` }),
      1,
      'another body under the signature',
    );
    okMove(
      t,
      await call('POST', '/payment/bet', undefined, { raw, sign: `${h0}.${Buffer.from(raw).toString('base64url')}.${mac}` }),
      b.transactionId,
      'a JWS with the body as its payload verifies too',
    );
    t.equal(await balanceOf(s), 90, 'only that one moved money');
    const next = `ps_${randomBytes(16).toString('hex')}`;
    const added = await admin('POST', `${P}/production/secrets`, { name: 'partnerSecret', value: next, overlapMinutes: 10 });
    const withNew = betBody(s, { amount: 1 });
    okMove(t, await call('POST', '/payment/bet', withNew, { secret: next }), withNew.transactionId, 'the new secret');
    const withOld = betBody(s, { amount: 1 });
    okMove(t, await place(withOld), withOld.transactionId, 'the old secret during the overlap');
    await admin('POST', `${P}/production/keys/${added.id}/revoke`);
    expectCode(t, await call('POST', '/payment/bet', betBody(s, { amount: 1 }), { secret: next }), 1, 'a revoked secret');
    t.equal(await balanceOf(s), 88);
    const [row] = await games.sql<{ sealed: string }>('select sealed from wallet.provider_connector_secrets where id = ?', [added.id]);
    t.notOk(row!.sealed.includes(next), 'sealed at rest');
    t.equal(openSecret(row!.sealed, DEV_MASTER_KEY), next, 'and opens to the secret Betsy gave');
  });

  t.test('syntax, types and amounts: refused with code 5, nothing moves', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    expectCode(t, await call('POST', '/payment/bet', undefined, { raw: '{"token":' }), 5, 'not JSON');
    const { metadata: _, ...noSlip } = b;
    expectCode(t, await place(noSlip), 5, 'no metadata');
    expectCode(t, await place({ ...b, amount: '10' }), 5, 'an amount as a string');
    expectCode(t, await call('POST', '/payment/bet', { ...b, type: 2 }), 5, 'POST of a settle');
    expectCode(t, await put({ ...b, type: 4 }), 5, 'a type the document does not have');
    const at = (amount: string) => JSON.stringify(b).replace('"amount":10', `"amount":${amount}`);
    expectCode(t, await call('POST', '/payment/bet', undefined, { raw: at('10.005') }), 5, '10.005: not a whole cent, never rounded');
    expectCode(t, await call('POST', '/payment/bet', undefined, { raw: at('-1') }), 5, 'a negative amount');
    expectCode(t, await call('POST', '/payment/bet', undefined, { raw: at('1e1') }), 5, 'an exponent');
    expectCode(t, await call('POST', '/payment/bet', undefined, { raw: at('0') }), 5, 'a stake of 0.00');
    expectCode(t, await place({ ...b, bonusId: 'bonus-1', bonusAmount: 10 }), 5, 'a bonus bet (Lei 14.790/2023 art. 29)');
    expectCode(t, await place({ ...b, metadata: [{ ...leg(), eventDate: 'tomorrow' }] }), 5, 'an eventDate we cannot read');
    expectCode(t, await place({ ...b, transactionId: 'x'.repeat(101) }), 5, 'an id longer than ours can carry');
    t.equal(await balanceOf(s), 100);
    const trailing = betBody(s);
    okMove(
      t,
      await call('POST', '/payment/bet', undefined, { raw: JSON.stringify(trailing).replace('"amount":10', '"amount":10.010000') }),
      trailing.transactionId,
      '10.010000',
    );
    t.equal(await balanceOf(s), 89.99, '10.010000 is 10.01 exactly');
  });

  t.test('a multiple: each metadata item a leg, the slip one line of them', async (t) => {
    const s = await session(t);
    const b = betBody(s, {
      ticketType: 'express',
      coefficient: 4.935,
      metadata: [leg('Flamengo x Palmeiras', 2.35), { ...leg('Grêmio x Inter', 2.1), discipline: 'Football', eventDate: '2026-11-21 16:00:00' }],
    });
    okMove(t, await place(b), b.transactionId, 'the multiple placed');
    const round = await roundOf(b);
    t.match(round?.slip, {
      sport: 'Football',
      event: 'Flamengo x Palmeiras | Grêmio x Inter',
      market: 'Match Winner',
      selection: 'Flamengo | Grêmio',
      odds: '4.935',
      eventStartsAt: '2026-11-21T16:00:00.000Z',
      betType: 'multiple',
    });
    t.equal(round?.slip.legs.length, 2, 'both legs kept');
    const system = betBody(s, { ticketType: 'system', metadata: [leg('A x B'), leg('C x D'), leg('E x F')] });
    okMove(t, await place(system), system.transactionId, 'a system bet');
    t.equal((await roundOf(system))?.slip.betType, 'system');
  });

  t.test('exactly once: an id moves money once, 20 copies at a time; the same id for another bet is code 8', async (t) => {
    const s = await session(t);
    const b = betBody(s, { amount: 7.5 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => place(b)));
    t.same(new Set(answers.map((a) => `${a.http} ${a.body.transactionId} ${a.body.transactionTime}`)).size, 1, 'every copy answered as the first');
    t.equal(answers[0]!.http, 200);
    t.equal(await balanceOf(s), 92.5, 'one debit');
    expectCode(t, await place({ ...b, amount: 8 }), 8, 'the same id, another amount');
    const settles = await Promise.all(Array.from({ length: 20 }, () => put(settleOf(b, 17.62))));
    t.same(new Set(settles.map((a) => a.http)), new Set([200]), 'a settle 20 times at once: all answered');
    t.equal(await balanceOf(s), 110.12, 'one credit');
    const resettles = await Promise.all(Array.from({ length: 20 }, () => put(settleOf(b, 0, 'lost'))));
    t.same(new Set(resettles.map((a) => a.http)), new Set([200]), 'a resettle 20 times at once: all answered');
    t.equal(await balanceOf(s), 92.5, 'one correction of -17.62');
    const r = await roundOf(b);
    t.match(r, { status: 'settled', won: '17.62', corrected: '-17.62' });
    const open = betBody(s, { amount: 2.5 });
    await place(open);
    const rollbacks = await Promise.all(Array.from({ length: 20 }, () => put(rollbackOf(open))));
    t.same(new Set(rollbacks.map((a) => a.http)), new Set([200]), 'a rollback 20 times at once: all answered');
    t.equal(await balanceOf(s), 92.5, 'one refund');
    const settled = betBody(s, { amount: 4 });
    await place(settled);
    await put(settleOf(settled, 10));
    t.equal(await balanceOf(s), 98.5);
    const takeBacks = await Promise.all(Array.from({ length: 20 }, () => put(rollbackOf(settled, 50))));
    t.same(new Set(takeBacks.map((a) => a.http)), new Set([200]), 'a rollback of a settled bet 20 times at once: all answered');
    t.equal(await balanceOf(s), 92.5, 'one correction: the stake back, the payout taken (4 - 10)');
  });

  t.test('twenty copies of every money call at once, each answered as the first; a big payout paid (issue #66 items 5, 7)', async (t) => {
    // Betsy's bet is a bet slip of its own (its round): a round of several bets does not occur.
    const s = await session(t);
    const sources: string[] = [];
    /** Twenty copies of one call at once: each answer the same (HTTP 200, the bet's id and the time of its first answer). */
    const twenty = async (send: () => Promise<{ http: number; body: unknown }>, what: string) => {
      const answers = await Promise.all(Array.from({ length: 20 }, send));
      const distinct = [...new Set(answers.map((a) => `${a.http} ${JSON.stringify(a.body)}`))];
      t.same(
        { answers: distinct.length, http: answers[0]!.http },
        { answers: 1, http: 200 },
        `${what}: twenty copies, each answered as the first (${distinct[0]})`,
      );
    };
    const won = betBody(s, { amount: 7 });
    await twenty(() => place(won), 'a place bet');
    const settle = settleOf(won, 63727092.34);
    await twenty(() => put(settle), 'a settle of 63,727,092.34');
    t.equal(await balanceOf(s), 63727185.34, 'the stake taken once, the payout paid once');
    const resettle = settleOf(won, 3, 'won');
    await twenty(() => put(resettle), 'a resettle down to 3.00');
    t.equal(await balanceOf(s), 96, 'one correction of the difference');
    sources.push(won.transactionId, `settle:${won.transactionId}`, `resettle:${won.transactionId}:1`);
    const open = betBody(s, { amount: 2.5 });
    await place(open);
    const rb = rollbackOf(open);
    await twenty(() => put(rb), 'a rollback of an open bet');
    t.equal(await balanceOf(s), 96, 'one refund');
    sources.push(open.transactionId, `rollback:${open.transactionId}`);
    const settled = betBody(s, { amount: 4 });
    await place(settled);
    await put(settleOf(settled, 10));
    const takeBack = rollbackOf(settled, 50);
    await twenty(() => put(takeBack), 'a rollback of a settled bet');
    t.equal(await balanceOf(s), 96, 'one correction: the stake back, the payout taken (4 - 10)');
    sources.push(settled.transactionId, `settle:${settled.transactionId}`, `rollback:${settled.transactionId}`);
    const ledger = await games.sql<{ source: string; n: number }>(
      `select source, count(*)::int as n from wallet.ledger_transactions where source = any(?::text[]) group by source`,
      [sources.map((x) => `provider:${provider.id}:${x}`)],
    );
    const bySource = (a: { source: string }, b: { source: string }) => (a.source < b.source ? -1 : 1);
    t.same(ledger.sort(bySource), sources.map((x) => ({ source: `provider:${provider.id}:${x}`, n: 1 })).sort(bySource), 'one ledger transaction per call');
  });

  t.test('settles: won, lost, refund, cashout (the token verified); a resettle moves the difference; an unsettle reverts', async (t) => {
    const s = await session(t);
    const lost = betBody(s, { amount: 10 });
    await place(lost);
    okMove(t, await put(settleOf(lost, 0, 'lost')), lost.transactionId, 'lost: 0');
    t.match(await roundOf(lost), { status: 'settled', outcome: 'lost', won: '0.00' });
    const refund = betBody(s, { amount: 10 });
    await place(refund);
    okMove(t, await put(settleOf(refund, 10, 'refund')), refund.transactionId, 'refund: the stake');
    t.match(await roundOf(refund), { outcome: 'void', won: '10.00' });
    t.equal(await balanceOf(s), 90);

    const co = betBody(s, { amount: 10 });
    await place(co);
    expectCode(t, await put(settleOf(co, 15, 'cashout')), 3, 'a cashout without the token');
    const other = await session(t);
    expectCode(t, await put(settleOf(co, 15, 'cashout', { token: other.token })), 3, "a cashout under another user's token");
    expectCode(t, await put(settleOf(co, 15, 'cashout', { token: 'pst_never-issued' })), 3, 'a cashout under a token we never issued');
    okMove(t, await put(settleOf(co, 15, 'cashout', { token: s.token })), co.transactionId, 'a cashout with the user’s token');
    t.match(await roundOf(co), { status: 'settled', outcome: 'cashout', won: '15.00' });
    t.equal(await balanceOf(s), 95);

    const b = betBody(s, { amount: 10 });
    await place(b);
    await put(settleOf(b, 20));
    t.equal(await balanceOf(s), 105, 'won 20');
    okMove(t, await put(settleOf(b, 20)), b.transactionId, 'the same settle again');
    t.equal(await balanceOf(s), 105, 'moves nothing');
    await put(settleOf(b, 25));
    t.equal(await balanceOf(s), 110, 'resettled to 25: +5');
    await put(settleOf(b, 10, 'refund'));
    t.equal(await balanceOf(s), 95, 'resettled to a refund (the event cancelled): -15');
    okMove(t, await put(unsettleOf(b)), b.transactionId, 'unsettled');
    t.equal(await balanceOf(s), 85, 'the result reverted: -10');
    okMove(t, await put(unsettleOf(b)), b.transactionId, 'unsettled again');
    t.equal(await balanceOf(s), 85, 'nothing more');
    await put(settleOf(b, 30));
    t.equal(await balanceOf(s), 115, 'settled anew: +30');
    const corrections = await games.sql<{ transaction_id: string; requested: string }>(
      "select transaction_id, requested::text from wallet.provider_transactions where provider_id = ? and round_id = ? and kind = 'correction' order by created_at",
      [provider.id, b.transactionId],
    );
    t.same(
      corrections.map((c) => `${c.transaction_id} ${c.requested}`),
      [1, 2, 3, 4].map((n, i) => `resettle:${b.transactionId}:${n} ${['5.00', '-15.00', '-10.00', '30.00'][i]}`),
      'each change of payout one correction, numbered',
    );
    const unknown = betBody(s);
    expectCode(t, await put(settleOf(unknown, 5)), 5, 'a settle of a bet we never took');
    expectCode(t, await put(unsettleOf(unknown)), 5, 'an unsettle of a bet we never took');
    expectCode(t, await put({ ...settleOf(b, 5), userId: other.player }), 5, "a settle naming another user's bet");
    expectCode(t, await put(settleOf(b, 5, 'won', { currency: 'USD' })), 5, 'a settle in another currency');
  });

  t.test('a resettle down and a rollback of a settled bet: into the player’s debt, never refused', async (t) => {
    const s = await session(t, '20.00');
    const b = betBody(s, { amount: 10 });
    await place(b);
    await put(settleOf(b, 50));
    t.equal(await balanceOf(s), 60);
    // The player spends the winnings on another bet that stays open.
    const spend = betBody(s, { amount: 55 });
    okMove(t, await place(spend), spend.transactionId, 'the winnings staked again');
    t.equal(await balanceOf(s), 5);
    okMove(t, await put(settleOf(b, 0, 'lost')), b.transactionId, 'resettled lost: -50 on a balance of 5');
    t.equal(await balanceOf(s), 0, 'the balance taken, never below zero');
    const debts = await admin('GET', `/admin/providers/${provider.id}/debts`);
    t.match(
      debts.data.find((d: any) => d.playerId === s.player),
      { owed: '45.00', incurred: '45.00' },
      'the rest is the player’s debt',
    );
    await put(settleOf(spend, 60));
    t.equal(await balanceOf(s), 15, 'the next win repays the debt first: 60 - 45');
    // The repaid part went on to the provider: it is no change of the bet's payout, which is still 60.
    okMove(t, await put(settleOf(spend, 60)), spend.transactionId, 'that settle sent again (Betsy retries until answered)');
    t.equal(await balanceOf(s), 15, 'moves nothing: the payout in force is 60, the repayment no correction of it');
    await put(settleOf(spend, 70));
    t.equal(await balanceOf(s), 25, 'resettled to 70: +10, the difference from 60');
    await put(settleOf(spend, 60));
    t.equal(await balanceOf(s), 15, 'and back to 60: -10');

    const c = betBody(s, { amount: 5 });
    await place(c);
    await put(settleOf(c, 40));
    t.equal(await balanceOf(s), 50);
    const away = betBody(s, { amount: 45 });
    await place(away);
    okMove(t, await put(rollbackOf(c, 50)), c.transactionId, 'Betsy takes back a bet it settled');
    t.equal(await balanceOf(s), 0, 'stake 5 back, payout 40 taken: -35 on a balance of 5');
    t.match(
      (await admin('GET', `/admin/providers/${provider.id}/debts`)).data.find((d: any) => d.playerId === s.player),
      { owed: '30.00' },
      'the rest is the player’s debt',
    );
    okMove(t, await put(rollbackOf(c, 50)), c.transactionId, 'the rollback sent again');
    t.equal(await balanceOf(s), 0, 'moves nothing');
    expectCode(t, await put(settleOf(c, 40)), 20, 'a settle of a bet rolled back after its settle: its result is final');
    okMove(t, await put(unsettleOf(c)), c.transactionId, 'an unsettle of it: answered');
    okMove(t, await put(rollbackOf(c, 52)), c.transactionId, 'a rollback of it with another reason: answered');
    t.equal(await balanceOf(s), 0, 'none of them moves money');
    await put(settleOf(away, 45, 'refund'));
    t.equal(await balanceOf(s), 15, 'a refund of 45 repays the 30 owed first');
    okMove(t, await put(settleOf(away, 45, 'refund')), away.transactionId, 'the refund sent again');
    t.equal(await balanceOf(s), 15, 'moves nothing');
  });

  t.test('rollbacks: the stake back once; of a bet never received, recorded and the late bet refused; of a rolled-back bet, a settle is 20', async (t) => {
    const s = await session(t);
    const b = betBody(s, { amount: 12 });
    await place(b);
    okMove(t, await put(rollbackOf(b, 8)), b.transactionId, 'odds changed: rolled back');
    t.equal(await balanceOf(s), 100, 'the stake back');
    okMove(t, await put(rollbackOf(b, 8)), b.transactionId, 'sent again');
    t.equal(await balanceOf(s), 100, 'nothing more');
    t.match(await roundOf(b), { status: 'voided' });
    expectCode(t, await put(settleOf(b, 24)), 20, 'a settle of a rolled-back bet');
    t.equal(await balanceOf(s), 100);
    const never = betBody(s, { amount: 9 });
    okMove(t, await put(rollbackOf(never, 10)), never.transactionId, 'a rollback of a bet that never reached us');
    t.equal(await balanceOf(s), 100, 'nothing moved');
    expectCode(t, await place(never), 8, 'the bet arriving after its rollback');
    t.equal(await balanceOf(s), 100);
    const other = await session(t);
    const theirs = betBody(other, { amount: 3 });
    await place(theirs);
    expectCode(t, await put({ ...rollbackOf(theirs), userId: s.player }), 5, "a rollback naming another user's bet");
    t.equal(await balanceOf(other), 97, 'nothing moved');
  });

  t.test("every refusal of a place bet, Brazil's rules included; settles and rollbacks still paid", async (t) => {
    const s = await session(t);
    const refused = async (t: Test, what: string, body: unknown, code: BetsyErrorCode) => expectCode(t, await place(body), code, what);
    await refused(t, 'an unknown token', betBody(s, { token: 'pst_never-issued' }), 3);
    const other = await session(t);
    await refused(t, "another user's token", betBody(s, { token: other.token }), 3);
    await refused(t, 'another currency', betBody(s, { currency: 'USD' }), 5);
    await refused(t, 'a gameType we do not have', betBody(s, { gameType: 'casino' }), 5);
    await admin('PUT', `/admin/providers/${provider.id}/games/esports`, { name: 'eSports', category: 'sports', enabled: false });
    await refused(t, 'a disabled game', betBody(s, { gameType: 'esports' }), 9);
    await refused(t, 'more than the balance', betBody(s, { amount: 100.01 }), 7);

    // Bets open before the player's standing changes: their settle and rollback are paid after.
    const open = betBody(s, { amount: 5 });
    await place(open);
    const spare = betBody(s, { amount: 5 });
    await place(spare);
    const wager = await games.call('players.rg.setLimit', live, { params: { playerId: s.player, type: 'wager', period: 'day' }, body: { value: '15.00' } });
    t.equal(wager.ok, true, 'a wager limit of 15.00 a day');
    await refused(t, 'a stake limit', betBody(s, { amount: 6 }), 11);

    await admin('PUT', `/admin/providers/${provider.id}`, { status: 'disabled' });
    await refused(t, 'the provider disabled', betBody(s, { amount: 1 }), 9);
    await admin('PUT', `/admin/providers/${provider.id}`, { status: 'enabled' });
    await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: false });
    await refused(t, 'not offered to the operator', betBody(s, { amount: 1 }), 9);
    await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
    await admin('POST', `/admin/operators/${live.operatorId}/suspend`);
    await refused(t, 'the operator suspended', betBody(s, { amount: 1 }), 9);
    const suspendedSettle = settleOf(open, 4, 'won');
    okMove(t, await put(suspendedSettle), open.transactionId, 'a settle while the operator is suspended: paid');
    await admin('POST', `/admin/operators/${live.operatorId}/resume`);

    const excluded = await games.call('players.rg.selfExclude', live, { params: { playerId: s.player }, body: { months: 1 } });
    t.equal(excluded.ok, true, 'the player self-excludes');
    await refused(t, 'self-excluded', betBody(s, { amount: 1 }), 14);
    okMove(t, await put(settleOf(open, 12)), open.transactionId, 'the resettle of a bet open before: paid');
    okMove(t, await put(rollbackOf(spare)), spare.transactionId, 'the rollback of a bet before: refunded');
    t.equal(await balanceOf(s), 107, '100 - 5 - 5 + 12 + 5');

    const loss = await session(t);
    const setLoss = await games.call('players.rg.setLimit', live, { params: { playerId: loss.player, type: 'loss', period: 'day' }, body: { value: '10.00' } });
    t.equal(setLoss.ok, true, 'a loss limit of 10.00 a day');
    await refused(t, 'a loss limit', betBody(loss, { amount: 11 }), 12);
    const paused = await session(t);
    const pause = await games.call('players.rg.pause', live, {
      params: { playerId: paused.player },
      body: { until: new Date(Date.now() + 86_400_000).toISOString() },
    });
    if (pause.ok) await refused(t, 'paused', betBody(paused, { amount: 1 }), 14);
    else t.fail(`pause: ${JSON.stringify(pause)}`);
    const unverified = await session(t, '10.00');
    const revoked = await games.call(
      'players.admin.kycDecision',
      { kind: 'admin', actor: 'test-admin' },
      { params: { id: unverified.player }, body: { status: 'reprovado' } },
    );
    t.equal(revoked.ok, true, "our team refuses the player's KYC after the session opened");
    await refused(t, 'KYC not approved', betBody(unverified, { amount: 1 }), 15);
    const frozen = await session(t);
    const status = await games.call(
      'players.admin.status',
      { kind: 'admin', actor: 'test-admin' },
      { params: { id: frozen.player }, body: { status: 'bloqueado' } },
    );
    t.equal(status.ok, true, 'a player blocked by our team');
    await refused(t, 'a blocked player', betBody(frozen, { amount: 1 }), 9);
  });

  t.test('after the session: the profile and a place bet refused, the balance still reads, a settle and a rollback paid', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    const spare = betBody(s, { amount: 2 });
    await place(b);
    await place(spare);
    const cashed = betBody(s, { amount: 5 });
    await place(cashed);
    const cashing = settleOf(cashed, 8, 'cashout', { token: s.token });
    okMove(t, await put(cashing), cashed.transactionId, 'cashed out during the session');
    await games.sql(`update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where player_id = ?`, [
      s.player,
    ]);
    expectCode(t, await call('POST', '/user/profile', { token: s.token, requestId: id() }), 4, '/user/profile of an ended session');
    expectCode(t, await place(betBody(s)), 4, 'a place bet needs a live session');
    expectCode(t, await put(settleOf(b, 30, 'cashout', { token: s.token })), 4, 'a cashout needs a live session');
    okMove(t, await put(settleOf(b, 15)), b.transactionId, 'a settle after the session ends');
    okMove(t, await put(rollbackOf(spare)), spare.transactionId, 'a rollback after the session ends');
    okMove(t, await put({ ...cashing, requestId: id() }), cashed.transactionId, 'the cash-out sent again after the session ends: answered as the first time');
    t.equal(await balanceOf(s), 108, 'the balance still reads after the session: 100 - 10 - 2 - 5 + 8 + 15 + 2, the cash-out paid once');
    const stranger = await session(t);
    expectCode(
      t,
      await call('POST', '/user/balance', { userId: s.player, currency: 'BRL', token: stranger.token, requestId: id() }),
      3,
      "a balance of a user under another's token",
    );
    expectCode(
      t,
      await call('POST', '/user/balance', { userId: s.player, currency: 'USD', token: s.token, requestId: id() }),
      5,
      'a balance in another currency',
    );
  });

  t.test('the partner: an unknown provider, a native one, an address outside the allow-list', async (t) => {
    const b = { token: 'pst_x', requestId: id() };
    const at = (url: string) => call('POST', '/user/profile', b, { url });
    expectCode(t, await at(`${gw.publicUrl}/connectors/betsy/prv_nobody/production`), 1, 'an unknown provider');
    const native = await admin('POST', '/admin/providers', { name: `Native ${randomBytes(3).toString('hex')}`, kind: 'sportsbook' });
    expectCode(t, await at(`${gw.publicUrl}/connectors/betsy/${native.id}/production`), 1, 'a native provider');
    expectCode(t, await at(base.replace('/production', '/staging')), 1, 'no such environment');
    expectCode(t, await at(base.replace('/production', '/sandbox')), 1, "the sandbox, where Betsy's secret is not set");
    await admin('PUT', `/admin/providers/${provider.id}`, { allowedIps: ['203.0.113.0/24'] });
    expectCode(t, await at(base), 1, 'a caller outside the allow-list');
    await admin('PUT', `/admin/providers/${provider.id}`, { allowedIps: [] });
  });

  t.test('a rollback of a settled bet crossing resettles and unsettles of it: the rollback holds, the payout ends at the stake', async (t) => {
    const s = await session(t, '100.00');
    const bets: Bet[] = [];
    for (let i = 0; i < 6; i++) {
      const b = betBody(s, { amount: 10 });
      await place(b);
      await put(settleOf(b, 30));
      bets.push(b);
    }
    t.equal(await balanceOf(s), 220, 'six bets of 10 settled at 30');
    // Each bet's rollback sent at once with two resettles (up and down) and an unsettle of it.
    const answers = await Promise.all(
      bets.flatMap((b, i) => [put(rollbackOf(b)), put(settleOf(b, 70 + i)), put(settleOf(b, 5)), put(unsettleOf(b)), put(rollbackOf(b))]),
    );
    t.equal(answers.filter((a) => a.http === 200 || a.body.code === 20).length, answers.length, 'each answered 200 or code 20');
    // The payout as asked: its win and every correction as Betsy's calls asked it (a debit the
    // balance did not cover included: that part is the player's debt to the provider).
    const payouts = await games.sql<{ payout: string }>(
      `select (r.won + coalesce((select sum(requested) from wallet.provider_transactions t
                                  where t.provider_id = r.provider_id and t.round_id = r.round_id and t.kind = 'correction' and t.repays is null), 0))::text as payout
       from wallet.provider_rounds r where r.provider_id = ? and r.round_id = any(?) order by r.round_id`,
      [provider.id, bets.map((b) => b.transactionId)],
    );
    t.same(
      payouts.map((r) => r.payout),
      bets.map(() => '10.00'),
      "each bet's payout ends at its stake: rolled back, whatever crossed it",
    );
    const owed = (await admin('GET', `/admin/providers/${provider.id}/debts`)).data.find((d: any) => d.playerId === s.player)?.owed ?? '0.00';
    t.equal(Number(await balanceOf(s)) - Number(owed), 100, 'the player is back where the bets started (the balance less what is owed)');
    const again = await Promise.all(bets.map((b) => put(settleOf(b, 30))));
    t.same(
      again.map((a) => a.body.code),
      bets.map(() => 20),
      'a settle afterwards: code 20',
    );
    const v = await games.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
  });

  t.test('every code of the mapping was answered where it belongs', async (t) => {
    // 100 (our outage, a fault of ours) is answered in connector-betsy-crash.test.ts and
    // connector-betsy-statuses.test.ts; the codes we never answer are listed in BETSY_UNUSED_CODES.
    const elsewhere: BetsyErrorCode[] = [100, ...BETSY_UNUSED_CODES];
    t.same(
      BETSY_ERROR_CODES.filter((c) => !seen.has(c) && !elsewhere.includes(c)),
      [],
      'none missing',
    );
  });

  t.test(
    "the connector's traffic is the provider wallet's: the regulator's lines list the slip and its legs; the health counts it; the ledger verifies",
    async (t) => {
      const s = await session(t);
      const b = betBody(s, { amount: 3, ticketType: 'express', metadata: [leg('Santos x Vasco'), leg('Bahia x Sport')] });
      await place(b);
      await put(settleOf(b, 9));
      const moves = await games.call(regulatorProviderMessages.providerMoves.subject, gatewayScope, {
        body: { brandId: live.brandId, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), limit: 1000 },
      });
      if (!moves.ok) t.fail(JSON.stringify(moves));
      const lines = JSON.stringify(moves.ok ? moves.body : {});
      t.ok(lines.includes(b.transactionId), "the bet is one of the regulator file's lines, under Betsy's transaction id");
      t.ok(lines.includes('Santos x Vasco | Bahia x Sport') && lines.includes('"betType":"multiple"'), 'with its slip: one line of its legs, and the legs');
      t.ok(lines.includes(`settle:${b.transactionId}`), 'and its settle');
      const health = await waitFor(
        async () => {
          const v = await admin('GET', P);
          const env = v.environments.find((e: any) => e.environment === 'production');
          return env.health.calls > 0 && env.health.byStatus.OK > 0 && env.health.byStatus.CODE_1 > 0 ? env.health : undefined;
        },
        { what: 'the health report' },
      );
      t.match(health, { lastCallAt: String, byStatus: { OK: Number, CODE_1: Number, CODE_7: Number } }, 'the health: last call, answers by status');
      t.ok(health.errorRate > 0 && health.errorRate < 1, 'an error rate between 0 and 1');
      const audited = await waitFor(
        async () => {
          const r = await admin('GET', `/admin/audit?target=provider:${provider.id}&limit=100`);
          const actions = new Set((r.data as Array<{ action: string }>).map((a) => a.action));
          return ['adminSetConnectorSettings', 'adminSetConnectorSecret', 'adminRevokeConnectorKey'].every((a) => actions.has(a)) ? r.data : undefined;
        },
        { what: "the connector changes' audit rows" },
      );
      t.notMatch(JSON.stringify(audited), new RegExp(secret), 'no audit row holds a secret');
      const v = await games.verifyLedger();
      t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
    },
  );
});
