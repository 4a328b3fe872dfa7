// The money of an account closed after an impediment hit (issue #46 item 4; IN SPA/MF 31/2025,
// docs/eligibility.md "After a hit"), in the wallet against real Postgres and NATS with the real
// players service: the closing refunds the player's open provider bets in full (casino rounds, a round
// with a partial win too since issue #60, and sports bets) and the provider's later calls meet the rules
// of a voided round; past the return's deadline what is not reserved by a withdrawal is held on the
// brand's unclaimed-funds account, once however many runs race; 180 days after the communication to the
// bettor (issue #60) each hold goes to FIES and FUNCAP (the split recorded), once; during the hold our
// finance team records its return to the bettor. verifyLedger checks every hold and both accounts, and
// finds a tampered hold. (The payment of the transfers through payments: services/payments/test/fund-payouts.test.ts.)
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { adminScope, gamesServicesWith, scopes, startFakeProvider, startGamesStack } from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const players = { kind: 'internal' as const, service: 'players' };
const DAY = 86_400_000;
const txId = (label = 'tx') => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);
const SLIP = {
  sport: 'football',
  event: 'Bahia x Vitória',
  market: 'match_result',
  selection: 'Bahia',
  odds: '1.90',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

t.test('the money of an account closed after an impediment hit', async (t) => {
  // The job runs only when asked: this file drives it.
  const h = await startGamesStack(t, services, { UNCLAIMED_FUNDS_INTERVAL_MS: '0' });
  t.teardown(() => setRuleClockOffset(0));
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const ok = (r: any) => {
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.body;
  };
  const admin = (subject: string, part: { params?: Record<string, string>; body?: unknown; query?: Record<string, unknown> } = {}) =>
    h.call(subject, adminScope, part);
  const assertLedgerSound = async (t: Test) => {
    const v = await h.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
  };
  const providerOf = async (kind: 'casino' | 'sportsbook', gameCode: string) => {
    const provider = ok(await admin('wallet.admin.providers.create', { body: { name: `${kind} ${txId()}`, kind, launchUrl: fake.url } }));
    const game = ok(
      await admin('wallet.admin.providers.putGame', {
        params: { id: provider.id, gameCode },
        body: { name: gameCode, category: kind === 'casino' ? 'slots' : 'sports' },
      }),
    );
    ok(await admin('wallet.admin.providers.setOperator', { params: { id: provider.id, operatorId: live.operatorId }, body: { enabled: true } }));
    const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
    return { provider, game, call: (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body }) as Promise<any> };
  };
  const casino = await providerOf('casino', 'lucky-seven');
  const sports = await providerOf('sportsbook', 'sportsbook');
  const funded = async (amount: string) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, amount);
    return player;
  };
  const wallet = async (playerId: string) => ok(await h.call('wallet.get', live, { params: { playerId } }));
  /** The closing after a hit three days before, of which the operator told the bettor an hour after the hit (once). */
  const close = async (playerId: string, closedAt: Date) => {
    const blocked = await h.sql<{ restricted_at: Date | null }>('select restricted_at from players.players where id = ?', [playerId]);
    if (!blocked[0]!.restricted_at) {
      const hitAt = new Date(closedAt.getTime() - 3 * DAY);
      await h.sql('update players.players set restricted_at = ? where id = ?', [hitAt, playerId]);
      ok(
        await h.call('players.communications.record', live, {
          params: { playerId },
          body: {
            channel: 'sms',
            kind: 'impediment_notice',
            sentAt: new Date(hitAt.getTime() + 3_600_000).toISOString(),
            summary: 'Blocked: withdraw within 2 days.',
          },
        }),
      );
    }
    return h.call('wallet.impeded.closeAccount', players, {
      body: { operatorId: live.operatorId, brandId: live.brandId, environment: 'production', playerId, currency: 'BRL', closedAt: closedAt.toISOString() },
    });
  };
  const run = async () => ok(await admin('wallet.admin.unclaimed.run'));
  const holdsOf = async (playerId: string) =>
    ok(await admin('wallet.admin.unclaimed.list', { query: { brandId: live.brandId, playerId } })).data as Array<Record<string, any>>;

  t.test('the closing refunds the open bets; the provider then meets a voided round', async (t) => {
    const player = await funded('100.00');
    await h.openSession(t, live, player, casino.game.id);
    const ctoken = fake.requests.at(-1)!.body.token as string;
    await h.openSession(t, live, player, sports.game.id);
    const stoken = fake.requests.at(-1)!.body.token as string;
    const bet = (p: typeof casino, token: string, roundId: string, amount: string, slip?: unknown) =>
      p.call('bet', {
        transactionId: txId('bet'),
        token,
        roundId,
        gameCode: p === casino ? 'lucky-seven' : 'sportsbook',
        amount,
        currency: 'BRL',
        ...(slip ? { slip } : {}),
      });
    const open = txId('round');
    const openBets = [ok(await bet(casino, ctoken, open, '5.00')), ok(await bet(casino, ctoken, open, '3.00'))];
    const withWin = txId('round');
    ok(await bet(casino, ctoken, withWin, '4.00'));
    ok(await casino.call('win', { transactionId: txId('win'), playerId: player, roundId: withWin, amount: '1.00', currency: 'BRL', roundClosed: false }));
    const settled = txId('round');
    ok(await bet(casino, ctoken, settled, '2.00'));
    ok(await casino.call('win', { transactionId: txId('win'), playerId: player, roundId: settled, amount: '0.00', currency: 'BRL', roundClosed: true }));
    const slipId = txId('slip');
    ok(await bet(sports, stoken, slipId, '20.00', SLIP));
    t.equal((await wallet(player)).available, '67.00', '100 − 5 − 3 − 4 + 1 − 2 − 20');

    const first = ok(await close(player, new Date()));
    t.match(
      first,
      { refundedBets: 4, refunded: '32.00', roundsLeftOpen: 0 },
      'the open round (two bets), the round with a partial win (issue #60) and the sports bet refunded in full',
    );
    t.equal((await wallet(player)).available, '99.00', 'the stakes back; the partial win credited stays the bettor’s');
    const rounds = await h.sql<{ round_id: string; status: string }>(
      'select round_id, status from wallet.provider_rounds where player_id = ? order by round_id',
      [player],
    );
    t.same(
      Object.fromEntries(rounds.map((r) => [r.round_id, r.status])),
      { [open]: 'voided', [withWin]: 'voided', [settled]: 'settled', [slipId]: 'voided' },
      'refunded rounds voided, the one with a partial win too; the settled one as it was',
    );
    const refunds = await h.sql<{ transaction_id: string; kind: string; moved: string }>(
      `select transaction_id, kind, moved::text from wallet.provider_transactions where player_id = ? and transaction_id like 'bo-void:%' order by provider_transactions.moved`,
      [player],
    );
    t.same(
      refunds.map((r) => [r.kind, r.moved]),
      [
        ['rollback', '3.00'],
        ['rollback', '4.00'],
        ['rollback', '5.00'],
        ['rollback', '20.00'],
      ],
      'each refund is a rollback of its bet, under our own transaction id',
    );
    const settledEvents = (await h.sql<{ payload: string }>(`select payload from wallet.outbox where subject_type = 'sports_bet.settled'`))
      .map((r) => JSON.parse(r.payload).data)
      .filter((d) => d.betId === slipId);
    t.match(settledEvents, [{ status: 'voided', staked: '0.00' }], 'the operator hears the sports bet was voided');

    t.equal(
      code(await casino.call('win', { transactionId: txId('win'), playerId: player, roundId: open, amount: '50.00', currency: 'BRL' })),
      'ROUND_CLOSED',
      "the provider's later win on the voided round is refused",
    );
    t.match(
      ok(await casino.call('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: openBets[0].transactionId, roundId: open })),
      { moved: '0.00' },
      'its own rollback of a refunded bet moves nothing',
    );
    t.equal(
      code(await casino.call('win', { transactionId: txId('win'), playerId: player, roundId: withWin, amount: '9.00', currency: 'BRL' })),
      'ROUND_CLOSED',
      'nor a later win on the round that had a partial win',
    );
    t.equal((await wallet(player)).available, '99.00', 'nothing moved twice');
    const again = ok(await close(player, new Date(Date.now() + DAY)));
    t.match(
      again,
      { refundedBets: 0, refunded: '0.00', roundsLeftOpen: 0, returnDueAt: first.returnDueAt },
      'a repeat refunds nothing and keeps the first deadline',
    );
    const items = ok(await h.call('wallet.transactions', live, { params: { playerId: player } })).data;
    t.equal(items.filter((i: any) => i.type === 'ROLLBACK').length, 4, "the refunds in the player's statement");
    await assertLedgerSound(t);
  });

  t.test('past the return deadline, what is free is held once, however many runs race', async (t) => {
    const reserved = await funded('50.00');
    const withdrawalId = await h.hold(live, reserved, '20.00');
    const notYet = await funded('10.00');
    const many = await Promise.all(['11.00', '12.00', '13.00', '14.00'].map(funded));
    for (const p of [reserved, ...many]) ok(await close(p, new Date(Date.now() - 3 * DAY)));
    ok(await close(notYet, new Date()));

    const runs = await Promise.all([run(), run(), run(), run(), run()]);
    t.equal(
      runs.reduce((n, r) => n + r.holdsCreated, 0),
      5,
      'five accounts held across five racing runs',
    );
    t.match(await wallet(reserved), { available: '20.00', withdrawable: '0.00' }, 'the money a withdrawal reserves stays for it');
    const [held] = await holdsOf(reserved);
    t.match(held, { status: 'held', amount: '30.00', playerId: reserved, currency: 'BRL', endedAt: null, transferId: null });
    t.equal(Date.parse(held!.releaseDueAt) - Date.parse(held!.noticeSentAt), 180 * DAY, 'held 180 days from the communication to the bettor (issue #60)');
    for (const [i, p] of many.entries()) {
      t.same(
        (await holdsOf(p)).map((x) => x.amount),
        [`${11 + i}.00`],
        'one hold, the whole balance',
      );
      t.equal((await wallet(p)).available, '0.00');
    }
    t.same(await holdsOf(notYet), [], 'an account whose deadline has not come is left alone');
    const statement = ok(await h.call('wallet.transactions', live, { params: { playerId: reserved } })).data;
    t.match(statement[0], { type: 'UNCLAIMED_HOLD', amount: '-30.00', balanceAfter: '20.00', referenceId: held!.id }, "in the player's statement");
    t.equal((await run()).holdsCreated, 0, 'a run again moves nothing');

    // The withdrawal is rejected (the return was not possible): its money is released and held too.
    ok(await h.call('wallet.release', { kind: 'internal', service: 'payments' }, { body: { brandId: live.brandId, withdrawalId } }));
    t.equal((await run()).holdsCreated, 1);
    t.same((await holdsOf(reserved)).map((x) => x.amount).sort(), ['20.00', '30.00'], 'a second hold for what came free');
    await assertLedgerSound(t);
  });

  t.test('after 180 days each hold goes to FIES and FUNCAP once; during the hold our team may return it', async (t) => {
    const odd = await funded('30.01');
    const returned = await funded('8.00');
    for (const p of [odd, returned]) ok(await close(p, new Date(Date.now() - 3 * DAY)));
    t.equal((await run()).holdsCreated, 2);
    const [oddHold] = await holdsOf(odd);
    const [returnedHold] = await holdsOf(returned);

    // Returned by our finance team before its time: a decision, audited in its transaction.
    const back = ok(await admin('wallet.admin.unclaimed.return', { params: { id: returnedHold!.id }, body: { reference: 'pix-e2e-123' } }));
    t.match(back, { id: returnedHold!.id, status: 'returned', returnReference: 'pix-e2e-123', endedAt: /Z$/ });
    t.match(
      ok(await admin('wallet.admin.unclaimed.return', { params: { id: returnedHold!.id }, body: { reference: 'pix-e2e-123' } })),
      { status: 'returned' },
      'the same return again: its answer',
    );
    t.equal(code(await admin('wallet.admin.unclaimed.return', { params: { id: returnedHold!.id }, body: { reference: 'other' } })), 'UNCLAIMED_FUNDS_NOT_HELD');
    t.equal(code(await admin('wallet.admin.unclaimed.return', { params: { id: 'uch_nope' }, body: { reference: 'x' } })), 'UNCLAIMED_FUNDS_NOT_FOUND');
    const audits = await h.sql<{ payload: string }>(`select payload from wallet.outbox where subject_type = 'audit.recorded'`);
    t.same(
      audits
        .map((a) => JSON.parse(a.payload).data)
        .filter((d) => d.target === `unclaimed:${returnedHold!.id}`)
        .map((d) => [d.action, d.after.status]),
      [['adminReturnUnclaimedFunds', 'returned']],
      'one audit row',
    );

    t.equal((await run()).transfersRecorded, 0, 'not yet: 180 days have not passed');
    setRuleClockOffset(181 * DAY);
    const runs = await Promise.all([run(), run(), run()]);
    const transferred = runs.reduce((n, r) => n + r.transfersRecorded, 0);
    const due = (await h.sql<{ c: number }>(`select count(*)::int as c from wallet.fund_transfers`))[0]!.c;
    t.equal(transferred, due, 'each transfer recorded by one run');
    t.equal(
      runs.reduce((n, r) => n + r.holdsCreated, 0),
      2,
      "181 days on, the first test's two accounts are past their deadline too: held now, once (and due: told 180 days ago)",
    );
    t.equal((await run()).transfersRecorded, 0, 'a run again moves nothing');
    const [after] = await holdsOf(odd);
    t.match(after, { status: 'transferred', transferId: /^fdt_/ });
    const transfers = ok(await admin('wallet.admin.fundTransfers.list', { query: { brandId: live.brandId, limit: 200 } })).data;
    t.match(
      transfers.find((x: any) => x.holdId === oddHold!.id),
      { id: after!.transferId, amount: '30.01', fies: '15.00', funcap: '15.01', playerId: odd, legalBasis: /Lei 14\.790\/2023/ },
      'half to each fund, the odd cent to FUNCAP',
    );
    t.notOk(
      transfers.some((x: any) => x.holdId === returnedHold!.id),
      'a returned hold is never transferred',
    );
    t.equal(
      code(await admin('wallet.admin.unclaimed.return', { params: { id: oddHold!.id }, body: { reference: 'late' } })),
      'UNCLAIMED_FUNDS_NOT_HELD',
      'too late to return',
    );
    const [balances] = await h.sql<{ unclaimed: string; held: string; payable: string; sent: string }>(
      `select (select available::text from wallet.account_balances where id = ?) as unclaimed,
              (select sum(amount)::text from wallet.unclaimed_holds where brand_id = ? and status = 'held') as held,
              (select available::text from wallet.account_balances where id = ?) as payable,
              (select sum(amount)::text from wallet.fund_transfers where brand_id = ?) as sent`,
      [`acct:unclaimed_impeded:${live.brandId}:BRL`, live.brandId, `acct:fund_transfer_payable:${live.brandId}:BRL`, live.brandId],
    );
    t.same(
      balances,
      { unclaimed: '0.00', held: null, payable: '239.01', sent: '239.01' },
      'nothing held any more (the two held today were told of 180 days ago: transferred at once); the funds are owed every transfer (100 + 30.01 + 99 + 10), none paid here (payments does not run)',
    );
    await assertLedgerSound(t);

    await h.sql('update wallet.unclaimed_holds set amount = amount + 1 where id = ?', [oddHold!.id]);
    const tampered = await h.verifyLedger();
    t.same(
      tampered.mismatches.map((m) => m.check).filter((c) => c.startsWith('unclaimed')),
      [`unclaimedHold:${oddHold!.id}`],
      'verifyLedger finds a hold that does not match its posting',
    );
    await h.sql('update wallet.unclaimed_holds set amount = amount - 1 where id = ?', [oddHold!.id]);
    await t.rejects(h.sql('delete from wallet.unclaimed_holds where id = ?', [oddHold!.id]), /money records/, 'a hold is never deleted');
  });
});
