// The unclaimed-funds job killed half-way (issue #46 item 4): the wallet runs as a real child process
// and dies at the job's crash points, after the first hold's commit and after the first transfer's
// commit, with more work left. Run again, it does the rest: every closed account is held once and
// every hold transferred to FIES and FUNCAP once, never twice, and the ledger verifies.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { WALLET_SUBJECTS } from '@bo/contracts';
import { walletCrashStack } from './support/child-wallet.ts';
import { adminScope, assertLedgerSound, createPlayer, errorOf, internalScope, ok, operatorScope } from '@bo/test-support';

const DAY = 86_400_000;

t.test('the unclaimed-funds job survives a crash half-way, moving each amount once', async (t) => {
  const { stack, call, sql, wallet } = await walletCrashStack(t, 'unclcrash', { UNCLAIMED_FUNDS_INTERVAL_MS: 0 });
  await wallet.start();
  const brand = operatorScope('live', 'production');
  // A run that answers has 30 s; the one the wallet dies in is never answered, and its 5 s only end the wait.
  const run = (timeoutMs = 30_000) => call<{ holdsCreated: number; transfersRecorded: number }>('wallet.admin.unclaimed.run', { scope: adminScope, timeoutMs });
  const crashingRun = async (t: Test, point: string) => {
    const victim = await wallet.start({ CRASH_AT: point });
    t.equal(errorOf(await run(5000))?.code, 'SERVICE_UNAVAILABLE', 'the run never answers');
    t.equal((await victim.exited).signal, 'SIGKILL', `the wallet died at ${point}`);
    await wallet.start();
  };
  const count = async (q: string) => Number((await sql.query(q)).rows[0].n);

  // Three accounts closed after a hit, their return's deadline passed.
  const amounts = ['40.00', '25.50', '9.99'];
  const playerIds: string[] = [];
  for (const amount of amounts) {
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
    playerIds.push(playerId);
  }

  t.test('killed after the first hold: the next run holds the rest, each once', async (t) => {
    await crashingRun(t, 'wallet.unclaimed.hold.after-commit');
    t.equal(await count('select count(*) as n from wallet.unclaimed_holds'), 1, 'one hold committed before the crash');
    t.match(ok(await run()), { holdsCreated: 2 }, 'the run again holds the other two');
    t.match(ok(await run()), { holdsCreated: 0 }, 'and then nothing');
    const held = (await sql.query('select player_id, amount::text as amount from wallet.unclaimed_holds order by unclaimed_holds.amount desc')).rows;
    t.same(
      held.map((h) => [h.player_id, h.amount]),
      playerIds.map((p, i) => [p, amounts[i]]),
      'each account held once, its whole balance',
    );
    await assertLedgerSound(t, stack);
  });

  t.test('killed after the first transfer: the next run transfers the rest, each once', async (t) => {
    // 180 days on (the child's clock cannot move: the holds are made older instead).
    await sql.query(`update wallet.unclaimed_holds set held_at = now() - interval '181 days', release_due_at = now() - interval '1 day'`);
    await crashingRun(t, 'wallet.unclaimed.transfer.after-commit');
    t.equal(await count('select count(*) as n from wallet.fund_transfers'), 1, 'one transfer committed before the crash');
    t.match(ok(await run()), { transfersRecorded: 2 }, 'the run again transfers the other two');
    t.match(ok(await run()), { transfersRecorded: 0 });
    t.equal(await count(`select count(*) as n from wallet.unclaimed_holds where status = 'transferred'`), 3);
    t.equal(await count(`select count(*) as n from wallet.ledger_transactions where type = 'FUND_TRANSFER'`), 3, 'three FUND_TRANSFER postings, one per hold');
    const [sums] = (await sql.query('select sum(amount)::text as amount, sum(fies)::text as fies, sum(funcap)::text as funcap from wallet.fund_transfers'))
      .rows;
    t.same(sums, { amount: '75.49', fies: '37.74', funcap: '37.75' }, '20.00 + 12.75 + 4.99 to FIES, 20.00 + 12.75 + 5.00 to FUNCAP');
    await assertLedgerSound(t, stack);
  });
});
