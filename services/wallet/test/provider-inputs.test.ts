// The provider wallet API's inputs exactly as docs/providers.md states them (issue #56 item 3), in
// the wallet against real Postgres and NATS with the real players service, as a provider's call
// reaches it after the gateway (the same contract schemas check it here): each amount within its
// range and nothing beyond it (422 VALIDATION_ERROR at /amount, nothing moved, nothing recorded);
// a bet's transaction id bound to its player (another player's token under it is a conflict naming
// playerId, never the first player's answer, whichever operator the other player is of); a second
// rollback of a bet that never arrived is answered as done. Every test ends with verifyLedger.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, gamesServicesWith, operatorScope, scopes, startFakeProvider, startGamesStack, type GamesStack } from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
// A second operator (its own brand) the same provider serves in production.
const otherOperator = operatorScope('b', 'production');
const txId = (label = 'tx') => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);

async function assertLedgerSound(t: Test, h: GamesStack): Promise<void> {
  const v = await h.verifyLedger();
  t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
}

t.test('provider inputs as documented', async (t) => {
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) => {
    const r = await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }) });
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body;
  };
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Aggregator ${txId()}`, kind: 'casino', launchUrl: fake.url });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots' });
  for (const s of [live, otherOperator]) await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: s.operatorId }, { enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body }) as Promise<any>;

  const sessionOf = async (t: Test, funds = '100.00', scope = live) => {
    const player = await h.createPlayer(scope, { kyc: 'aprovado' });
    if (funds !== '0.00') await h.credit(scope, player, funds);
    await h.openSession(t, scope, player, game.id);
    return { player, token: fake.requests.at(-1)!.body.token as string };
  };
  const bet = (token: string, over: Record<string, unknown> = {}) => ({
    transactionId: txId('bet'),
    token,
    roundId: txId('round'),
    gameCode: 'sweet-fruits',
    amount: '10.00',
    currency: 'BRL',
    ...over,
  });
  const balanceOf = async (token: string) => (await p('balance', { token })).body.balance;
  const recorded = async (transactionId: string) =>
    (
      await h.sql<{ n: number }>(`select count(*)::int as n from wallet.provider_transactions where provider_id = ? and transaction_id = ?`, [
        provider.id,
        transactionId,
      ])
    )[0]!.n;
  const test = (name: string, fn: (t: Test) => Promise<void>) =>
    t.test(name, async (t) => {
      await fn(t);
      await assertLedgerSound(t, h);
    });
  /** A refusal of the amount: 422 VALIDATION_ERROR with one issue, at /amount of the body; nothing recorded under its id. */
  const refusedAmount = async (t: Test, op: string, body: { transactionId: string; amount: string }) => {
    const r = await p(op, body);
    t.match(
      { code: code(r), in: r.error?.details?.in, paths: r.error?.details?.issues?.map((i: any) => i.path) },
      { code: 'VALIDATION_ERROR', in: 'body', paths: ['/amount'] },
      `${op} of ${JSON.stringify(body.amount)}: 422 VALIDATION_ERROR naming /amount`,
    );
    t.equal(await recorded(body.transactionId), 0, `${op} of ${JSON.stringify(body.amount)}: nothing recorded`);
  };

  test('amounts: a bet 0.01 to 1000000.00; a win 0 to 9999999999999.99, a correction non-zero within ±9999999999999.99; beyond is a 422', async (t) => {
    const { player, token } = await sessionOf(t, '1000000.00');
    await h.credit(live, player, '1000000.00');
    for (const amount of ['0', '0.00', '1000000.01', '99999999.00', '5000000.00']) await refusedAmount(t, 'bet', bet(token, { amount }));
    t.equal(await balanceOf(token), '2000000.00', 'no bet beyond the range was debited');

    const b = bet(token, { amount: '1000000.00' });
    t.match((await p('bet', b)).body, { moved: '-1000000.00', balance: '1000000.00' }, 'a bet of 1000000.00: taken');
    const min = bet(token, { amount: '0.01', roundId: b.roundId });
    t.match((await p('bet', min)).body, { moved: '-0.01', balance: '999999.99' }, 'a bet of 0.01: taken');
    const win = (amount: string) => ({ transactionId: txId('win'), playerId: player, roundId: b.roundId, amount, currency: 'BRL', roundClosed: false });
    for (const amount of ['10000000000000.00', '10000000000000', '99999999999999.99', '-0', '-1.00']) await refusedAmount(t, 'win', win(amount));
    t.equal(await balanceOf(token), '999999.99', 'no win beyond the range was credited');
    t.match((await p('win', win('1000000.00'))).body, { moved: '1000000.00', balance: '1999999.99' }, 'a win of 1000000.00: credited');
    // Issue #66 item 5: Evolution's "big payouts can be processed" credits 63,727,092.34; a prize may be far larger than a bet.
    const big = win('63727092.34');
    t.match((await p('win', big)).body, { moved: '63727092.34', balance: '65727092.33' }, 'a win of 63727092.34: credited');
    t.match((await p('win', big)).body, { moved: '63727092.34', balance: '65727092.33', replayed: true }, 'its retry: its first answer');
    const largest = win('9999999999999.99');
    t.match((await p('win', largest)).body, { moved: '9999999999999.99', balance: '10000065727092.32' }, 'the largest win: credited');
    const ledger = await h.sql<{ source: string; amount: string }>(
      `select t.source, e.amount::text from wallet.ledger_entries e join wallet.ledger_transactions t on t.id = e.transaction_id
       where t.source = any(?::text[]) and e.account_seq is not null order by e.account_seq`,
      [[big, largest].map((w) => `provider:${provider.id}:${w.transactionId}`)],
    );
    t.same(
      ledger.map((l) => l.amount),
      ['63727092.34', '9999999999999.99'],
      "each credited once on the player's account, to the cent",
    );
    const [round] = await h.sql(`select won::text from wallet.provider_rounds where provider_id = ? and round_id = ?`, [provider.id, b.roundId]);
    t.same(round, { won: '10000064727092.33' }, "the round's payout holds them");
    t.match((await p('win', { ...win('0'), roundClosed: true })).body, { moved: '0.00', balance: '10000065727092.32' }, 'a win of 0 settles');

    const correction = (amount: string) => ({ transactionId: txId('c'), playerId: player, roundId: b.roundId, amount, currency: 'BRL', reason: 'resettled' });
    for (const amount of ['-0', '0', '0.00', '-0.00', '10000000000000.00', '-10000000000000.00']) await refusedAmount(t, 'correction', correction(amount));
    t.equal(await balanceOf(token), '10000065727092.32', 'no correction beyond the range moved money');
    t.match(
      (await p('correction', correction('-9999999999999.99'))).body,
      { moved: '-9999999999999.99', balance: '65727092.33' },
      'a correction of -9999999999999.99 (the largest win resettled lost): taken',
    );
    t.match((await p('correction', correction('-63727092.34'))).body, { moved: '-63727092.34', balance: '1999999.99' });
    t.match((await p('correction', correction('-1000000.00'))).body, { moved: '-1000000.00', balance: '999999.99' }, 'a correction of -1000000.00: taken');
    t.match((await p('correction', correction('0.01'))).body, { moved: '0.01', balance: '1000000.00' }, 'a correction of 0.01: credited');
  });

  test('a jackpot win and a promotional credit: 0.01 to 9999999999999.99 (issue #66 item 5)', async (t) => {
    const { player, token } = await sessionOf(t, '10.00');
    const b = bet(token, { amount: '1.00' });
    await p('bet', b);
    const jackpot = (amount: string) => ({ transactionId: txId('jp'), playerId: player, jackpotId: 'mega', roundId: b.roundId, amount, currency: 'BRL' });
    const promo = (amount: string) => ({
      transactionId: txId('pc'),
      playerId: player,
      amount,
      currency: 'BRL',
      promotionType: 'tournament_prize',
      promotionId: 'cup',
    });
    for (const amount of ['0', '10000000000000.00']) {
      await refusedAmount(t, 'jackpotWin', jackpot(amount));
      await refusedAmount(t, 'promoCredit', promo(amount));
    }
    t.match((await p('jackpotWin', jackpot('48211907.55'))).body, { moved: '48211907.55', balance: '48211916.55' }, 'a jackpot of 48211907.55: paid');
    t.match((await p('promoCredit', promo('2500000.00'))).body, { moved: '2500000.00', balance: '50711916.55' }, 'a tournament prize of 2500000.00: paid');
  });

  test("a bet id is bound to its player: another player's token under it is a conflict, never the first player's answer", async (t) => {
    const a = await sessionOf(t, '50.00');
    const b = await sessionOf(t, '30.00');
    const c = await sessionOf(t, '20.00', otherOperator);
    const first = bet(a.token, { amount: '4.00' });
    t.match((await p('bet', first)).body, { playerId: a.player, moved: '-4.00', balance: '46.00', replayed: false });

    for (const [who, s] of [
      ['a player of the same operator', b],
      ['a player of another operator', c],
    ] as const) {
      const r = await p('bet', { ...first, token: s.token });
      t.match(
        { code: code(r), details: r.error?.details },
        { code: 'TRANSACTION_CONFLICT', details: { transactionId: first.transactionId, differs: ['playerId'] } },
        `${who}: 409 TRANSACTION_CONFLICT, differs: ["playerId"]`,
      );
      t.notOk(JSON.stringify(r).includes(a.player) || JSON.stringify(r).includes('46.00'), `${who}: nothing of the first player in the answer`);
    }
    t.equal(await balanceOf(b.token), '30.00', 'B was not debited');
    t.equal(await balanceOf(c.token), '20.00', 'C was not debited');
    t.match((await p('bet', first)).body, { playerId: a.player, balance: '46.00', replayed: true }, "A's own retry: still the first answer");

    // Refused for B anyway (its session expired since): the id's owner is still told apart.
    await h.sql(`update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where player_id = ?`, [
      b.player,
    ]);
    t.match(
      (await p('bet', { ...first, token: b.token })).error,
      { code: 'TRANSACTION_CONFLICT', details: { differs: ['playerId'] } },
      'an expired token of B: the same conflict',
    );
    t.equal(code(await p('bet', { ...first, token: 'pst_never-issued' })), 'SESSION_TOKEN_INVALID', 'a token never issued names no player: replays nothing');

    // A bet id a rollback of A's took first (never received): another player's bet under it is a conflict, not BET_ROLLED_BACK.
    const unseen = bet(a.token, { amount: '1.00' });
    await p('rollback', { transactionId: txId('rb'), playerId: a.player, betTransactionId: unseen.transactionId, roundId: unseen.roundId });
    t.match(
      (await p('bet', { ...unseen, token: c.token })).error,
      { code: 'TRANSACTION_CONFLICT', details: { differs: ['playerId'] } },
      'another player: a conflict naming playerId',
    );
    t.equal(code(await p('bet', unseen)), 'BET_ROLLED_BACK', 'A: the bet is refused as rolled back');
    t.equal(await balanceOf(a.token), '46.00');
  });

  test('a second rollback (another rollback id) of a bet that never arrived: 200, moved 0.00', async (t) => {
    const { player, token } = await sessionOf(t, '25.00');
    const b = bet(token, { amount: '5.00' });
    const rollback = () => ({ transactionId: txId('rb'), playerId: player, betTransactionId: b.transactionId, roundId: b.roundId });
    t.match((await p('rollback', rollback())).body, { kind: 'rollback', moved: '0.00', balance: '25.00' }, 'the first: recorded as done');
    const second = rollback();
    const r = await p('rollback', second);
    t.match(
      { code: code(r), body: r.body },
      { code: 'ok:200', body: { kind: 'rollback', moved: '0.00', balance: '25.00', replayed: false } },
      'the second: 200, moved 0.00',
    );
    t.match((await p('rollback', second)).body, { moved: '0.00', replayed: true }, 'its retry: the first answer');
    t.equal(code(await p('bet', b)), 'BET_ROLLED_BACK', 'the bet arriving later is still refused');
    t.equal(await balanceOf(token), '25.00', 'nothing moved');
  });
});
