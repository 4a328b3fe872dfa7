// A kill in the middle of a group commit (issue #47; docs/money.md, "Group commit"): four confirms
// at once share the intent's, the credit's and the completion's statements (a window long enough
// to gather them), and the process is killed right after one of those statements committed.
// The batch is all or nothing (one statement): right after the kill, all four deposits are past the
// step together; restarted, each ends confirmed with exactly one DEPOSIT entry, one event and its
// own answer under its own key.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { processGroup } from '@bo/test-support';
import { startPaymentsStack, operatorScope, ok, key, publishedEvents, assertLedgerSound } from './support/stack.ts';
import { childEnv, answers } from './support/crash.ts';

const BATCH = 4;
/**
 * A window long enough that the four confirms, sent at once, meet in one batch even on a busy
 * machine, and a deadline for payments' call to the wallet well past the wallet's own window.
 */
const WINDOW = { GROUP_COMMIT_WINDOW_MS: 1000, RPC_TIMEOUT_MS: 10_000 };
/** Until the kill, the reconciler keeps off the confirms that wait in their windows (it would finish some alone). */
const RECONCILER_HELD = { RECONCILE_AFTER_MS: 600_000 };

t.test('a kill right after a batch committed: every confirm of the batch converges once', async (t) => {
  const stack = await startPaymentsStack(t, 'crashgc', { payments: false, wallet: false });
  const { money } = stack;
  const procs = processGroup(t, childEnv(stack), answers(stack));
  const brand = operatorScope('a');

  const points = [
    ['payments', 'payments.confirm.after-intent', 'confirming', 0],
    ['wallet', 'wallet.credit.after-commit', 'confirming', 1],
    ['payments', 'payments.confirm.after-complete', 'confirmed', 1],
  ] as const;
  for (const [side, point, statusAfter, entriesAfter] of points) {
    t.test(`killed at ${point}`, async (t) => {
      const armed = (name: 'wallet' | 'payments') => (name === side ? { CRASH_AT: point } : {});
      await procs.start('wallet', { ...WINDOW, ...armed('wallet') });
      await procs.start('payments', { ...WINDOW, ...RECONCILER_HELD, ...armed('payments') });
      const players = await Promise.all(Array.from({ length: BATCH }, () => money.player(brand)));
      const deposits = await Promise.all(players.map(async (p) => ok(await money.createDeposit(brand, p, { amount: '25.00' }))));
      const keys = deposits.map(() => key('confirm'));
      const victim = procs.get(side)!;
      const replies = await Promise.all(deposits.map((d, i) => money.confirm(brand, d.id, keys[i], 15_000)));
      // An answer means the process lived through the point: nothing to wait for then.
      if (!t.equal(replies.filter((r) => r.ok).length, 0, 'no confirm of the batch was answered')) return;
      t.equal((await victim.exited).signal, 'SIGKILL', `${side} was killed at ${point}`);
      // One statement for the batch: all of it committed, so every deposit is past the step.
      // One test connection: read one after the other.
      const statuses: (string | undefined)[] = [];
      for (const d of deposits) statuses.push(await money.depositStatus(d.id));
      t.same(
        statuses,
        deposits.map(() => statusAfter),
        `right after the kill, all ${BATCH} are ${statusAfter}`,
      );
      const entries: number[] = [];
      for (const d of deposits) entries.push((await money.playerEntries(d.id)).length);
      t.same(
        entries,
        deposits.map(() => entriesAfter),
        `and each has ${entriesAfter} DEPOSIT entry`,
      );

      // Both started again, the reconciler at its test pace (childEnv): it finishes what the kill left.
      await procs.start('wallet', WINDOW);
      await procs.start('payments', WINDOW);
      await waitFor(async () => (await money.depositStatuses(deposits.map((d) => d.id))).every((s) => s === 'confirmed'), {
        what: 'every deposit of the batch confirmed',
        timeoutMs: 60_000,
      });
      const credited: { type: string; amount: string }[][] = [];
      for (const d of deposits) credited.push(await money.playerEntries(d.id));
      t.same(
        credited,
        deposits.map(() => [{ type: 'DEPOSIT', amount: '25.00' }]),
        'exactly one DEPOSIT entry each',
      );
      const balances = await Promise.all(players.map(async (p) => (await money.wallet(brand, p)).available));
      t.same(
        balances,
        players.map(() => '25.00'),
      );
      const again = await Promise.all(deposits.map((d, i) => money.confirm(brand, d.id, keys[i])));
      t.same(
        again.map((r) => r.ok && { id: ok<{ id: string; status: string }>(r).id, status: ok<{ id: string; status: string }>(r).status }),
        deposits.map((d) => ({ id: d.id, status: 'confirmed' })),
        'each key gets its own deposit, confirmed',
      );
      const events = (await publishedEvents(stack)).filter((e) => e.type === 'deposit.confirmed');
      const ids = new Set(deposits.map((d) => d.id));
      t.equal(events.filter((e) => ids.has((e.data as { id: string }).id)).length, BATCH, 'one deposit.confirmed event each');
      await assertLedgerSound(t, stack);
    });
  }
});
