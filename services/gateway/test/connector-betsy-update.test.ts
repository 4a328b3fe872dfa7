// Betsy's bet data update (`PUT /payment/bet` type 5; issue #66 item 6, docs/connectors-betsy.md "Bet
// data updates") through the real gateway, to the real wallet: "the latest actual state of a bet",
// sent before and after its settle, kept by the wallet beside the bet with its history (each update
// once, in order of the version or time it carries), answered as the other PUT /payment/bet calls,
// moving no money (the player's balance, ledger entries and provider transactions unchanged); an
// unknown bet, another user's or another currency is code 5; the operator's read of the player's
// rounds shows the bet's latest state beside the bet as placed. Every request is signed.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { betsySignature, type BetsyWireAnswer, type OperatorScope } from '@bo/contracts';
import { startGamesStack } from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';
import { startHarness } from './support/harness.ts';

const id = (): string => randomUUID();

t.test('Betsy bet data update', async (t) => {
  const h = await startHarness({ RPC_TIMEOUT_MS: '30000' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: gw.publicUrl }, { prefix: h.prefix });
  const op = await h.createOperator({ name: `Betsy Updates ${randomBytes(3).toString('hex')}` });
  const me = await op.productionClient.get('/me');
  const live: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: me.body.brand.id, environment: 'production', currency: 'BRL' };
  const secret = `ps_${randomBytes(16).toString('hex')}`;

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await h.admin(method, path, body);
    if (r.status !== 200 && r.status !== 201) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const provider = await admin('POST', '/admin/providers', { name: `Betsy ${randomBytes(3).toString('hex')}`, kind: 'sportsbook', protocol: 'betsy' });
  const P = `/admin/providers/${provider.id}/connector`;
  await admin('PUT', `${P}/production`, { settings: { frameUrl: 'https://sports.operator.test/betsy-frame' } });
  await admin('POST', `${P}/production/secrets`, { name: 'partnerSecret', value: secret });
  const sportsbook = await admin('PUT', `/admin/providers/${provider.id}/games/sportsbook`, { name: 'Sportsbook', category: 'sports' });
  await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
  const base = (await admin('GET', P)).environments.find((e: any) => e.environment === 'production').endpointUrl as string;

  /** A call as Betsy makes it: the exact bytes, signed with `x-sign-jws`. */
  const call = async (method: 'POST' | 'PUT', body: unknown, raw = JSON.stringify(body)): Promise<{ http: number; body: BetsyWireAnswer }> => {
    const res = await fetch(`${base}/payment/bet`, {
      method,
      headers: { 'content-type': 'application/json', 'x-sign-jws': betsySignature(raw, secret) },
      body: raw,
    });
    return { http: res.status, body: (await res.json()) as BetsyWireAnswer };
  };
  const put = (b: unknown) => call('PUT', b);

  type S = { player: string; token: string };
  const session = async (t: Test): Promise<S> => {
    const player = await games.createPlayer(live, { kyc: 'aprovado' });
    await games.credit(live, player, '100.00');
    await games.openSession(t, live, player, sportsbook.id);
    const [row] = await games.sql<{ provider_url: string }>('select provider_url from wallet.game_sessions where player_id = ? order by created_at desc', [
      player,
    ]);
    return { player, token: new URL(row!.provider_url).searchParams.get('token')! };
  };
  const leg = (event: string, coefficient: number, over: Record<string, unknown> = {}) => ({
    disciplineId: 'football',
    discipline: 'Football',
    tournamentId: '325',
    tournament: 'Brasileirão',
    eventId: 'e-1',
    event,
    eventDate: '2026-11-22 19:00:00',
    marketId: 'm1',
    market: 'Match Winner',
    outcomeId: '1',
    outcome: event.split(' x ')[0],
    coefficient,
    stage: 1,
    ...over,
  });
  const betBody = (s: S) => ({
    token: s.token,
    transactionId: id(),
    currency: 'BRL',
    amount: 10,
    userId: s.player,
    type: 1,
    coefficient: 4.935,
    requestId: id(),
    gameType: 'sportsbook',
    ticketType: 'express',
    metadata: [leg('Flamengo x Palmeiras', 2.35), leg('Grêmio x Inter', 2.1)],
  });
  type Bet = ReturnType<typeof betBody>;
  /** A bet data update: the bet's state now, its version, and whatever else Betsy sends. */
  const updateOf = (b: Bet, version: number | null, over: Record<string, unknown> = {}) => ({
    transactionId: b.transactionId,
    userId: b.userId,
    currency: b.currency,
    amount: b.amount,
    type: 5,
    requestId: id(),
    coefficient: 4.41,
    ticketType: b.ticketType,
    status: 'open',
    ...(version === null ? {} : { version }),
    metadata: [leg('Flamengo x Palmeiras', 2.1, { status: 'won' }), leg('Grêmio x Inter', 2.1, { status: 'open' })],
    ...over,
  });
  const okAnswer = (t: Test, a: { http: number; body: BetsyWireAnswer }, b: Bet, what: string) => {
    t.equal(a.http, 200, `${what}: HTTP 200`);
    t.same(Object.keys(a.body).sort(), ['transactionId', 'transactionTime'], `${what}: the other PUT /payment/bet answers' shape`);
    t.equal(a.body.transactionId, b.transactionId, `${what}: the bet's transactionId`);
  };
  const code5 = (t: Test, a: { http: number; body: BetsyWireAnswer }, what: string) => t.same([a.http, a.body.code], [400, 5], `${what}: HTTP 400 code 5`);
  /** The bet's updates as kept, in the order the bet's state reads them. */
  const history = async (b: Bet) =>
    games.sql<{ version: string | null; status: string | null; coefficient: string; legs: number; requestId: string | null; token: string | null }>(
      `select version::text as version, status, state->>'coefficient' as coefficient, jsonb_array_length(state->'metadata') as legs,
              state->>'requestId' as "requestId", state->>'token' as token
       from wallet.provider_bet_updates where provider_id = ? and round_id = ? order by version nulls first, id`,
      [provider.id, b.transactionId],
    );
  /** What money there is of the player: the balance, the ledger's entries and the provider's transactions of the bet. */
  const money = async (s: S, b: Bet) => {
    const [row] = await games.sql<{ available: string; entries: string; moves: string; round: string }>(
      `select a.available::text as available,
              (select count(*) from wallet.ledger_entries e where e.account_id = a.id)::text as entries,
              (select count(*) from wallet.provider_transactions x where x.provider_id = ? and x.round_id = ?)::text as moves,
              (select concat_ws(' ', r.status, r.staked, r.won, r.corrected, r.outcome) from wallet.provider_rounds r
                where r.provider_id = ? and r.round_id = ?) as round
       from wallet.accounts a where a.kind = 'player' and a.player_id = ?`,
      [provider.id, b.transactionId, provider.id, b.transactionId, s.player],
    );
    return row!;
  };
  const roundRead = async (s: S, b: Bet) => {
    const r = await op.productionClient.get(`/players/${s.player}/rounds`);
    if (r.status !== 200) throw new Error(`GET /players/{id}/rounds: ${r.status} ${JSON.stringify(r.body)}`);
    return (r.body.data as any[]).find((x) => x.roundId === b.transactionId);
  };

  t.test('before and after its settle: kept, answered, the latest read beside the bet as placed; no money moves', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    t.equal((await call('POST', b)).http, 200, 'the bet placed');
    t.equal((await roundRead(s, b)).update, null, 'no update yet');
    const placed = await money(s, b);
    t.equal(placed.available, '90.00', 'the stake taken');

    const open = updateOf(b, 1);
    okAnswer(t, await put(open), b, 'an update of the open bet');
    t.same(await money(s, b), placed, 'no money moved: the balance, the ledger entries, the bet');
    const read = await roundRead(s, b);
    t.match(
      read.update,
      {
        status: 'open',
        version: 1,
        updates: 1,
        receivedAt: /Z$/,
        slip: {
          event: 'Flamengo x Palmeiras | Grêmio x Inter',
          odds: '4.41',
          betType: 'multiple',
          legs: [
            { selection: 'Flamengo', odds: '2.1' },
            { selection: 'Grêmio', odds: '2.1' },
          ],
        },
      },
      "the operator's read: the bet's latest state, its odds and selections",
    );
    t.equal(read.slip.odds, '4.935', 'the bet as placed stays as placed');

    t.equal(
      (await put({ transactionId: b.transactionId, userId: s.player, currency: 'BRL', amount: 30, type: 2, resultType: 'won', requestId: id() })).http,
      200,
      'settled: won 30',
    );
    const settled = await money(s, b);
    t.same([settled.available, settled.round], ['120.00', 'settled 10.00 30.00 0.00 won'], 'the settle paid');
    const after = updateOf(b, 2, {
      status: 'won',
      metadata: [leg('Flamengo x Palmeiras', 2.1, { status: 'won' }), leg('Grêmio x Inter', 2.1, { status: 'won' })],
    });
    okAnswer(t, await put(after), b, 'an update after the settle');
    t.same(await money(s, b), settled, 'no money moved after the settle either: the payout stays the settle’s');
    t.match((await roundRead(s, b)).update, { status: 'won', version: 2, updates: 2 }, 'the latest state: the settled one');
    t.same(
      (await history(b)).map((u) => [u.version, u.status, u.legs]),
      [
        ['1', 'open', 2],
        ['2', 'won', 2],
      ],
      'each update kept, in order',
    );
    t.same(
      (await history(b)).map((u) => [u.requestId, u.token]),
      [
        [null, null],
        [null, null],
      ],
      'without its requestId or a token',
    );
    const v = await games.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
  });

  t.test('the same update 20 times at once: answered alike, kept once', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    await call('POST', b);
    const before = await money(s, b);
    const u = updateOf(b, 7, { status: 'open' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => put(u)));
    t.same(new Set(answers.map((a) => `${a.http} ${a.body.transactionId} ${a.body.transactionTime}`)).size, 1, 'every copy answered as the first');
    okAnswer(t, answers[0]!, b, 'the copies');
    const again = await put({ ...u, requestId: id(), token: s.token });
    t.equal(again.body.transactionTime, answers[0]!.body.transactionTime, 'sent again later with another requestId (and a token): the first one’s answer');
    t.equal((await history(b)).length, 1, 'kept once');
    t.same(await money(s, b), before, 'no money moved');
  });

  t.test('out of order: an older update arriving after a newer one is kept in the history, the newer stays the latest', async (t) => {
    const s = await session(t);
    const b = betBody(s);
    await call('POST', b);
    const timed = betBody(s);
    await call('POST', timed);
    const before = [await money(s, b), await money(s, timed)];
    okAnswer(t, await put(updateOf(b, 5, { status: 'won', coefficient: 5.5 })), b, 'version 5');
    okAnswer(t, await put(updateOf(b, 3, { status: 'open', coefficient: 3.3 })), b, 'version 3, arriving after it');
    t.match((await roundRead(s, b)).update, { status: 'won', version: 5, updates: 2, slip: { odds: '5.5' } }, 'the latest: version 5');
    t.same(
      (await history(b)).map((u) => [u.version, u.coefficient]),
      [
        ['3', '3.3'],
        ['5', '5.5'],
      ],
      'both kept, in version order',
    );
    // By time when no version: `updatedAt`, as Betsy writes dates (UTC), or an ISO time.
    okAnswer(t, await put(updateOf(timed, null, { updatedAt: '2026-11-22 21:00:00', status: 'won' })), timed, 'updatedAt 21:00');
    okAnswer(t, await put(updateOf(timed, null, { updatedAt: '2026-11-22T20:00:00Z', status: 'open' })), timed, 'updatedAt 20:00, arriving after it');
    t.match((await roundRead(s, timed)).update, { status: 'won', version: Date.parse('2026-11-22T21:00:00Z'), updates: 2 }, 'the latest: 21:00');
    code5(t, await put(updateOf(timed, null, { updatedAt: 'tomorrow at nine' })), 'an updatedAt we cannot read');
    t.same([await money(s, b), await money(s, timed)], before, 'no money moved');
  });

  t.test('an unknown bet, another user’s, another currency: code 5, nothing kept', async (t) => {
    const s = await session(t);
    const other = await session(t);
    const b = betBody(s);
    await call('POST', b);
    const never = betBody(s);
    code5(t, await put(updateOf(never, 1)), 'a bet we never took');
    code5(t, await put({ ...updateOf(b, 1), userId: other.player }), "another user's bet");
    code5(t, await put(updateOf(b, 1, { currency: 'USD' })), 'another currency');
    code5(t, await put({ transactionId: b.transactionId, type: 5, requestId: id() }), 'no userId');
    const [theirs] = await games.sql<{ n: string }>('select count(*)::text as n from wallet.provider_bet_updates where provider_id = ? and round_id = any(?)', [
      provider.id,
      [b.transactionId, never.transactionId],
    ]);
    t.equal(theirs!.n, '0', 'nothing kept of them');
    t.equal((await money(other, b)).available, '100.00', "the other user's balance unchanged");
  });
});
