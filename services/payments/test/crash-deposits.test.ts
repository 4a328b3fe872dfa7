// Crash tests of deposit confirmation (issue #4, invariant 2): the wallet and payments services run
// as real processes; each is killed at every crash point of confirm and started again, and the
// deposit must end confirmed with exactly one DEPOSIT entry, without operator action.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { startPaymentsStack, operatorScope, answerOf, ok, errorOf, key, publishedEvents, assertLedgerSound } from './support/stack.ts';
import { crashAndRecover, childEnv, answers } from './support/crash.ts';
import { processGroup } from '@bo/test-support';

t.test('confirm converges after a crash at every point', async (t) => {
  const stack = await startPaymentsStack(t, 'crashdep', { payments: false, wallet: false });
  const { money } = stack;
  const procs = processGroup(t, childEnv(stack), answers(stack));
  await procs.start('wallet');
  await procs.start('payments');
  const brand = operatorScope('a');
  const bystander = await money.player(brand);
  const untouched = ok(await money.createDeposit(brand, bystander, { amount: '9.00' }));

  const points = [
    ['payments', 'payments.confirm.after-intent'],
    ['wallet', 'wallet.credit.after-commit'],
    ['payments', 'payments.confirm.after-credit'],
    ['payments', 'payments.confirm.after-complete'],
  ] as const;
  for (const [side, point] of points) {
    t.test(`crash at ${point}: the reconciler finishes it`, async (t) => {
      await procs.start(side, { CRASH_AT: point });
      const player = await money.player(brand);
      const dep = ok(await money.createDeposit(brand, player, { amount: '42.00' }));
      const k = key('confirm');
      await crashAndRecover(t, procs, side, point, () => money.confirm(brand, dep.id, k, 2000));
      await waitFor(async () => (await money.depositStatus(dep.id)) === 'confirmed', { what: 'deposit confirmed by the reconciler', timeoutMs: 60_000 });
      t.same(await money.playerEntries(dep.id), [{ type: 'DEPOSIT', amount: '42.00' }], 'exactly one DEPOSIT entry');
      t.equal((await money.wallet(brand, player)).available, '42.00');
      const replay = ok(await money.confirm(brand, dep.id, k));
      t.match(replay, { id: dep.id, status: 'confirmed' }, 'the same key gets the result');
      t.equal(errorOf(await money.confirm(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING', 'a new key gets 409');
      t.equal(errorOf(await money.fail(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING');
      const events = (await publishedEvents(stack)).filter((e) => e.type === 'deposit.confirmed' && (e.data as { id: string }).id === dep.id);
      t.equal(events.length, 1, 'one deposit.confirmed event');
      t.same(events[0]?.data, replay);
      await assertLedgerSound(t, stack);
    });
  }

  t.test('crash after the intent: a retry with the same key finishes it itself', async (t) => {
    await procs.start('payments', { CRASH_AT: 'payments.confirm.after-intent' });
    const player = await money.player(brand);
    const dep = ok(await money.createDeposit(brand, player, { amount: '10.00' }));
    const k = key('confirm');
    // Restarted with a reconciler that waits 10 minutes, so only the retry can finish the confirm.
    await crashAndRecover(t, procs, 'payments', 'payments.confirm.after-intent', () => money.confirm(brand, dep.id, k, 2000), { RECONCILE_AFTER_MS: 600_000 });
    t.equal(await money.depositStatus(dep.id), 'confirming');
    t.same(await money.playerEntries(dep.id), [], 'no credit yet');
    t.equal(errorOf(await money.fail(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING', 'the decision is taken: fail is refused');
    t.equal(errorOf(await money.confirm(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING', 'another key is refused');
    const r = await money.confirm(brand, dep.id, k);
    t.equal(r.ok && r.status, 200);
    t.equal(ok(r).status, 'confirmed');
    const again = await money.confirm(brand, dep.id, k);
    t.same(answerOf(again), answerOf(r), 'and answers the same again');
    t.equal(again.replayed, true, 'as a replay');
    t.same(await money.playerEntries(dep.id), [{ type: 'DEPOSIT', amount: '10.00' }]);
    await assertLedgerSound(t, stack);
    await procs.start('payments');
  });

  t.test('a pending deposit never got an entry through all of it', async (t) => {
    t.equal(await money.depositStatus(untouched.id), 'pending');
    t.same(await money.playerEntries(untouched.id), []);
    t.equal((await money.wallet(brand, bystander)).available, '0.00');
    await assertLedgerSound(t, stack);
  });
});
