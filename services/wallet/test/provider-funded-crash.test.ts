// Issue #59 item 1: crash tests of the provider-funded money paths (free bets, their rounds' wins,
// promotional credits, jackpot wins): the wallet runs as a real child process and is killed at
// their crash points. Killed after a commit, the provider never hears of it: its retry with the same
// transactionId gets the first answer (replayed), never a second credit; killed before a free bet is
// recorded, nothing survives. Every test ends with verifyLedger (each provider transaction's ledger
// type and clearing account included).
import t from 'tap';
import { assertLedgerSound, ok } from '@bo/test-support';
import { startProviderCrashHarness, txId } from './support/provider-crash.ts';

t.test('provider-funded calls survive a wallet crash exactly once', async (t) => {
  const { stack, p, fundedSession, rowsOf, ledgerOf, balanceOf, crashAt } = await startProviderCrashHarness(t, {
    label: 'provfundcrash',
    provider: { name: 'Funded crash aggregator', kind: 'casino' },
    game: { gameCode: 'fund-slot', name: 'Fund Slot', category: 'slots' },
  });

  t.test('killed before a free bet is recorded: nothing survives; killed after: the retry answers it; its win once', async (t) => {
    const { player, token } = await fundedSession('10.00');
    const fb = { transactionId: txId('fb'), token, roundId: txId('round'), gameCode: 'fund-slot', amount: '1.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.freeBet.before-post', 'freeBet', fb);
    t.same(await rowsOf(fb.transactionId), [], 'nothing recorded');
    await crashAt(t, 'wallet.provider.freeBet.after-commit', 'freeBet', fb);
    t.same(await rowsOf(fb.transactionId), [{ kind: 'free_bet', moved: '0.00', balance_after: '10.00' }], 'recorded once, nothing moved');
    t.match(ok<any>(await p('freeBet', fb)), { kind: 'free_bet', moved: '0.00', balance: '10.00', replayed: true });
    const win = { transactionId: txId('win'), playerId: player, roundId: fb.roundId, amount: '4.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.win.after-commit', 'win', win);
    t.match(ok<any>(await p('win', win)), { moved: '4.00', balance: '14.00', replayed: true });
    t.same(await ledgerOf(win.transactionId), [{ type: 'FREE_BET_WIN', amount: '4.00' }], 'one free-bet win');
    t.equal(await balanceOf(token), '14.00');
    await assertLedgerSound(t, stack);
  });

  t.test('killed after a promotional credit and a jackpot win commit: each retry answers it, one credit each', async (t) => {
    const { player, token } = await fundedSession('10.00');
    const promo = { transactionId: txId('promo'), playerId: player, amount: '5.00', currency: 'BRL', promotionType: 'tournament_prize', promotionId: 'tour' };
    await crashAt(t, 'wallet.provider.promoCredit.after-commit', 'promoCredit', promo);
    t.match(ok<any>(await p('promoCredit', promo)), { moved: '5.00', balance: '15.00', replayed: true });
    t.same(await ledgerOf(promo.transactionId), [{ type: 'PROMO_CREDIT', amount: '5.00' }], 'one promotional credit');
    const jackpot = { transactionId: txId('jp'), playerId: player, jackpotId: 'mega', amount: '20.00', currency: 'BRL' };
    await crashAt(t, 'wallet.provider.jackpotWin.after-commit', 'jackpotWin', jackpot);
    t.match(ok<any>(await p('jackpotWin', jackpot)), { moved: '20.00', balance: '35.00', replayed: true });
    t.same(await ledgerOf(jackpot.transactionId), [{ type: 'JACKPOT_WIN', amount: '20.00' }], 'one jackpot win');
    t.equal(await balanceOf(token), '35.00');
    await assertLedgerSound(t, stack);
  });
});
