// Issue #66, Hub88 as its certification tries it (docs/connectors-hub88.md): signed calls through the
// real gateway to the real wallet, each answer's status and the money it moved (the balance, the
// ledger). A free bet's win and a supplier promotion's win are paid to a player who never deposited
// (no wallet account yet), once, twenty copies at once included; a supplier promotion's zero bet is
// taken and moves nothing, and its win is paid with or without it; the game is part of a
// transaction's identity; a bet sent again after its rollback is never answered as standing.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { hub88AmountToMoney, type OperatorScope } from '@bo/contracts';
import { startGamesStack, startHub88Standin } from '@bo/test-support';
import { gamesServices } from '@bo/wallet/testing';
import { startHarness } from './support/harness.ts';
import { hub88Units, setUpHub88Connector } from './support/hub88-connector.ts';

const uuid = () => randomUUID();
const units = hub88Units;

t.test('Hub88: free bets and supplier promotions of a player who never deposited; the game in the identity; a bet after its rollback', async (t) => {
  const h = await startHarness({ RPC_TIMEOUT_MS: '30000' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const games = await startGamesStack(t, gamesServices, { PUBLIC_BASE_URL: gw.publicUrl }, { prefix: h.prefix });
  const op = await h.createOperator({ name: `Hub88 Promos ${randomBytes(3).toString('hex')}` });
  const me = await op.productionClient.get('/me');
  const live: OperatorScope = { kind: 'operator', operatorId: op.operator.id, brandId: me.body.brand.id, environment: 'production', currency: 'BRL' };
  const hub88 = await startHub88Standin(t, [
    { game_code: 'clt_dragonrising', name: 'Dragon Rising', category: 'Video Slots', enabled: true },
    { game_code: 'clt_wildwest', name: 'Wild West', category: 'Video Slots', enabled: true },
  ]);
  const connector = await setUpHub88Connector(h, hub88, {
    operatorId: live.operatorId,
    name: `Hub88 promos ${randomBytes(3).toString('hex')}`,
    hub88OperatorId: 66,
  });
  const dragonId = connector.gameId('clt_dragonrising');
  const call = connector.call;
  /** A player with a Hub88 session; `funds` '0.00': a player who never deposited (no wallet account). */
  const session = async (t: Test, funds: string) => {
    const player = await games.createPlayer(live, { kyc: 'aprovado' });
    if (funds !== '0.00') await games.credit(live, player, funds);
    await games.openSession(t, live, player, dragonId);
    return { player, token: String(hub88.gameUrlRequests.at(-1)!.body.token) };
  };
  type S = { player: string; token: string };
  const betBody = (s: S, amount: string, over: Record<string, unknown> = {}) => ({
    user: s.player,
    transaction_uuid: uuid(),
    token: s.token,
    round: uuid(),
    round_closed: false,
    request_uuid: uuid(),
    is_free: false,
    game_code: 'clt_dragonrising',
    currency: 'BRL',
    amount: units(amount),
    ...over,
  });
  const winBody = (s: S, bet: { transaction_uuid: string; round: string }, amount: string, over: Record<string, unknown> = {}) => ({
    ...betBody(s, amount),
    reference_transaction_uuid: bet.transaction_uuid,
    round: bet.round,
    round_closed: true,
    ...over,
  });
  const rollbackBody = (s: S, bet: { transaction_uuid: string; round: string }) => ({
    user: s.player,
    transaction_uuid: uuid(),
    token: s.token,
    round: bet.round,
    round_closed: true,
    request_uuid: uuid(),
    reference_transaction_uuid: bet.transaction_uuid,
    game_code: 'clt_dragonrising',
  });
  const balanceOf = async (s: S) => hub88AmountToMoney((await call('/user/balance', { user: s.player, token: s.token, request_uuid: uuid() })).balance);
  /** The player's ledger entries of the provider transaction `transactionId`. */
  const ledgerOf = (transactionId: string) =>
    games.sql<{ type: string; amount: string }>(
      `select e.type, e.amount::text from wallet.ledger_transactions lt join wallet.ledger_entries e on e.transaction_id = lt.id
       where lt.source = ? and e.account_seq is not null`,
      [`provider:${connector.providerId}:${transactionId}`],
    );
  /** Twenty copies of a call at once: the set of their (status, balance). */
  const twenty = async (path: string, body: unknown) =>
    new Set((await Promise.all(Array.from({ length: 20 }, () => call(path, body)))).map((a) => `${a.status} ${a.balance}`));

  t.test('a free bet of a player who never deposited: nothing taken, its win paid once (20 copies at once)', async (t) => {
    const s = await session(t, '0.00');
    const free = betBody(s, '1.00', { is_free: true, reward_uuid: uuid() });
    t.match(await call('/transaction/bet', free), { status: 'RS_OK', balance: 0 }, 'the free bet: taken, nothing debited');
    const w = winBody(s, free, '2.50');
    t.same(await twenty('/transaction/win', w), new Set([`RS_OK ${units('2.50')}`]), 'its win 20 times at once: each answered as the first, 2.50');
    t.match(await call('/transaction/win', { ...w, request_uuid: uuid() }), { status: 'RS_OK', balance: units('2.50') }, 'sent again later: the first answer');
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'FREE_BET_WIN', amount: '2.50' }], 'one credit, FREE_BET_WIN');
    t.same(await ledgerOf(free.transaction_uuid), [], 'the free bet moved no money');
    t.equal(await balanceOf(s), '2.50', "the player's wallet holds the win");
  });

  t.test('a supplier promotion: its zero bet moves nothing; its win is paid once, with or without its zero bet', async (t) => {
    const s = await session(t, '0.00');
    const zero = betBody(s, '0.00', { is_supplier_promo: true });
    t.match(await call('/transaction/bet', zero), { status: 'RS_OK', balance: 0, request_uuid: zero.request_uuid }, 'the zero bet is taken');
    t.match(await call('/transaction/bet', { ...zero, request_uuid: uuid() }), { status: 'RS_OK', balance: 0 }, 'sent again: the same answer');
    const plain = betBody(s, '0.00');
    t.match(await call('/transaction/bet', plain), { status: 'RS_ERROR_WRONG_TYPES' }, 'a zero bet that is not a supplier promotion is still refused');
    const promo = winBody(s, zero, '5.00', { is_supplier_promo: true, meta: { supplier_promo_info: { promo_reference: 'Promo games reference' } } });
    t.same(await twenty('/transaction/win', promo), new Set([`RS_OK ${units('5.00')}`]), 'its win 20 times at once: each answered as the first, 5.00');
    t.same(await ledgerOf(promo.transaction_uuid), [{ type: 'PROMO_CREDIT', amount: '5.00' }], 'one credit, PROMO_CREDIT');
    t.same(await ledgerOf(zero.transaction_uuid), [], 'the zero bet moved no money');

    const lost = betBody(s, '0.00', { is_supplier_promo: true });
    const orphan = winBody(s, lost, '3.00', { is_supplier_promo: true });
    t.match(await call('/transaction/win', orphan), { status: 'RS_OK', balance: units('8.00') }, 'a promotion win whose zero bet never arrived: paid');
    t.match(await call('/transaction/win', { ...orphan, request_uuid: uuid() }), { status: 'RS_OK', balance: units('8.00') }, 'sent again: the first answer');
    const { reference_transaction_uuid: _, ...unreferenced } = winBody(s, lost, '1.25', { is_supplier_promo: true });
    t.match(await call('/transaction/win', unreferenced), { status: 'RS_OK', balance: units('9.25') }, 'a promotion win naming no bet: paid');
    const { reference_transaction_uuid: __, ...plainUnreferenced } = winBody(s, lost, '1.00');
    t.match(await call('/transaction/win', plainUnreferenced), { status: 'RS_ERROR_WRONG_SYNTAX' }, 'any other win naming no bet: refused');
    t.equal(await balanceOf(s), '9.25', 'nothing moved');
    t.same(await ledgerOf(orphan.transaction_uuid), [{ type: 'PROMO_CREDIT', amount: '3.00' }], 'one credit');
    const dup = { ...orphan, amount: units('4.00'), request_uuid: uuid() };
    t.match(await call('/transaction/win', dup), { status: 'RS_ERROR_DUPLICATE_TRANSACTION' }, 'its uuid with another amount: a duplicate');
    const foreign = { ...winBody(s, lost, '1.00', { is_supplier_promo: true }), token: 'pst_never-issued' };
    t.match(await call('/transaction/win', foreign), { status: 'RS_ERROR_INVALID_TOKEN' }, 'a promotion win with a token we never issued');
    t.equal(await balanceOf(s), '9.25', '5.00 + 3.00 + 1.25, each once');
  });

  t.test('the game is part of a transaction identity: the same uuid with another game_code is a duplicate', async (t) => {
    const s = await session(t, '100.00');
    const b = betBody(s, '10.00');
    t.match(await call('/transaction/bet', b), { status: 'RS_OK', balance: units('90.00') });
    const other = { ...b, game_code: 'clt_wildwest', request_uuid: uuid() };
    t.match(await call('/transaction/bet', other), { status: 'RS_ERROR_DUPLICATE_TRANSACTION' }, 'the bet again with another game');
    t.match(await call('/transaction/bet', { ...b, request_uuid: uuid() }), { status: 'RS_OK', balance: units('90.00') }, 'with its own game: a replay');
    const w = winBody(s, b, '4.00');
    t.match(await call('/transaction/win', w), { status: 'RS_OK', balance: units('94.00') });
    const otherWin = { ...w, game_code: 'clt_wildwest', request_uuid: uuid() };
    t.match(await call('/transaction/win', otherWin), { status: 'RS_ERROR_DUPLICATE_TRANSACTION' }, 'the win again with another game');
    t.same(await ledgerOf(b.transaction_uuid), [{ type: 'BET', amount: '-10.00' }], 'one debit');
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'WIN', amount: '4.00' }], 'one credit');
    t.equal(await balanceOf(s), '94.00');
  });

  t.test('a bet sent again after its rollback: a duplicate, never a standing bet', async (t) => {
    const s = await session(t, '100.00');
    const b = betBody(s, '3.00');
    t.match(await call('/transaction/bet', b), { status: 'RS_OK', balance: units('97.00') });
    t.match(await call('/transaction/rollback', rollbackBody(s, b)), { status: 'RS_OK', balance: units('100.00') }, 'rolled back: refunded');
    t.match(await call('/transaction/bet', { ...b, request_uuid: uuid() }), { status: 'RS_ERROR_DUPLICATE_TRANSACTION' }, 'the same bet again');
    const free = betBody(s, '1.00', { is_free: true });
    t.match(await call('/transaction/bet', free), { status: 'RS_OK', balance: units('100.00') });
    t.match(await call('/transaction/rollback', rollbackBody(s, free)), { status: 'RS_OK', balance: units('100.00') });
    t.match(
      await call('/transaction/bet', { ...free, request_uuid: uuid() }),
      { status: 'RS_ERROR_DUPLICATE_TRANSACTION' },
      'a free bet again after its rollback',
    );
    t.same(await ledgerOf(b.transaction_uuid), [{ type: 'BET', amount: '-3.00' }], 'one debit');
    t.equal(await balanceOf(s), '100.00', 'the wallet holds what Hub88 was told');
  });

  t.test('the ledger verifies', async (t) => {
    const v = await games.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
  });
});
