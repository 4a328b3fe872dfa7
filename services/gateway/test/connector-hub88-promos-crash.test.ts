// Issue #66: a free bet's win and a supplier promotion's win of a player who never deposited (no
// wallet account until the credit opens it), with the wallet killed between the money statement and
// its answer (docs/connectors-hub88.md, "When we do not answer"). The wallet runs as a real child
// process; Hub88 hears no answer and sends the win again, twenty copies at once: each is answered as
// the first, and the player is credited once. Every test ends with verifyLedger.
import t from 'tap';
import type { Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { hub88AmountToMoney, signHub88, type Hub88Answer } from '@bo/contracts';
import { startHub88Standin } from '@bo/test-support';
import { startConnectorCrashHarness } from './support/connector-crash.ts';

const units = (money: string) => Math.round(Number(money) * 100) * 1000;

t.test("Hub88 free bets' and supplier promotions' wins of a player who never deposited survive a wallet killed before its answer", async (t) => {
  const setup = { label: 'hub88promo', operatorName: 'Promo Casino', providerName: 'Hub88 promos crash', kind: 'casino', protocol: 'hub88' } as const;
  const { admin, provider, connector: P, base, enable, fundedPlayer, ledgerOf, killWalletAt, ledgerSound } = await startConnectorCrashHarness(t, setup);
  const hub88 = await startHub88Standin(t, [{ game_code: 'promo_slot', name: 'Promo Slot', category: 'slots', enabled: true }]);
  await admin('PUT', P, { settings: { operatorId: 9, apiBaseUrl: hub88.url } });
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
  /** A player who never deposited, with a Hub88 session. */
  const newcomer = async () => {
    const player = await fundedPlayer('0.00', game.id);
    return { player, token: String(hub88.gameUrlRequests.at(-1)!.body.token) };
  };
  const bet = (s: { player: string; token: string }, amount: string, over: Record<string, unknown> = {}) => ({
    user: s.player,
    transaction_uuid: randomUUID(),
    token: s.token,
    round: randomUUID(),
    round_closed: false,
    request_uuid: randomUUID(),
    game_code: 'promo_slot',
    currency: 'BRL',
    amount: units(amount),
    ...over,
  });
  const balanceOf = async (s: { player: string; token: string }) =>
    hub88AmountToMoney((await hub88Call('/user/balance', { user: s.player, token: s.token, request_uuid: randomUUID() })).balance);
  /** The win sent again by Hub88, twenty copies at once: the set of their (status, balance). */
  const twentyAgain = async (w: Record<string, unknown>) =>
    new Set(
      (await Promise.all(Array.from({ length: 20 }, () => hub88Call('/transaction/win', { ...w, request_uuid: randomUUID() })))).map(
        (a) => `${a.status} ${a.balance}`,
      ),
    );
  const crashAt = (t: Test, point: string, body: unknown) =>
    killWalletAt(t, point, async (crashBase) => {
      t.equal((await hub88Call('/transaction/win', body, crashBase)).status, 'RS_ERROR_UNKNOWN', 'Hub88 hears no answer');
    });

  t.test("killed after a free bet's win commits: sent again 20 times at once, each the first answer, one credit", async (t) => {
    const s = await newcomer();
    const free = bet(s, '1.00', { is_free: true });
    t.match(await hub88Call('/transaction/bet', free), { status: 'RS_OK', balance: 0 }, 'the free bet: nothing taken');
    const w = { ...bet(s, '2.50'), reference_transaction_uuid: free.transaction_uuid, round: free.round, round_closed: true };
    await crashAt(t, 'wallet.provider.win.after-commit', w);
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'FREE_BET_WIN', amount: '2.50' }], 'the win was committed before the crash');
    t.same(await twentyAgain(w), new Set([`RS_OK ${units('2.50')}`]), "Hub88's retries: each answered as the first");
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'FREE_BET_WIN', amount: '2.50' }], 'one credit');
    t.equal(await balanceOf(s), '2.50');
    await ledgerSound(t);
  });

  t.test("killed after a supplier promotion's win commits: sent again 20 times at once, each the first answer, one credit", async (t) => {
    const s = await newcomer();
    const zero = bet(s, '0.00', { is_supplier_promo: true });
    t.match(await hub88Call('/transaction/bet', zero), { status: 'RS_OK', balance: 0 }, 'the zero bet: nothing moves');
    const w = { ...bet(s, '5.00', { is_supplier_promo: true }), reference_transaction_uuid: zero.transaction_uuid, round: zero.round, round_closed: true };
    await crashAt(t, 'wallet.provider.promoCredit.after-commit', w);
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'PROMO_CREDIT', amount: '5.00' }], 'the win was committed before the crash');
    t.same(await twentyAgain(w), new Set([`RS_OK ${units('5.00')}`]), "Hub88's retries: each answered as the first");
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'PROMO_CREDIT', amount: '5.00' }], 'one credit');
    t.equal(await balanceOf(s), '5.00');
    await ledgerSound(t);
  });

  t.test("killed after a supplier promotion's win whose zero bet never arrived commits: one credit", async (t) => {
    const s = await newcomer();
    const w = { ...bet(s, '3.00', { is_supplier_promo: true }), reference_transaction_uuid: randomUUID(), round_closed: true };
    await crashAt(t, 'wallet.provider.promoCredit.after-commit', w);
    t.same(await twentyAgain(w), new Set([`RS_OK ${units('3.00')}`]), "Hub88's retries: each answered as the first");
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'PROMO_CREDIT', amount: '3.00' }], 'one credit');
    t.equal(await balanceOf(s), '3.00');
    await ledgerSound(t);
  });
});
