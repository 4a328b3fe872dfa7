// Evolution's calls when the wallet dies between the money statement and the answer (issue #58,
// docs/connectors-evolution.md, "When we do not answer"): the wallet runs as a real child process and
// is killed at the provider calls' crash points while Evolution's call goes through the real gateway.
// Evolution hears TEMPORARY_ERROR (`retransmission: true`) once the gateway's deadline passes, and
// does what its protocol says: a debit is cancelled or sent again, a credit or a cancel is sent
// again. Each moves money once: the cancel refunds the committed debit once, a retransmitted call
// answers the first answer. Killed before the debit's statement, nothing survives: the cancel moves
// nothing and the debit arriving late is refused. Every test ends with verifyLedger.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import type { EvolutionWireAnswer } from '@bo/contracts';
import { startEvolutionStandin } from '@bo/test-support';
import { startConnectorCrashHarness } from './support/connector-crash.ts';

t.test('Evolution calls survive a wallet killed between its money statement and its answer, exactly once', async (t) => {
  const setup = { label: 'evocrash', operatorName: 'Evo Crash Casino', providerName: 'Evolution crash', kind: 'casino', protocol: 'evolution' } as const;
  const { admin, provider, connector: P, base, enable, fundedPlayer, ledgerOf, killWalletAt, ledgerSound } = await startConnectorCrashHarness(t, setup);
  const evo = await startEvolutionStandin(t);
  await admin('PUT', P, { settings: { casinoKey: evo.casinoKey, apiBaseUrl: evo.url } });
  await admin('POST', `${P}/secrets`, { name: 'authToken', value: evo.authToken });
  await admin('POST', `${P}/secrets`, { name: 'casinoToken', value: evo.casinoToken });
  const game = await admin('PUT', `/admin/providers/${provider.id}/games/crashtable01`, { name: 'Crash Table', category: 'live' });
  await enable();

  const evoCall = async (path: string, body: unknown, at = base): Promise<EvolutionWireAnswer> => {
    const res = await fetch(`${at}${path}?authToken=${evo.authToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as EvolutionWireAnswer;
  };
  const session = async (funds: string) => {
    const player = await fundedPlayer(funds, game.id);
    const s = { player, sid: evo.launches.at(-1)!.body.player.session.id };
    // Evolution checks the session first (the gateway learns whose sid it is).
    const checked = await evoCall('/check', { sid: s.sid, userId: s.player, channel: { type: 'P' }, uuid: randomUUID() });
    if (checked.status !== 'OK') throw new Error(`/check: ${JSON.stringify(checked)}`);
    return s;
  };
  const debit = (s: { player: string; sid: string }, amount: number) => ({
    sid: s.sid,
    userId: s.player,
    currency: 'BRL',
    game: { id: randomBytes(8).toString('hex'), type: 'blackjack', details: { table: { id: 'crashtable01', vid: 'crashtable01' } } },
    transaction: { id: randomBytes(6).toString('hex'), refId: randomBytes(6).toString('hex'), amount },
    uuid: randomUUID(),
  });
  const balanceOf = async (s: { player: string; sid: string }) =>
    (await evoCall('/balance', { sid: s.sid, userId: s.player, currency: 'BRL', uuid: randomUUID() })).balance;
  const crashAt = (t: Test, point: string, path: string, body: unknown) =>
    killWalletAt(t, point, async (crashBase) => {
      t.match(await evoCall(path, body, crashBase), { status: 'TEMPORARY_ERROR', retransmission: true }, 'Evolution hears a temporary error, to send again');
    });

  t.test('killed after a debit commits: Evolution cancels it, the stake comes back once', async (t) => {
    const s = await session('100.00');
    const d = debit(s, 10);
    await crashAt(t, 'wallet.provider.bet.after-commit', '/debit', d);
    t.same(await ledgerOf(d.transaction.id), [{ type: 'BET', amount: '-10.00' }], 'the debit was committed before the crash');
    const cancel = { ...d, uuid: randomUUID() };
    t.match(await evoCall('/cancel', cancel), { status: 'OK', uuid: cancel.uuid, balance: 100 }, "Evolution's cancel refunds it");
    t.match(await evoCall('/cancel', { ...cancel, uuid: randomUUID() }), { status: 'OK', balance: 100 }, 'retransmitted: the first answer');
    t.same(await ledgerOf(`cancel:${d.transaction.id}`), [{ type: 'ROLLBACK', amount: '10.00' }], 'one refund');
    t.equal(await balanceOf(s), 100);
    await ledgerSound(t);
  });

  t.test('killed after a debit commits: the debit retransmitted answers the committed one, one debit', async (t) => {
    const s = await session('50.00');
    const d = debit(s, 5);
    await crashAt(t, 'wallet.provider.bet.after-commit', '/debit', d);
    t.match(await evoCall('/debit', { ...d, uuid: randomUUID() }), { status: 'OK', balance: 45 });
    t.same(await ledgerOf(d.transaction.id), [{ type: 'BET', amount: '-5.00' }], 'one debit');
    await ledgerSound(t);
  });

  t.test('killed before the debit statement: the cancel moves nothing, the late debit is refused', async (t) => {
    const s = await session('30.00');
    const d = debit(s, 3);
    await crashAt(t, 'wallet.provider.bet.before-post', '/debit', d);
    t.same(await ledgerOf(d.transaction.id), [], 'nothing recorded');
    t.match(await evoCall('/cancel', { ...d, uuid: randomUUID() }), { status: 'BET_DOES_NOT_EXIST', balance: 30 }, 'a cancel of nothing: BET_DOES_NOT_EXIST');
    t.equal((await evoCall('/debit', { ...d, uuid: randomUUID() })).status, 'BET_ALREADY_SETTLED', 'the debit arriving late: its cancel settled it');
    t.equal(await balanceOf(s), 30);
    await ledgerSound(t);
  });

  t.test('killed after a credit commits: the credit retransmitted answers the first, one credit', async (t) => {
    const s = await session('20.00');
    const d = debit(s, 2);
    t.equal((await evoCall('/debit', d)).status, 'OK');
    const c = { ...d, transaction: { id: randomBytes(6).toString('hex'), refId: d.transaction.refId, amount: 6 }, uuid: randomUUID() };
    await crashAt(t, 'wallet.provider.win.after-commit', '/credit', c);
    t.match(await evoCall('/credit', { ...c, uuid: randomUUID() }), { status: 'OK', balance: 24 });
    t.same(await ledgerOf(`credit:${c.transaction.id}`), [{ type: 'WIN', amount: '6.00' }], 'one credit');
    await ledgerSound(t);
  });

  t.test('killed after a cancel commits: the cancel retransmitted answers the first, one refund', async (t) => {
    const s = await session('40.00');
    const d = debit(s, 7.5);
    t.equal((await evoCall('/debit', d)).status, 'OK');
    const cancel = { ...d, uuid: randomUUID() };
    await crashAt(t, 'wallet.provider.rollback.after-commit', '/cancel', cancel);
    t.match(await evoCall('/cancel', { ...cancel, uuid: randomUUID() }), { status: 'OK', balance: 40 });
    t.same(await ledgerOf(`cancel:${d.transaction.id}`), [{ type: 'ROLLBACK', amount: '7.50' }], 'one refund');
    t.equal(await balanceOf(s), 40);
    await ledgerSound(t);
  });
});
