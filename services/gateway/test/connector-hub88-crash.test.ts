// Hub88's calls when the wallet dies between the money statement and the answer (issue #58,
// docs/connectors-hub88.md, "When we do not answer"): the wallet runs as a real child process and is
// killed at the provider calls' crash points while Hub88's call goes through the real gateway. Hub88
// hears no answer (RS_ERROR_UNKNOWN once the gateway's deadline passes) and does what its document
// says: a bet is rolled back, a win or a rollback is sent again. Each moves money once: the
// rollback refunds the committed bet once, a retried win or rollback answers the first answer.
// Killed before the bet's statement, nothing survives: the rollback moves nothing and the bet
// arriving late is refused. Every test ends with verifyLedger.
import t from 'tap';
import type { Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { hub88AmountToMoney, signHub88, type Hub88Answer } from '@bo/contracts';
import { startHub88Standin } from '@bo/test-support';
import { startConnectorCrashHarness } from './support/connector-crash.ts';

const units = (money: string) => Math.round(Number(money) * 100) * 1000;

t.test('Hub88 calls survive a wallet killed between its money statement and its answer, exactly once', async (t) => {
  const setup = { label: 'hub88crash', operatorName: 'Crash Casino', providerName: 'Hub88 crash', kind: 'casino', protocol: 'hub88' } as const;
  const { admin, provider, connector: P, base, enable, fundedPlayer, ledgerOf, killWalletAt, ledgerSound } = await startConnectorCrashHarness(t, setup);
  const hub88 = await startHub88Standin(t, [{ game_code: 'crash_slot', name: 'Crash Slot', category: 'slots', enabled: true }]);
  await admin('PUT', P, { settings: { operatorId: 7, apiBaseUrl: hub88.url } });
  await admin('POST', `${P}/their-keys`, { publicKey: hub88.keys.publicKeyPem });
  hub88.trust((await admin('POST', `${P}/our-keys`, {})).publicKey);
  await admin('POST', `${P}/sync-games`);
  await enable();
  const game = (await admin('GET', `/admin/providers/${provider.id}/games`)).data[0];

  const hub88Call = async (path: string, body: unknown, at = base): Promise<Hub88Answer> => {
    const text = JSON.stringify(body);
    const res = await fetch(`${at}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub88-signature': signHub88(text, hub88.keys.privateKey) },
      body: text,
    });
    return (await res.json()) as Hub88Answer;
  };
  const session = async (funds: string) => {
    const player = await fundedPlayer(funds, game.id);
    return { player, token: String(hub88.gameUrlRequests.at(-1)!.body.token) };
  };
  const bet = (s: { player: string; token: string }, amount: string) => ({
    user: s.player,
    transaction_uuid: randomUUID(),
    token: s.token,
    round: randomUUID(),
    round_closed: false,
    request_uuid: randomUUID(),
    is_free: false,
    game_code: 'crash_slot',
    currency: 'BRL',
    amount: units(amount),
  });
  const rollbackOf = (s: { player: string }, b: { transaction_uuid: string; round: string }) => ({
    user: s.player,
    transaction_uuid: randomUUID(),
    round: b.round,
    request_uuid: randomUUID(),
    reference_transaction_uuid: b.transaction_uuid,
  });
  const balanceOf = async (s: { player: string; token: string }) =>
    hub88AmountToMoney((await hub88Call('/user/balance', { user: s.player, token: s.token, request_uuid: randomUUID() })).balance);
  const crashAt = (t: Test, point: string, path: string, body: unknown) =>
    killWalletAt(t, point, async (crashBase) => {
      t.equal((await hub88Call(path, body, crashBase)).status, 'RS_ERROR_UNKNOWN', 'Hub88 hears no answer');
    });

  t.test('killed after a bet commits: Hub88 rolls it back, the stake comes back once', async (t) => {
    const s = await session('100.00');
    const b = bet(s, '10.00');
    await crashAt(t, 'wallet.provider.bet.after-commit', '/transaction/bet', b);
    t.same(await ledgerOf(b.transaction_uuid), [{ type: 'BET', amount: '-10.00' }], 'the bet was committed before the crash');
    const rb = rollbackOf(s, b);
    const refund = await hub88Call('/transaction/rollback', rb);
    t.match(refund, { status: 'RS_OK', request_uuid: rb.request_uuid, balance: units('100.00') }, "Hub88's rollback refunds it");
    t.match(
      await hub88Call('/transaction/rollback', { ...rb, request_uuid: randomUUID() }),
      { status: 'RS_OK', balance: units('100.00') },
      'sent again: the first answer',
    );
    t.same(await ledgerOf(rb.transaction_uuid), [{ type: 'ROLLBACK', amount: '10.00' }], 'one refund');
    t.equal(await balanceOf(s), '100.00');
    await ledgerSound(t);
  });

  t.test('killed after a bet commits: the same bet sent again answers the committed one, one debit', async (t) => {
    const s = await session('50.00');
    const b = bet(s, '5.00');
    await crashAt(t, 'wallet.provider.bet.after-commit', '/transaction/bet', b);
    t.match(await hub88Call('/transaction/bet', { ...b, request_uuid: randomUUID() }), { status: 'RS_OK', balance: units('45.00') });
    t.same(await ledgerOf(b.transaction_uuid), [{ type: 'BET', amount: '-5.00' }], 'one debit');
    await ledgerSound(t);
  });

  t.test('killed before the bet statement: the rollback moves nothing, the late bet is refused', async (t) => {
    const s = await session('30.00');
    const b = bet(s, '3.00');
    await crashAt(t, 'wallet.provider.bet.before-post', '/transaction/bet', b);
    t.same(await ledgerOf(b.transaction_uuid), [], 'nothing recorded');
    t.match(await hub88Call('/transaction/rollback', rollbackOf(s, b)), { status: 'RS_OK', balance: units('30.00') }, 'a rollback of nothing: RS_OK');
    t.equal((await hub88Call('/transaction/bet', { ...b, request_uuid: randomUUID() })).status, 'RS_ERROR_DUPLICATE_TRANSACTION', 'the bet arriving late');
    t.equal(await balanceOf(s), '30.00');
    await ledgerSound(t);
  });

  t.test('killed after a win commits: the win sent again answers the first, one credit', async (t) => {
    const s = await session('20.00');
    const b = bet(s, '2.00');
    t.equal((await hub88Call('/transaction/bet', b)).status, 'RS_OK');
    const w = { ...bet(s, '6.00'), reference_transaction_uuid: b.transaction_uuid, round: b.round, round_closed: true };
    await crashAt(t, 'wallet.provider.win.after-commit', '/transaction/win', w);
    t.match(await hub88Call('/transaction/win', { ...w, request_uuid: randomUUID() }), { status: 'RS_OK', balance: units('24.00') });
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'WIN', amount: '6.00' }], 'one credit');
    await ledgerSound(t);
  });

  t.test('killed after a rollback commits: the rollback sent again answers the first, one refund', async (t) => {
    const s = await session('40.00');
    const b = bet(s, '7.50');
    t.equal((await hub88Call('/transaction/bet', b)).status, 'RS_OK');
    const rb = rollbackOf(s, b);
    await crashAt(t, 'wallet.provider.rollback.after-commit', '/transaction/rollback', rb);
    t.match(await hub88Call('/transaction/rollback', { ...rb, request_uuid: randomUUID() }), { status: 'RS_OK', balance: units('40.00') });
    t.same(await ledgerOf(rb.transaction_uuid), [{ type: 'ROLLBACK', amount: '7.50' }], 'one refund');
    t.equal(await balanceOf(s), '40.00');
    await ledgerSound(t);
  });
});
