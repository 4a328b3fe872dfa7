// Crash tests of the payment of a fund transfer to FIES and FUNCAP (issue #60 item 6): wallet and payments
// run as real processes; payments is killed after the rail paid a half and before the wallet posted it,
// then after the wallet posted it and before the payout was marked paid, and the wallet is killed after
// it committed the posting and before it answered. Started again, each converges with no one acting:
// every half paid once by the rail (one simulated transfer per payout, the same receipt), posted once
// (one FUND_PAYOUT per payout), marked paid, and the ledger verifies.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { WALLET_SUBJECTS, type FundPayout } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { processGroup } from '@bo/test-support';
import { adminScope, assertLedgerSound, createPlayer, internalScope, ok, operatorScope, startPaymentsStack } from './support/stack.ts';
import { answers, childEnv, CALLS_INTO_A_DYING_WALLET } from './support/crash.ts';

const DAY = 86_400_000;

t.test('the payment of a fund transfer converges after a crash at every point', async (t) => {
  const stack = await startPaymentsStack(t, 'crashfp', { payments: false, wallet: false });
  const procs = processGroup(t, { ...childEnv(stack), FUND_PAYOUT_INTERVAL_MS: 100, UNCLAIMED_FUNDS_INTERVAL_MS: 0 }, answers(stack));
  await procs.start('wallet');
  await procs.start('payments');
  const { call, sql } = stack;
  const brand = operatorScope('cfp', 'production');
  const count = async (q: string, params: unknown[] = []) => Number((await sql.query(q, params)).rows[0].n);

  /** A held balance of `amount`, its communication reported long ago: due, transferred by the next run. */
  const dueHold = async (amount: string) => {
    const playerId = await createPlayer(call, brand, { kyc: 'aprovado' });
    ok(
      await call(WALLET_SUBJECTS.credit, {
        scope: internalScope(),
        body: { brandId: brand.brandId, playerId, currency: 'BRL', amount, depositId: `dep_${randomBytes(6).toString('hex')}` },
      }),
    );
    ok(
      await call('wallet.impeded.closeAccount', {
        scope: internalScope('players'),
        body: {
          operatorId: brand.operatorId,
          brandId: brand.brandId,
          environment: 'production',
          playerId,
          currency: 'BRL',
          closedAt: new Date(Date.now() - 5 * DAY).toISOString(),
        },
      }),
    );
    ok(await call('wallet.admin.unclaimed.run', { scope: adminScope, timeoutMs: 10_000 }));
    // 180 days after the communication (the child's clock cannot move: the hold is made older instead).
    await sql.query(
      `update wallet.unclaimed_holds set held_at = now() - interval '200 days', notice_sent_at = now() - interval '190 days', release_due_at = now() - interval '10 days' where player_id = $1`,
      [playerId],
    );
    return playerId;
  };
  const payoutsOf = async (playerId: string) => {
    const transfer = (await sql.query('select id from wallet.fund_transfers where player_id = $1', [playerId])).rows[0]?.id as string | undefined;
    if (!transfer) return [];
    return ok<{ data: FundPayout[] }>(
      await call('payments.admin.fundPayouts.list', { scope: adminScope, query: { brandId: brand.brandId, limit: 200 } }),
    ).data.filter((p) => p.transferId === transfer);
  };
  const converges = async (t: Test, playerId: string) => {
    const paid = await waitFor(
      async () => {
        const ps = await payoutsOf(playerId);
        return ps.length === 2 && ps.every((p) => p.status === 'paid') ? ps : undefined;
      },
      { what: 'both halves paid', timeoutMs: 60_000 },
    );
    const ids = paid.map((p) => p.id);
    t.equal(
      await count('select count(*)::int as n from payments.simulated_fund_transfers where payout_id = any($1)', [ids]),
      2,
      'the rail paid each half once',
    );
    t.ok(
      paid.every((p) => p.receipt === `SIM-${p.id.slice(4)}`),
      'each with the receipt of that one payment',
    );
    t.equal(
      await count(`select count(*)::int as n from wallet.ledger_transactions where type = 'FUND_PAYOUT' and reference_id = any($1)`, [ids]),
      2,
      'posted once each',
    );
    t.equal(await count('select count(*)::int as n from wallet.fund_payouts where id = any($1)', [ids]), 2);
    await assertLedgerSound(t, stack);
  };

  for (const [side, point] of [
    ['payments', 'payments.fundPayout.after-send'],
    ['payments', 'payments.fundPayout.after-post'],
    ['wallet', 'wallet.fundPayout.after-commit'],
  ] as const) {
    t.test(`killed at ${point}`, async (t) => {
      const playerId = await dueHold('40.01');
      const victim = await procs.start(side, { CRASH_AT: point });
      if (side === 'wallet') await procs.start('payments', CALLS_INTO_A_DYING_WALLET);
      // The run transfers the hold and asks payments to pay it; payments' loop pays, and the victim dies
      // half-way (a dying wallet may not answer the run itself: its answer is not read).
      await call('wallet.admin.unclaimed.run', { scope: adminScope, timeoutMs: 10_000 });
      t.equal((await victim.exited).signal, 'SIGKILL', `${side} died at ${point}`);
      t.match(victim.stderrTail(), `crash point ${point}: exiting`);
      await procs.start(side);
      if (side === 'wallet') await procs.start('payments');
      await converges(t, playerId);
    });
  }
});
