// After an impediment hit, the law's clock and the payment to the funds (issue #60 item 6; docs/eligibility.md
// "After a hit", docs/money.md "Unclaimed funds"), with the real players, wallet and payments services:
// a held balance goes to FIES and FUNCAP 180 days after the operator's communication to the bettor (the
// SPA's FAQ), not after the hold (a hold without a reported communication waits, and counts from it once
// reported); the transfer is then paid through payments to each fund's configured account, with the
// rail's receipt, by three payments replicas racing: each half paid once, posted once (FUND_PAYOUT), and
// the ledger verifies; a half the rail refuses is `failed` and moves nothing.
import t from 'tap';
import { startServiceWith, type RunningService } from '@bo/service-kit';
import { setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import type { FundPayout } from '@bo/contracts';
import { paymentsServiceWith } from '../src/service.ts';
import type { OwnAccount } from '../src/own-account/setup.ts';
import { FAST_RECONCILER, adminScope, assertLedgerSound, internalScope, ok, operatorScope, startPaymentsStack } from './support/stack.ts';

const DAY = 86_400_000;

t.test('the 180 days from the communication, and the transfer paid to the funds', async (t) => {
  const stack = await startPaymentsStack(t, 'fundpay', { payments: false });
  t.teardown(() => setRuleClockOffset(0));
  const owns: OwnAccount[] = [];
  const replicas: RunningService[] = [];
  const settings = { ...FAST_RECONCILER, FUND_PAYOUT_INTERVAL_MS: 50, FUND_PAYOUT_FIES_ACCOUNT: 'fies:bb:0001', FUND_PAYOUT_FUNCAP_ACCOUNT: 'funcap:bb:0002' };
  for (let i = 0; i < 3; i++)
    replicas.push(
      await startServiceWith(
        paymentsServiceWith((own) => owns.push(own)),
        { ...stack.config, ...settings },
      ),
    );
  t.teardown(async () => {
    for (const r of replicas) await r.stop();
  });
  const { money, call } = stack;
  const brand = operatorScope('fp', 'production');
  const run = async () =>
    ok<{ holdsCreated: number; transfersRecorded: number; payoutsRequested: number }>(
      await call('wallet.admin.unclaimed.run', { scope: adminScope, timeoutMs: 30_000 }),
    );
  const holdOf = async (playerId: string) =>
    ok<{ data: any[] }>(await call('wallet.admin.unclaimed.list', { scope: adminScope, query: { brandId: brand.brandId, playerId } })).data[0];
  const tellBettor = async (playerId: string, sentAt: Date) =>
    ok(
      await call('players.communications.record', {
        scope: brand,
        key: `notice-${playerId}`,
        params: { playerId },
        body: { channel: 'email', kind: 'impediment_notice', sentAt: sentAt.toISOString(), summary: 'Your account is blocked: withdraw within 2 days.' },
      }),
    );
  /** A player blocked 11 days ago, closed and past the return's deadline, with `amount` left. */
  const blocked = async (amount: string) => {
    const playerId = await money.fundedPlayer(brand, amount);
    await stack.sql.query('update players.players set restricted_at = $1 where id = $2', [new Date(Date.now() - 11 * DAY), playerId]);
    ok(
      await call('wallet.impeded.closeAccount', {
        scope: internalScope('players'),
        body: {
          operatorId: brand.operatorId,
          brandId: brand.brandId,
          environment: 'production',
          playerId,
          currency: 'BRL',
          closedAt: new Date(Date.now() - 8 * DAY).toISOString(),
        },
      }),
    );
    return playerId;
  };

  const told = await Promise.all(['30.01', '12.00', '7.50', '100.00', '0.01'].map(blocked));
  const notTold = await blocked('9.00');
  // Told ten days ago, the day after the block.
  for (const p of told) await tellBettor(p, new Date(Date.now() - 10 * DAY));
  t.equal((await run()).holdsCreated, 6, 'every balance held today');
  const first = await holdOf(told[0]!);
  t.equal(Date.parse(first.releaseDueAt) - Date.parse(first.noticeSentAt), 180 * DAY, '180 days from the communication');
  t.ok(Date.parse(first.releaseDueAt) < Date.parse(first.heldAt) + 180 * DAY, 'which comes before 180 days from the hold');
  t.match(await holdOf(notTold), { noticeSentAt: null, releaseDueAt: null }, 'no communication reported: the clock has not started');

  t.test('175 days on: the held balances told of go to the funds; the one never told waits', async (t) => {
    setRuleClockOffset(175 * DAY);
    const r = await run();
    t.same([r.transfersRecorded, r.payoutsRequested], [5, 5], 'five transfers (170 days after the communications), each asked of payments');
    t.match(await holdOf(notTold), { status: 'held', releaseDueAt: null });
    // Told now: its 180 days begin now.
    await tellBettor(notTold, new Date());
    t.equal((await run()).transfersRecorded, 0, 'told today: not due for 180 days');
    const late = await holdOf(notTold);
    t.equal(Date.parse(late.releaseDueAt) - Date.parse(late.noticeSentAt), 180 * DAY, 'its clock runs from the communication');
  });

  t.test('three payments replicas pay each half once, with its receipt; the ledger verifies', async (t) => {
    const list = async () =>
      ok<{ data: FundPayout[] }>(await call('payments.admin.fundPayouts.list', { scope: adminScope, query: { brandId: brand.brandId, limit: 200 } })).data;
    const payouts = await waitFor(
      async () => {
        const all = await list();
        return all.length === 9 && all.every((p) => p.status === 'paid') ? all : undefined;
      },
      { what: 'nine payouts paid', timeoutMs: 60_000 },
    );
    t.same(
      payouts.map((p) => [p.fund, p.destination.split(':')[0]]).sort(),
      [...Array(4).fill(['fies', 'fies']), ...Array(5).fill(['funcap', 'funcap'])].sort(),
      "each half to its fund's configured account (0.01 has no FIES half)",
    );
    t.ok(
      payouts.every((p) => p.receipt === `SIM-${p.id.slice(4)}` && p.paidAt !== null),
      'each with the receipt of its payment',
    );
    const [counts] = (
      await stack.sql.query(
        `select (select count(*) from payments.simulated_fund_transfers)::int as sent,
                (select count(distinct payout_id) from payments.simulated_fund_transfers)::int as payouts,
                (select count(*) from wallet.ledger_transactions where type = 'FUND_PAYOUT')::int as posted,
                (select count(*) from wallet.fund_payouts)::int as records,
                (select available::text from wallet.account_balances where id = $1) as owed`,
        [`acct:fund_transfer_payable:${brand.brandId}:BRL`],
      )
    ).rows;
    t.same(counts, { sent: 9, payouts: 9, posted: 9, records: 9, owed: '0.00' }, 'one payment and one posting per half; nothing owed to the funds any more');
    const odd = payouts.filter((p) => p.transferId === payouts.find((x) => x.amount === '15.01')!.transferId);
    t.same(
      odd.map((p) => [p.fund, p.amount]).sort(),
      [
        ['fies', '15.00'],
        ['funcap', '15.01'],
      ],
      'the odd cent to FUNCAP',
    );
    await assertLedgerSound(t, stack);
  });

  t.test('a half the rail refuses is failed and moves nothing; a repeat posting is refused', async (t) => {
    for (const own of owns) own.fundPayoutSimulator.control({ refuse: 'destination account closed' });
    setRuleClockOffset(181 * DAY);
    const r = await run();
    t.same([r.transfersRecorded, r.payoutsRequested], [1, 1], 'the last hold transferred and asked of payments');
    const failed = await waitFor(
      async () => {
        const all = ok<{ data: FundPayout[] }>(await call('payments.admin.fundPayouts.list', { scope: adminScope, query: { status: 'failed' } })).data;
        return all.length === 2 ? all : undefined;
      },
      { what: 'two failed payouts', timeoutMs: 60_000 },
    );
    t.ok(failed.every((p) => p.failureReason === 'destination account closed' && p.receipt === null));
    const posted = await stack.sql.query(`select count(*)::int as n from wallet.fund_payouts where transfer_id = $1`, [failed[0]!.transferId]);
    t.equal(posted.rows[0].n, 0, 'nothing posted for them');
    const again = await call('wallet.fundPayout.post', {
      scope: internalScope('payments'),
      body: { payoutId: 'fpo_forged', transferId: failed[0]!.transferId, fund: 'fies', brandId: brand.brandId, currency: 'BRL', amount: '1.00' },
    });
    t.equal(again.ok ? 'ok' : again.error.code, 'FUND_PAYOUT_CONFLICT', "an amount that is not the transfer's half is refused");
    await assertLedgerSound(t, stack);
    for (const own of owns) own.fundPayoutSimulator.control({ refuse: null });
  });
});
