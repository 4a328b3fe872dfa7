// Crash tests of the provider wallet API: the wallet runs as a real child process and is killed at
// the provider calls' crash points. After a bet's commit (`wallet.provider.bet.after-commit`) the
// debit is durable but the provider never hears of it: its retry with the same transactionId gets
// the first answer (marked replayed), never a second debit, also when copies of the bet were sent
// at once (every copy's answer after the commit is the first, replayed). Killed before the bet's statement
// (`wallet.provider.bet.before-post`) nothing survives and the retry debits once. After a
// rollback's commit, its retry answers the refund, never a second one. Every test ends with
// verifyLedger, which checks each provider transaction against its ledger transaction.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { WALLET_SUBJECTS } from '@bo/contracts';
import { adminScope, assertLedgerSound, errorOf, internalScope, ok } from '@bo/test-support';
import { startProviderCrashHarness, txId } from './support/provider-crash.ts';

t.test('provider calls survive a wallet crash exactly once', async (t) => {
  const { stack, call, wallet, brand, provider, p, fundedSession, rowsOf, ledgerOf, balanceOf, crashAt } = await startProviderCrashHarness(t, {
    label: 'provcrash',
    provider: { name: 'Crash aggregator', kind: 'casino' },
    game: { gameCode: 'crash-slot', name: 'Crash Slot', category: 'slots' },
  });

  t.test('killed after a bet commits: the retry gets the first answer, one debit', async (t) => {
    const { token } = await fundedSession('100.00');
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'crash-slot', amount: '10.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.bet.after-commit', 'bet', bet);
    t.same(await rowsOf(bet.transactionId), [{ kind: 'bet', moved: '-10.00', balance_after: '90.00' }], 'the bet was committed before the crash');
    const retry = ok<any>(await p('bet', bet));
    t.match(retry, { moved: '-10.00', balance: '90.00', replayed: true }, 'the retry answers the committed bet');
    t.same(await ledgerOf(bet.transactionId), [{ type: 'BET', amount: '-10.00' }], 'one ledger debit');
    t.equal(await balanceOf(token), '90.00');
    await assertLedgerSound(t, stack);
  });

  t.test('copies of a bet at once, killed after one commits: every answer after it is the first, replayed; one debit', async (t) => {
    // The simulator's three copies at once under a kill (npm run chaos): the copy that applied is never
    // answered; each copy is sent again with its id until it is answered, then once more later.
    const { token } = await fundedSession('100.00');
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'crash-slot', amount: '1.00', currency: 'BRL' };
    const victim = await wallet.start({ CRASH_AT: 'wallet.provider.bet.after-commit' });
    const first = await Promise.all([0, 1, 2].map(() => p('bet', bet, 3000)));
    t.equal((await victim.exited).signal, 'SIGKILL', 'the wallet died after the commit');
    t.notOk(
      first.some((r) => r.ok && (r.body as { replayed: boolean }).replayed === false),
      'the applying copy was never answered',
    );
    t.same(await rowsOf(bet.transactionId), [{ kind: 'bet', moved: '-1.00', balance_after: '99.00' }], 'committed once');
    await wallet.start();
    const untilAnswered = async (r: (typeof first)[number]) => {
      while (errorOf(r)?.code === 'SERVICE_UNAVAILABLE') r = await p('bet', bet);
      return ok<any>(r);
    };
    const answers = await Promise.all(first.map(untilAnswered));
    answers.push(ok<any>(await p('bet', bet)));
    const committed = answers[0].createdAt;
    t.ok(
      answers.every((a) => a.replayed === true && a.moved === '-1.00' && a.balance === '99.00' && a.createdAt === committed),
      'every answer is the committed bet, replayed',
    );
    t.same(await ledgerOf(bet.transactionId), [{ type: 'BET', amount: '-1.00' }], 'one ledger debit');
    t.equal(await balanceOf(token), '99.00');
    await assertLedgerSound(t, stack);
  });

  t.test('killed before the bet statement: nothing survives, the retry debits once', async (t) => {
    const { token } = await fundedSession('50.00');
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'crash-slot', amount: '5.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.bet.before-post', 'bet', bet);
    t.same(await rowsOf(bet.transactionId), [], 'no transaction recorded');
    t.equal(await balanceOf(token), '50.00', 'no money moved');
    t.match(ok<any>(await p('bet', bet)), { moved: '-5.00', balance: '45.00', replayed: false }, 'the retry is the one bet');
    t.same(await ledgerOf(bet.transactionId), [{ type: 'BET', amount: '-5.00' }]);
    await assertLedgerSound(t, stack);
  });

  t.test('killed after a rollback commits: the retry answers the refund, never a second one', async (t) => {
    const { player, token } = await fundedSession('30.00');
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'crash-slot', amount: '7.50', currency: 'BRL' };
    ok(await p('bet', bet));
    const rollback = { transactionId: txId('rb'), playerId: player, betTransactionId: bet.transactionId, roundId: bet.roundId };
    await crashAt(t, 'wallet.provider.rollback.after-commit', 'rollback', rollback);
    t.match(ok<any>(await p('rollback', rollback)), { moved: '7.50', balance: '30.00', replayed: true });
    t.same(await ledgerOf(rollback.transactionId), [{ type: 'ROLLBACK', amount: '7.50' }], 'one refund');
    t.match(ok<any>(await p('rollback', { ...rollback, transactionId: txId('rb') })), { moved: '0.00', balance: '30.00' }, 'another id refunds nothing');
    t.equal(await balanceOf(token), '30.00');
    await assertLedgerSound(t, stack);
  });

  t.test('killed after a win commits: the retry answers the win, one credit', async (t) => {
    const { player, token } = await fundedSession('20.00');
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'crash-slot', amount: '2.00', currency: 'BRL' };
    ok(await p('bet', bet));
    const win = { transactionId: txId('win'), playerId: player, roundId: bet.roundId, amount: '6.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.win.after-commit', 'win', win);
    t.match(ok<any>(await p('win', win)), { moved: '6.00', balance: '24.00', replayed: true });
    t.same(await ledgerOf(win.transactionId), [{ type: 'WIN', amount: '6.00' }], 'one credit');
    await assertLedgerSound(t, stack);
  });

  t.test("killed after a win that repays the player's debt commits: the retry answers both, once", async (t) => {
    const { player, token } = await fundedSession('3.00');
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'crash-slot', amount: '3.00', currency: 'BRL' };
    ok(await p('bet', bet));
    ok(await p('win', { transactionId: txId('win'), playerId: player, roundId: bet.roundId, amount: '0.00', currency: 'BRL' }));
    const correction = { transactionId: txId('c'), playerId: player, roundId: bet.roundId, amount: '-4.00', currency: 'BRL', reason: 'resettled' };
    t.match(ok<any>(await p('correction', correction)), { moved: '0.00', balance: '0.00' }, 'the whole debit is owed');
    const bet2 = { ...bet, transactionId: txId('bet'), roundId: txId('round'), amount: '1.00' };
    await call(WALLET_SUBJECTS.credit, {
      scope: internalScope(),
      body: { brandId: brand.brandId, playerId: player, currency: 'BRL', amount: '1.00', depositId: `dep_${randomBytes(6).toString('hex')}` },
    });
    ok(await p('bet', bet2));
    const win = { transactionId: txId('win'), playerId: player, roundId: bet2.roundId, amount: '10.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.win.after-commit', 'win', win);
    t.match(ok<any>(await p('win', win)), { moved: '10.00', repaid: '4.00', balance: '6.00', replayed: true }, 'the retry answers the win and its repayment');
    t.same(await ledgerOf(win.transactionId), [{ type: 'WIN', amount: '10.00' }], 'one credit');
    t.same(await ledgerOf(`${win.transactionId} repayment`), [{ type: 'CORRECTION', amount: '-4.00' }], 'one repayment');
    t.same(ok<any>(await call('wallet.admin.providers.debts', { scope: adminScope, params: { id: provider.id } })).data, [], 'nothing owed');
    t.equal(await balanceOf(token), '6.00');
    await assertLedgerSound(t, stack);
  });
});
