// Crash tests of the team's decisions that move money: approve, reject (release) and pay (capture).
// Wallet and payments run as real processes killed at every crash point; a hold is never released
// without `rejected`, a debit never exists without `paid`, and each decision that took effect has
// exactly one audit row (written in its own transaction, whatever the crash).
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import type { Withdrawal } from '@bo/contracts';
import { startPaymentsStack, operatorScope, ok, errorOf, publishedEvents, assertLedgerSound } from './support/stack.ts';
import { crashAndRecover, childEnv, answers } from './support/crash.ts';
import { outboxAudits, processGroup } from '@bo/test-support';

t.test('reject and pay converge after a crash at every point', async (t) => {
  const stack = await startPaymentsStack(t, 'crashdec', { payments: false, wallet: false });
  const { money } = stack;
  const procs = processGroup(t, childEnv(stack), answers(stack));
  await procs.start('wallet');
  await procs.start('payments');
  const brand = operatorScope('a');
  const audited = async (id: string) =>
    (await outboxAudits(stack.sql, 'payments', `withdrawal:${id}`)).map((a) => [a.actor, (a.before as Withdrawal).status, (a.after as Withdrawal).status]);
  const transitions = async (id: string) =>
    (await publishedEvents(stack))
      .filter((e) => e.type === 'withdrawal.status_changed' && (e.data as { withdrawal: Withdrawal }).withdrawal.id === id)
      .map((e) => {
        const d = e.data as { withdrawal: Withdrawal; previousStatus: string | null };
        return [d.previousStatus, d.withdrawal.status];
      });

  const rejectPoints = [
    ['payments', 'payments.reject.after-intent'],
    ['wallet', 'wallet.release.after-commit'],
    ['payments', 'payments.reject.after-release'],
    ['payments', 'payments.reject.after-complete'],
  ] as const;
  for (const [side, point] of rejectPoints) {
    t.test(`reject: crash at ${point}`, async (t) => {
      await procs.start(side, { CRASH_AT: point });
      const player = await money.fundedPlayer(brand, '100.00');
      const wd = ok(await money.createWithdrawal(brand, player, '40.00'));
      await crashAndRecover(t, procs, side, point, () => money.adminDecide(wd.id, 'reject', 2000));
      await waitFor(async () => (await money.withdrawalStatus(wd.id)) === 'rejected', { what: 'reject finished', timeoutMs: 60_000 });
      t.equal(await money.holdOf(wd.id), 'released');
      t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '100.00' });
      t.same(await money.playerEntries(wd.id), []);
      t.equal(ok(await money.getWithdrawal(brand, wd.id)).status, 'rejected');
      t.equal(errorOf(await money.adminDecide(wd.id, 'reject'))?.code, 'WITHDRAWAL_INVALID_TRANSITION', 'once finished, a repeat is refused');
      t.same(await transitions(wd.id), [
        [null, 'under_review'],
        ['under_review', 'rejected'],
      ]);
      t.same(await audited(wd.id), [['reviewer@test', 'under_review', 'rejected']], 'the reject has exactly one audit row');
      await assertLedgerSound(t, stack);
    });
  }

  const payPoints = [
    ['payments', 'payments.pay.after-intent'],
    ['wallet', 'wallet.capture.after-commit'],
    ['payments', 'payments.pay.after-capture'],
    ['payments', 'payments.pay.after-complete'],
  ] as const;
  for (const [side, point] of payPoints) {
    t.test(`pay: crash at ${point}`, async (t) => {
      await procs.start(side, { CRASH_AT: point });
      const player = await money.fundedPlayer(brand, '100.00');
      const wd = ok(await money.createWithdrawal(brand, player, '40.00'));
      ok(await money.adminDecide(wd.id, 'approve'));
      await crashAndRecover(t, procs, side, point, () => money.adminDecide(wd.id, 'pay', 2000));
      await waitFor(async () => (await money.withdrawalStatus(wd.id)) === 'paid', { what: 'pay finished', timeoutMs: 60_000 });
      t.equal(await money.holdOf(wd.id), 'captured');
      t.same(await money.playerEntries(wd.id), [{ type: 'WITHDRAWAL', amount: '-40.00' }], 'exactly one debit');
      t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '60.00', withdrawable: '60.00' });
      t.equal(errorOf(await money.adminDecide(wd.id, 'pay'))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
      t.same(await transitions(wd.id), [
        [null, 'under_review'],
        ['under_review', 'approved'],
        ['approved', 'paid'],
      ]);
      t.same(
        await audited(wd.id),
        [
          ['reviewer@test', 'under_review', 'approved'],
          ['payer@test', 'approved', 'paid'],
        ],
        'the approval and the pay have exactly one audit row each',
      );
      await assertLedgerSound(t, stack);
    });
  }

  for (const [side, point] of payPoints) {
    t.test(`pay with an Idempotency-Key: after a crash at ${point}, the retry with the key gets the answer, not a 409`, async (t) => {
      await procs.start(side, { CRASH_AT: point });
      const player = await money.fundedPlayer(brand, '100.00');
      const wd = ok(await money.createWithdrawal(brand, player, '40.00'));
      ok(await money.adminDecide(wd.id, 'approve'));
      const k = `pay-key-${wd.id}`;
      await crashAndRecover(t, procs, side, point, () => money.adminDecide(wd.id, 'pay', 2000, k));
      await waitFor(async () => (await money.withdrawalStatus(wd.id)) === 'paid', { what: 'pay finished', timeoutMs: 60_000 });
      const retried = await money.adminDecide(wd.id, 'pay', undefined, k);
      t.match(ok(retried), { id: wd.id, status: 'paid' }, 'the retry with the key is answered with the payment');
      t.equal(
        errorOf(await money.adminDecide(wd.id, 'pay', undefined, `${k}-other`))?.code,
        'WITHDRAWAL_INVALID_TRANSITION',
        'another key is a new decision: refused',
      );
      t.same(await money.playerEntries(wd.id), [{ type: 'WITHDRAWAL', amount: '-40.00' }], 'exactly one debit');
      await assertLedgerSound(t, stack);
    });
  }

  t.test('approve: a crash after its commit leaves its audit row; the retry with the key adds none', async (t) => {
    await procs.start('payments', { CRASH_AT: 'payments.approve.after-commit' });
    const player = await money.fundedPlayer(brand, '100.00');
    const wd = ok(await money.createWithdrawal(brand, player, '40.00'));
    const k = `approve-key-${wd.id}`;
    await crashAndRecover(t, procs, 'payments', 'payments.approve.after-commit', () => money.adminDecide(wd.id, 'approve', 2000, k));
    t.match(ok(await money.adminDecide(wd.id, 'approve', undefined, k)), { id: wd.id, status: 'approved' }, 'the retry gets the answer');
    t.same(await audited(wd.id), [['reviewer@test', 'under_review', 'approved']], 'one audit row, from the decision itself');
  });

  t.test('sandbox decisions with a key: a retry gets the stored answer', async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    const wd = ok(await money.createWithdrawal(brand, player, '10.00'));
    const approved = ok(await money.decide(brand, wd.id, 'approve', undefined, 'sbx-approve-1'));
    t.same(ok(await money.decide(brand, wd.id, 'approve', undefined, 'sbx-approve-1')), approved, 'approve replayed');
    const paid = ok(await money.decide(brand, wd.id, 'pay', undefined, 'sbx-pay-1'));
    t.same(ok(await money.decide(brand, wd.id, 'pay', undefined, 'sbx-pay-1')), paid, 'pay replayed');
    t.equal(errorOf(await money.decide(brand, wd.id, 'reject', undefined, 'sbx-pay-1'))?.code, 'IDEMPOTENCY_CONFLICT', 'the key of another decision');
    t.same(await money.playerEntries(wd.id), [{ type: 'WITHDRAWAL', amount: '-10.00' }]);
  });

  t.test('pay under way: shown as approved; the same decision again finishes it', async (t) => {
    await procs.start('payments', { CRASH_AT: 'payments.pay.after-intent' });
    const player = await money.fundedPlayer(brand, '100.00');
    const wd = ok(await money.createWithdrawal(brand, player, '25.00'));
    const approved = ok(await money.decide(brand, wd.id, 'approve'));
    await crashAndRecover(t, procs, 'payments', 'payments.pay.after-intent', () => money.decide(brand, wd.id, 'pay', 2000), { RECONCILE_AFTER_MS: 600_000 });
    t.equal(await money.withdrawalStatus(wd.id), 'paying');
    t.same(ok(await money.getWithdrawal(brand, wd.id)), approved, 'shown as approved: not paid yet');
    t.same(await money.playerEntries(wd.id), [], 'no debit yet');
    t.equal(errorOf(await money.decide(brand, wd.id, 'reject'))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
    t.equal(errorOf(await money.cancel(brand, wd.id))?.code, 'WITHDRAWAL_NOT_CANCELLABLE');
    const paid = ok(await money.decide(brand, wd.id, 'pay'));
    t.equal(paid.status, 'paid');
    t.same(await money.playerEntries(wd.id), [{ type: 'WITHDRAWAL', amount: '-25.00' }]);
    t.equal((await money.wallet(brand, player)).available, '75.00');
    await assertLedgerSound(t, stack);
    await procs.start('payments');
  });
});
