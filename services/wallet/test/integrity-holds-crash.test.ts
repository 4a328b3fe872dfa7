// Issue #60 item 3: crash tests of the integrity holds' money moves: the wallet runs as a real child
// process and is killed at their crash points. Killed after a held win commits, the provider never
// hears of it: its retry with the same transactionId gets the first answer (replayed), never a second
// hold or a credit to the player. Killed inside a release's transaction before its commit, nothing
// moved and the hold is still held: the release asked again moves the prize once. Every test ends
// with verifyLedger (the integrity checks included).
import t from 'tap';
import type { AdminScope } from '@bo/contracts';
import { adminScope, assertLedgerSound, ok } from '@bo/test-support';
import { startProviderCrashHarness, txId } from './support/provider-crash.ts';

const person = (name: string): AdminScope => ({ ...adminScope, actor: name, personId: `per_${name}` });
const SLIP = {
  sport: 'football',
  event: 'Bahia x Vitória',
  market: 'match_result',
  selection: 'Bahia',
  odds: '2.10',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

t.test('integrity holds survive a wallet crash exactly once', async (t) => {
  const { stack, call, sql, provider, p, fundedSession, balanceOf, crashDuring } = await startProviderCrashHarness(t, {
    label: 'integritycrash',
    provider: { name: 'Integrity crash book', kind: 'sportsbook' },
    game: { gameCode: 'sportsbook', name: 'Sportsbook', category: 'sports' },
  });
  const integrity = (by: AdminScope, op: string, body: unknown, params: Record<string, string> = {}, timeoutMs = 10_000) =>
    call(`wallet.admin.integrity.${op}`, { scope: by, params, body, timeoutMs });

  /** A player with 100.00 who bet 10.00 on a slip that compliance (alice) holds. */
  const heldSlip = async () => {
    const { player, token } = await fundedSession('100.00');
    const roundId = txId('slip');
    ok(await p('bet', { transactionId: txId('bet'), token, roundId, gameCode: 'sportsbook', amount: '10.00', currency: 'BRL', slip: SLIP }));
    const hold = ok<any>(await integrity(person('alice'), 'place', { providerId: provider.id, roundId, reason: 'linked accounts on one selection' }));
    return { player, token, roundId, hold };
  };
  const heldWins = async (holdId: string) =>
    (await sql.query('select amount::text from wallet.integrity_held_wins where hold_id = $1', [holdId])).rows.map((r) => r.amount);
  const statusOf = async (holdId: string) => (await sql.query('select status from wallet.integrity_holds where id = $1', [holdId])).rows[0]?.status;
  const releases = async (holdId: string) =>
    Number((await sql.query(`select count(*) from wallet.ledger_transactions where type = 'INTEGRITY_RELEASE' and reference_id = $1`, [holdId])).rows[0].count);

  t.test('killed after a held win commits: the retry answers it; held once, the player never credited', async (t) => {
    const { player, token, roundId, hold } = await heldSlip();
    const win = { transactionId: txId('win'), playerId: player, roundId, amount: '25.00', currency: 'BRL', outcome: 'won' };
    await crashDuring(t, 'wallet.integrity.heldWin.after-commit', () => p('win', win, 3000));
    t.match(ok<any>(await p('win', win)), { moved: '0.00', balance: '90.00', replayed: true });
    t.same(await heldWins(hold.id), ['25.00'], 'held once');
    t.equal(await balanceOf(token), '90.00', 'the player not credited');
    await assertLedgerSound(t, stack);
  });

  t.test('killed inside a release before its commit: nothing moved, still held; released again: credited once', async (t) => {
    const { player, token, roundId, hold } = await heldSlip();
    ok(await p('win', { transactionId: txId('win'), playerId: player, roundId, amount: '30.00', currency: 'BRL', outcome: 'won' }));
    const release = () => integrity(person('bob'), 'release', { reason: 'alert closed by the monitor' }, { id: hold.id }, 3000);
    await crashDuring(t, 'wallet.integrity.released.before-commit', release);
    t.equal(await statusOf(hold.id), 'held', 'still held');
    t.equal(await releases(hold.id), 0, 'nothing moved');
    t.equal(await balanceOf(token), '90.00');
    t.match(ok<any>(await release()), { status: 'released', heldAmount: '30.00' });
    t.match(ok<any>(await release()), { status: 'released' }, 'asked again by the same person: its answer');
    t.equal(await releases(hold.id), 1, 'one release');
    t.equal(await balanceOf(token), '120.00', 'credited once');
    await assertLedgerSound(t, stack);
  });
});
