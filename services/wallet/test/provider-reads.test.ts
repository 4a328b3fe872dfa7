// What operators and our team read of third-party providers' play (issue #44, items 6 and 7), in
// the wallet against real Postgres and NATS with the real players service: a player's rounds and
// sports bets (newest first, by cursor), the sports bet webhooks written by the money's own
// statement, a provider's daily report tied to its clearing accounts, the daily regulator file's
// provider lines and the AML watch's stakes; last, br-spa's limits on a provider bet. The
// operators service is a NATS responder (its status is all the wallet asks).
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import {
  adminScope,
  certifiedGame,
  gamesServicesWith,
  PUT_CERTIFICATE_SUBJECT,
  setComplianceProfile,
  scopes,
  startFakeProvider,
  startGamesStack,
  type GamesStack,
} from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const internal = { kind: 'internal' as const, service: 'compliance' };
const txId = (label = 'tx') => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);
const SLIP = {
  sport: 'football',
  event: 'Flamengo x Palmeiras',
  market: 'match_result',
  selection: 'Flamengo',
  odds: '2.35',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

async function assertLedgerSound(t: Test, h: GamesStack): Promise<void> {
  const v = await h.verifyLedger();
  t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
}

t.test('what operators and our team read of providers', async (t) => {
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const admin = async (subject: string, params: Record<string, string>, body?: unknown, query?: Record<string, string>) => {
    const r = await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body;
  };
  /** A provider of `kind` enabled for the operator, with one game; its scope on the provider API. */
  const providerOf = async (kind: 'casino' | 'sportsbook', gameCode: string) => {
    const provider = await admin('wallet.admin.providers.create', {}, { name: `${kind} ${txId()}`, kind, launchUrl: fake.url });
    const game = await admin(
      'wallet.admin.providers.putGame',
      { id: provider.id, gameCode },
      { name: gameCode, category: kind === 'casino' ? 'slots' : 'sports' },
    );
    await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
    // Under br-spa a casino game takes bets only with a valid certificate (issue #59 item 5).
    if (kind === 'casino') {
      const certified = certifiedGame(provider.id, gameCode);
      await admin(PUT_CERTIFICATE_SUBJECT, certified.params, certified.body);
    }
    const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
    const call = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body }) as Promise<any>;
    return { provider, game, call };
  };
  const casino = await providerOf('casino', 'sweet-fruits');
  const sports = await providerOf('sportsbook', 'sportsbook');

  /** A funded player's session of the provider's game; the token the provider got at launch. */
  const tokenFor = async (t: Test, player: string, gameId: string) => {
    await h.openSession(t, live, player, gameId);
    return fake.requests.at(-1)!.body.token as string;
  };
  const funded = async (amount = '100.00') => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, amount);
    return player;
  };
  const ok = (r: any) => {
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.body;
  };
  const outboxOf = async (type: string, playerId: string) =>
    (await h.sql<{ payload: string }>('select payload from wallet.outbox where subject_type = ? order by seq', [type]))
      .map((r) => JSON.parse(r.payload))
      .filter((e) => e.data.playerId === playerId);

  t.test('a player reads their provider rounds and sports bets, newest first, page by page', async (t) => {
    const player = await funded();
    const ctoken = await tokenFor(t, player, casino.game.id);
    const rounds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const roundId = txId('round');
      rounds.push(roundId);
      ok(await casino.call('bet', { transactionId: txId('bet'), token: ctoken, roundId, gameCode: 'sweet-fruits', amount: '5.00', currency: 'BRL' }));
    }
    ok(await casino.call('win', { transactionId: txId('win'), playerId: player, roundId: rounds[0], amount: '12.00', currency: 'BRL', roundClosed: true }));
    const stoken = await tokenFor(t, player, sports.game.id);
    const betId = txId('slip');
    ok(
      await sports.call('bet', {
        transactionId: txId('sbet'),
        token: stoken,
        roundId: betId,
        gameCode: 'sportsbook',
        amount: '20.00',
        currency: 'BRL',
        slip: SLIP,
      }),
    );

    const page1 = ok(await h.call('wallet.rounds.list', live, { params: { playerId: player }, query: { limit: 2 } }));
    t.same(
      page1.data.map((r: any) => r.roundId),
      [betId, rounds[2]],
      'the newest two: the sports bet, then the last casino round',
    );
    t.match(page1.data[0], {
      providerId: sports.provider.id,
      providerName: sports.provider.name,
      gameId: sports.game.id,
      gameCode: 'sportsbook',
      kind: 'sports',
      status: 'open',
      currency: 'BRL',
      staked: '20.00',
      won: '0.00',
      corrected: '0.00',
      slip: SLIP,
      outcome: null,
      openedAt: /Z$/,
      closedAt: null,
    });
    t.type(page1.nextCursor, 'string');
    const page2 = ok(await h.call('wallet.rounds.list', live, { params: { playerId: player }, query: { limit: 2, cursor: page1.nextCursor } }));
    t.same(
      page2.data.map((r: any) => r.roundId),
      [rounds[1], rounds[0]],
    );
    t.match(page2.data[1], { kind: 'casino', status: 'settled', staked: '5.00', won: '12.00', slip: null, closedAt: /Z$/ }, 'the settled round');
    t.equal(page2.nextCursor, null, 'the last page');

    const other = await funded();
    t.equal(
      code(await h.call('wallet.rounds.list', live, { params: { playerId: other }, query: { cursor: page1.nextCursor } })),
      'VALIDATION_ERROR',
      "another player's cursor is refused",
    );
    t.same(ok(await h.call('wallet.rounds.list', live, { params: { playerId: other } })), { data: [], nextCursor: null }, 'a player without rounds');
    t.equal(code(await h.call('wallet.rounds.list', scopes.otherBrand, { params: { playerId: player } })), 'PLAYER_NOT_FOUND', "another brand's player");
    await assertLedgerSound(t, h);
  });

  t.test('sports bets placed and settled are webhooks written with their money, once each; casino rounds are not', async (t) => {
    const player = await funded();
    const stoken = await tokenFor(t, player, sports.game.id);
    const won = { transactionId: txId('sbet'), token: stoken, roundId: txId('slip'), gameCode: 'sportsbook', amount: '20.00', currency: 'BRL', slip: SLIP };
    ok(await sports.call('bet', won));
    t.equal(ok(await sports.call('bet', won)).replayed, true, 'a retry of the bet');
    const voided = { ...won, transactionId: txId('sbet'), roundId: txId('slip'), amount: '7.00' };
    ok(await sports.call('bet', voided));
    const lost = { ...won, transactionId: txId('sbet'), roundId: txId('slip'), amount: '3.00' };
    ok(await sports.call('bet', lost));
    const placed = await outboxOf('sports_bet.placed', player);
    t.same(
      placed.map((e) => [e.data.betId, e.data.stake]),
      [
        [won.roundId, '20.00'],
        [voided.roundId, '7.00'],
        [lost.roundId, '3.00'],
      ],
      'one sports_bet.placed per bet, none for the retry',
    );
    t.match(placed[0], {
      id: /^evt_/,
      type: 'sports_bet.placed',
      environment: 'production',
      data: { providerId: sports.provider.id, transactionId: won.transactionId, gameCode: 'sportsbook', currency: 'BRL', slip: SLIP, placedAt: /Z$/ },
    });

    const win = { transactionId: txId('swin'), playerId: player, roundId: won.roundId, amount: '47.00', currency: 'BRL', roundClosed: true, outcome: 'won' };
    ok(await sports.call('win', win));
    t.equal(ok(await sports.call('win', win)).replayed, true, 'a retry of the settlement');
    ok(await sports.call('rollback', { transactionId: txId('srb'), playerId: player, betTransactionId: voided.transactionId, roundId: voided.roundId }));
    ok(
      await sports.call('win', {
        transactionId: txId('swin'),
        playerId: player,
        roundId: lost.roundId,
        amount: '0',
        currency: 'BRL',
        roundClosed: true,
        outcome: 'lost',
      }),
    );
    const settled = await outboxOf('sports_bet.settled', player);
    t.same(
      settled.map((e) => [e.data.betId, e.data.status, e.data.outcome, e.data.staked, e.data.won]),
      [
        [won.roundId, 'settled', 'won', '20.00', '47.00'],
        [voided.roundId, 'voided', null, '0.00', '0.00'],
        [lost.roundId, 'settled', 'lost', '3.00', '0.00'],
      ],
      'one sports_bet.settled per closed bet: won, voided by its rollback, lost with a win of 0.00',
    );
    t.match(settled[0], {
      id: /^evt_/,
      type: 'sports_bet.settled',
      environment: 'production',
      createdAt: /Z$/,
      data: { providerId: sports.provider.id, gameCode: 'sportsbook', currency: 'BRL', slip: SLIP, settledAt: /Z$/ },
    });
    const [round] = await h.sql('select closed_at from wallet.provider_rounds where provider_id = ? and round_id = ?', [sports.provider.id, won.roundId]);
    t.equal(settled[0].data.settledAt, new Date(round.closed_at).toISOString(), "settledAt is the round's closing time");

    const ctoken = await tokenFor(t, player, casino.game.id);
    const roundId = txId('round');
    ok(await casino.call('bet', { transactionId: txId('bet'), token: ctoken, roundId, gameCode: 'sweet-fruits', amount: '5.00', currency: 'BRL' }));
    ok(await casino.call('win', { transactionId: txId('win'), playerId: player, roundId, amount: '6.00', currency: 'BRL', roundClosed: true }));
    t.equal((await outboxOf('sports_bet.placed', player)).length, 3, 'no event for a casino bet');
    t.equal((await outboxOf('sports_bet.settled', player)).length, 3, 'nor for its win');
    await assertLedgerSound(t, h);
  });

  t.test("a provider's day per brand ties to its clearing accounts; the regulator file's lines and the watch's stakes include its play", async (t) => {
    const player = await funded();
    const ctoken = await tokenFor(t, player, casino.game.id);
    const r1 = txId('round');
    const r2 = txId('round');
    const bet1 = { transactionId: txId('bet'), token: ctoken, roundId: r1, gameCode: 'sweet-fruits', amount: '10.00', currency: 'BRL' };
    const bet2 = { ...bet1, transactionId: txId('bet'), roundId: r2, amount: '4.00' };
    const from = new Date().toISOString();
    ok(await casino.call('bet', bet1));
    ok(await casino.call('win', { transactionId: txId('win'), playerId: player, roundId: r1, amount: '25.00', currency: 'BRL', roundClosed: true }));
    ok(await casino.call('bet', bet2));
    ok(await casino.call('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: bet2.transactionId, roundId: r2 }));
    ok(await casino.call('correction', { transactionId: txId('fix'), playerId: player, roundId: r1, amount: '-5.00', currency: 'BRL', reason: 'resettled' }));
    const to = new Date(Date.now() + 1000).toISOString();

    // The brand's day (issue #61): its calendar day in its operator's zone, São Paulo by default (UTC−3 all year), not the UTC day.
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const report = await admin('wallet.admin.providers.dailyReport', { id: casino.provider.id }, undefined, { date });
    t.match(report, {
      providerId: casino.provider.id,
      providerName: casino.provider.name,
      date,
      from: `${date}T03:00:00.000Z`,
      to: `${next}T03:00:00.000Z`,
      ties: true,
    });
    const brand = report.brands.find((b: any) => b.brandId === live.brandId && b.currency === 'BRL');
    t.match(brand, { timeZone: 'America/Sao_Paulo', from: `${date}T03:00:00.000Z`, to: `${next}T03:00:00.000Z` }, "the brand's own day");
    const one = await admin('wallet.admin.providers.dailyReport', { id: casino.provider.id }, undefined, { date, brandId: live.brandId });
    t.same([...new Set(one.brands.map((b: any) => b.brandId))], [live.brandId], 'one brand when asked');
    // Over this file's tests the casino provider also took bets of other players today: the report sums them all.
    const ours = await h.sql<{ kind: string; n: number; moved: string }>(
      `select kind, count(*)::int as n, sum(moved)::text as moved from wallet.provider_transactions
       where provider_id = ? and brand_id = ? and not never_received group by kind`,
      [casino.provider.id, live.brandId],
    );
    const of = (kind: string) => ours.find((o) => o.kind === kind);
    t.match(brand, {
      bets: { count: of('bet')!.n, amount: of('bet')!.moved },
      wins: { count: of('win')!.n, amount: of('win')!.moved },
      rollbacks: { count: 1, amount: '4.00' },
      corrections: { count: 1, amount: '-5.00' },
      ties: true,
    });
    t.equal(brand.ggr, brand.ledgerNet, "GGR is the clearing account's net of the day");
    const [clearing] = await h.sql<{ net: string }>(`select coalesce(sum(amount), 0)::text as net from wallet.ledger_entries where account_id = ?`, [
      `acct:provider_clearing:${live.brandId}:${casino.provider.id}:BRL`,
    ]);
    t.equal(brand.ledgerNet, clearing?.net, 'the ledger entries of the clearing account');
    t.equal(code(await h.call('wallet.admin.providers.dailyReport', adminScope, { params: { id: 'prv_nope' }, query: { date } })), 'PROVIDER_NOT_FOUND');

    // The regulator file's provider lines: each transaction, with its game code and round.
    const lines = ok(await h.call('wallet.regulator.providerMoves', internal, { body: { brandId: live.brandId, from, to, limit: 1000 } }));
    const mine = lines.data.filter((l: any) => l.playerId === player);
    t.same(
      mine.map((l: any) => [l.kind, l.moved, l.roundId, l.gameCode]),
      [
        ['bet', '-10.00', r1, 'sweet-fruits'],
        ['win', '25.00', r1, 'sweet-fruits'],
        ['bet', '-4.00', r2, 'sweet-fruits'],
        ['rollback', '4.00', r2, 'sweet-fruits'],
        ['correction', '-5.00', r1, 'sweet-fruits'],
      ],
      'every provider transaction, in order',
    );
    t.match(mine[0], {
      providerId: casino.provider.id,
      providerName: casino.provider.name,
      transactionId: bet1.transactionId,
      roundKind: 'casino',
      entryId: /^le_/,
      slip: null,
    });
    const paged = ok(await h.call('wallet.regulator.providerMoves', internal, { body: { brandId: live.brandId, from, to, limit: 2 } }));
    t.equal(paged.data.length, 2);
    t.ok(paged.next, 'a full page says where to go on');
    const moves = ok(await h.call('wallet.regulator.moves', internal, { body: { brandId: live.brandId, from, to, limit: 1000 } }));
    t.same(
      moves.data.filter((m: any) => m.playerId === player),
      [],
      "a provider's bet is not one of our rounds in the file",
    );

    // The watch's stakes: the provider bets, less the one rolled back; and the largest win.
    const stakes = ok(await h.call('wallet.stakes', internal, { body: { brandId: live.brandId, playerId: player, from, to } }));
    t.same(stakes, { stakes: '10.00', largestWin: { amount: '25.00', referenceId: mine[1].id, at: mine[1].at } });
    await assertLedgerSound(t, h);
  });

  t.test('br-spa: a provider bet counts toward the loss limit, and one that would pass it is refused', async (t) => {
    // Registered before the profile is switched on (br-spa registrations carry their limits: Portaria 2.579); the limits follow.
    const player = await funded();
    t.equal(
      (
        await h.call('players.admin.setCompliance', adminScope, {
          params: { id: live.operatorId },
          body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        })
      ).ok,
      true,
    );
    t.teardown(() => setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off'));
    const setLimit = (type: string, period: string, value: unknown) =>
      h.call('players.rg.setLimit', live, { params: { playerId: player, type, period }, body: { value } });
    t.equal((await setLimit('loss', 'day', '30.00')).ok, true);
    t.equal((await setLimit('time', 'day', 120)).ok, true);
    const token = await tokenFor(t, player, casino.game.id);
    const bet = (amount: string) =>
      casino.call('bet', { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'sweet-fruits', amount, currency: 'BRL' });
    t.equal(code(await bet('20.00')), 'ok:200', 'within the limit');
    const refused = await bet('10.01');
    t.match(
      refused,
      { ok: false, error: { code: 'RG_BLOCKED', details: { reason: 'loss_limit', period: 'day', limit: '30.00' } } },
      'a bet that would pass it',
    );
    t.equal(code(await bet('10.00')), 'ok:200', 'up to the limit exactly');
    t.equal(((await h.call('wallet.get', live, { params: { playerId: player } })) as any).body.available, '70.00', 'the refused bet moved nothing');
    const [usage] = await h.sql<{ wagered: string; net_loss: string }>(
      `select sum(wagered)::text as wagered, sum(net_loss)::text as net_loss from wallet.rg_usage where account_id = ?`,
      [`acct:player:${live.brandId}:${player}:BRL`],
    );
    t.same(usage, { wagered: '30.00', net_loss: '30.00' }, "the provider bets in the player's usage, one set of counters with our rounds");
    await assertLedgerSound(t, h);
  });
});
