// Crash tests of the withdrawal request and its cancel: wallet and payments run as real processes,
// each is killed at every crash point of the move and started again. The move must end as if
// nothing happened, with exactly one hold (or none) and no operator action.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import type { Withdrawal } from '@bo/contracts';
import { startPaymentsStack, operatorScope, ok, errorOf, key, publishedEvents, assertLedgerSound } from './support/stack.ts';
import { crashAndRecover, childEnv, answers } from './support/crash.ts';
import { processGroup } from '@bo/test-support';

t.test('withdrawal request and cancel converge after a crash at every point', async (t) => {
  const stack = await startPaymentsStack(t, 'crashwd', { payments: false, wallet: false });
  const { money } = stack;
  const procs = processGroup(t, childEnv(stack), answers(stack));
  await procs.start('wallet');
  await procs.start('payments');
  const brand = operatorScope('a');
  const eventsOf = async (id: string) =>
    (await publishedEvents(stack))
      .filter((e) => e.type === 'withdrawal.status_changed' && (e.data as { withdrawal: Withdrawal }).withdrawal.id === id)
      .map((e) => e.data as { withdrawal: Withdrawal; previousStatus: string | null });
  const requestKeyRow = async (k: string) => (await stack.sql.query('select id, status from payments.withdrawals where request_key = $1', [k])).rows[0];

  const createPoints = [
    ['payments', 'payments.withdraw.after-intent'],
    ['wallet', 'wallet.hold.after-commit'],
    ['payments', 'payments.withdraw.after-hold'],
    ['payments', 'payments.withdraw.after-complete'],
  ] as const;
  for (const [side, point] of createPoints) {
    t.test(`request: crash at ${point}`, async (t) => {
      await procs.start(side, { CRASH_AT: point });
      const player = await money.fundedPlayer(brand, '100.00');
      const k = key('wd');
      await crashAndRecover(t, procs, side, point, () => money.createWithdrawal(brand, player, '30.00', k, {}, 2000));
      const row = await waitFor(
        async () => {
          const r = await requestKeyRow(k);
          return r?.status === 'under_review' && r;
        },
        { what: 'request reserved', timeoutMs: 60_000 },
      );
      t.equal(await money.holdOf(row.id), 'open', 'one open hold');
      t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '70.00' });
      const replay = await money.createWithdrawal(brand, player, '30.00', k);
      t.equal(replay.ok && replay.status, 201, 'the same key gets the 201');
      t.same(ok(replay), ok(await money.getWithdrawal(brand, row.id)));
      t.equal((await money.wallet(brand, player)).withdrawable, '70.00', 'the replay reserved nothing more');
      t.same(
        (await eventsOf(row.id)).map((e) => e.previousStatus),
        [null],
        'one status_changed event',
      );
      await assertLedgerSound(t, stack);
    });
  }

  t.test('request refused for funds, crash after the hold answer: ends declined, the key answers 422', async (t) => {
    await procs.start('payments', { CRASH_AT: 'payments.withdraw.after-hold' });
    const player = await money.fundedPlayer(brand, '10.00');
    const k = key('wd');
    await crashAndRecover(t, procs, 'payments', 'payments.withdraw.after-hold', () => money.createWithdrawal(brand, player, '10.01', k, {}, 2000));
    const row = await waitFor(
      async () => {
        const r = await requestKeyRow(k);
        return r?.status === 'declined' && r;
      },
      { what: 'request declined', timeoutMs: 60_000 },
    );
    t.equal(errorOf(await money.createWithdrawal(brand, player, '10.01', k))?.code, 'INSUFFICIENT_FUNDS');
    t.equal(errorOf(await money.getWithdrawal(brand, row.id))?.code, 'WITHDRAWAL_NOT_FOUND');
    t.equal((await money.wallet(brand, player)).withdrawable, '10.00');
    await assertLedgerSound(t, stack);
  });

  t.test('request: crash after the intent, the same key finishes it itself', async (t) => {
    await procs.start('payments', { CRASH_AT: 'payments.withdraw.after-intent' });
    const player = await money.fundedPlayer(brand, '50.00');
    const k = key('wd');
    // As the gateway sends it: the key with the request's fingerprint.
    const create = (fingerprint: string, amount: string, timeoutMs?: number) =>
      stack.call<Withdrawal>('payments.withdrawals.create', {
        scope: brand,
        key: k,
        fingerprint,
        params: { playerId: player },
        body: { amount, currency: 'BRL', method: 'pix', destination: 'chave-pix-123' },
        timeoutMs,
      });
    await crashAndRecover(t, procs, 'payments', 'payments.withdraw.after-intent', () => create('fp-first', '20.00', 2000), {
      RECONCILE_AFTER_MS: 600_000,
    });
    const row = await requestKeyRow(k);
    t.equal(row.status, 'reserving');
    t.equal(errorOf(await money.getWithdrawal(brand, row.id))?.code, 'WITHDRAWAL_NOT_FOUND', 'invisible while reserving');
    // The key is on the row with its request's fingerprint: another request with it is refused
    // while the move is under way, before any answer is stored.
    t.equal(errorOf(await create('fp-other', '21.00'))?.code, 'IDEMPOTENCY_CONFLICT', 'another request with the key: a conflict');
    t.equal((await requestKeyRow(k)).status, 'reserving', 'and the move is left as it was');
    const r = await create('fp-first', '20.00');
    t.equal(r.ok && r.status, 201);
    t.match(ok(r), { id: row.id, status: 'under_review' });
    t.equal((await money.wallet(brand, player)).withdrawable, '30.00');
    await assertLedgerSound(t, stack);
    await procs.start('payments');
  });

  const cancelPoints = [
    ['payments', 'payments.cancel.after-intent'],
    ['wallet', 'wallet.release.after-commit'],
    ['payments', 'payments.cancel.after-release'],
    ['payments', 'payments.cancel.after-complete'],
  ] as const;
  for (const [side, point] of cancelPoints) {
    t.test(`cancel: crash at ${point}`, async (t) => {
      await procs.start(side, { CRASH_AT: point });
      const player = await money.fundedPlayer(brand, '100.00');
      const wd = ok(await money.createWithdrawal(brand, player, '40.00'));
      const k = key('cancel');
      await crashAndRecover(t, procs, side, point, () => money.cancel(brand, wd.id, k, 2000));
      await waitFor(async () => (await money.withdrawalStatus(wd.id)) === 'cancelled', { what: 'cancel finished', timeoutMs: 60_000 });
      t.equal(await money.holdOf(wd.id), 'released');
      t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '100.00' });
      const replay = await money.cancel(brand, wd.id, k);
      t.equal(ok(replay).status, 'cancelled', 'the same key gets the result');
      t.equal(errorOf(await money.cancel(brand, wd.id))?.code, 'WITHDRAWAL_NOT_CANCELLABLE');
      t.same(
        (await eventsOf(wd.id)).map((e) => [e.previousStatus, e.withdrawal.status]),
        [
          [null, 'under_review'],
          ['under_review', 'cancelled'],
        ],
      );
      await assertLedgerSound(t, stack);
    });
  }

  t.test('cancel under way: the API still shows under_review, decisions are refused', async (t) => {
    await procs.start('payments', { CRASH_AT: 'payments.cancel.after-intent' });
    const player = await money.fundedPlayer(brand, '100.00');
    const wd = ok(await money.createWithdrawal(brand, player, '40.00'));
    await crashAndRecover(t, procs, 'payments', 'payments.cancel.after-intent', () => money.cancel(brand, wd.id, key('cancel'), 2000), {
      RECONCILE_AFTER_MS: 600_000,
    });
    t.equal(await money.withdrawalStatus(wd.id), 'cancelling');
    t.same(ok(await money.getWithdrawal(brand, wd.id)), wd, 'shown as it was: nothing has happened yet');
    t.equal(errorOf(await money.adminDecide(wd.id, 'approve'))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
    t.equal(errorOf(await money.adminDecide(wd.id, 'reject'))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
    t.equal(errorOf(await money.cancel(brand, wd.id))?.code, 'WITHDRAWAL_NOT_CANCELLABLE', 'another key cannot cancel again');
    await procs.start('payments');
    await waitFor(async () => (await money.withdrawalStatus(wd.id)) === 'cancelled', { what: 'cancel finished', timeoutMs: 60_000 });
    t.equal((await money.wallet(brand, player)).withdrawable, '100.00');
    await assertLedgerSound(t, stack);
  });
});
