// The ledger module against real Postgres and NATS, with the real players service answering
// players.state. Every money test ends with verifyLedger (issue #4, invariant 1).
import t from 'tap';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { WALLET_SUBJECTS, type LedgerItem, type Wallet, type WalletMoveResult } from '@bo/contracts';
import { startStack, moneyTest, operatorScope, internalScope, createPlayer, ok, errorOf, playersService } from '@bo/test-support';
import { walletService } from '../src/service.ts';

const id = (p: string) => `${p}_${randomBytes(8).toString('hex')}`;

t.test('wallet ledger', async (t) => {
  const stack = await startStack(t, 'ledger', [playersService, walletService]);
  const { call } = stack;
  const brand = operatorScope('a');
  const otherBrand = operatorScope('b');
  const internal = internalScope();
  const sql = new pg.Client({ connectionString: stack.databaseUrl });
  await sql.connect();
  t.teardown(() => sql.end());

  const credit = (playerId: string, amount: string, depositId = id('dep'), brandId = brand.brandId) =>
    call<WalletMoveResult>(WALLET_SUBJECTS.credit, { scope: internal, body: { brandId, playerId, currency: 'BRL', amount, depositId } });
  const hold = (playerId: string, amount: string, withdrawalId = id('wd')) =>
    call<WalletMoveResult>(WALLET_SUBJECTS.hold, { scope: internal, body: { brandId: brand.brandId, playerId, currency: 'BRL', amount, withdrawalId } });
  const release = (withdrawalId: string) =>
    call<WalletMoveResult>(WALLET_SUBJECTS.release, { scope: internal, body: { brandId: brand.brandId, withdrawalId } });
  const capture = (withdrawalId: string) =>
    call<WalletMoveResult>(WALLET_SUBJECTS.capture, { scope: internal, body: { brandId: brand.brandId, withdrawalId } });
  const wallet = async (playerId: string, scope = brand) => ok<Wallet>(await call('wallet.get', { scope, params: { playerId } }));
  const entries = async (playerId: string, query: Record<string, unknown> = {}) =>
    ok<{ data: LedgerItem[]; nextCursor: string | null }>(await call('wallet.transactions', { scope: brand, params: { playerId }, query }));
  const entryCount = async (referenceId: string) =>
    Number((await sql.query('select count(*) from wallet.ledger_entries where reference_id = $1', [referenceId])).rows[0].count);

  const test = moneyTest(t, stack);

  test('a new player has a "0.00" wallet; unknown players and other brands are 404', async (t) => {
    const player = await createPlayer(call, brand);
    t.same(await wallet(player), { playerId: player, currency: 'BRL', available: '0.00', withdrawable: '0.00' });
    t.same(await entries(player), { data: [], nextCursor: null });
    t.equal(errorOf(await call('wallet.get', { scope: brand, params: { playerId: 'plr_nope' } }))?.code, 'PLAYER_NOT_FOUND');
    t.equal(errorOf(await call('wallet.get', { scope: otherBrand, params: { playerId: player } }))?.code, 'PLAYER_NOT_FOUND');
    t.equal(errorOf(await call('wallet.transactions', { scope: otherBrand, params: { playerId: player } }))?.code, 'PLAYER_NOT_FOUND');
  });

  test('credit is double-entry and idempotent by deposit id', async (t) => {
    const player = await createPlayer(call, brand);
    const depositId = id('dep');
    const first = ok(await credit(player, '100.50', depositId));
    t.match(first, { entryId: /^le_/, available: '100.50', held: '0.00' });
    const again = ok(await credit(player, '100.50', depositId));
    t.equal(again.entryId, first.entryId, 'a repeat returns the entry already written');
    t.equal(await entryCount(depositId), 2, 'one transaction: the player posting and the clearing posting');
    const postings = (await sql.query('select account_id, amount from wallet.ledger_entries where reference_id = $1 order by amount', [depositId])).rows;
    t.same(
      postings.map((r) => r.amount),
      ['-100.50', '100.50'],
    );
    t.match(postings[0].account_id, /deposit_clearing/);
    t.same(await wallet(player), { playerId: player, currency: 'BRL', available: '100.50', withdrawable: '100.50' });
    const list = await entries(player);
    t.same(
      list.data.map((e) => ({ ...e, createdAt: 'x' })),
      [{ id: first.entryId, type: 'DEPOSIT', amount: '100.50', balanceAfter: '100.50', currency: 'BRL', referenceId: depositId, createdAt: 'x' }],
    );
    t.match(list.data[0]!.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test('hold, release and capture are idempotent by withdrawal id', async (t) => {
    const player = await createPlayer(call, brand);
    ok(await credit(player, '100.00'));
    const w1 = id('wd');
    t.match(ok(await hold(player, '30.00', w1)), { holdStatus: 'open', available: '100.00', held: '30.00' });
    t.match(ok(await hold(player, '30.00', w1)), { holdStatus: 'open', held: '30.00' }, 'a repeated hold does not reserve twice');
    t.same(await wallet(player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '70.00' });

    const tooMuch = id('wd');
    const declined = await hold(player, '70.01', tooMuch);
    t.equal(errorOf(declined)?.code, 'INSUFFICIENT_FUNDS');
    ok(await credit(player, '50.00'));
    t.equal(errorOf(await hold(player, '70.01', tooMuch))?.code, 'INSUFFICIENT_FUNDS', 'a declined hold stays declined on repeat');

    t.match(ok(await release(w1)), { holdStatus: 'released', held: '0.00' });
    t.match(ok(await release(w1)), { holdStatus: 'released', held: '0.00' }, 'a repeated release changes nothing');
    t.equal(errorOf(await capture(w1))?.code, 'WITHDRAWAL_INVALID_TRANSITION', 'a released hold cannot be captured');

    const w2 = id('wd');
    ok(await hold(player, '40.00', w2));
    const paid = ok(await capture(w2));
    t.match(paid, { entryId: /^le_/, holdStatus: 'captured', available: '110.00', held: '0.00' });
    t.equal(ok(await capture(w2)).entryId, paid.entryId, 'a repeated capture returns the same entry');
    t.equal(await entryCount(w2), 2);
    t.equal(errorOf(await release(w2))?.code, 'WITHDRAWAL_INVALID_TRANSITION', 'a captured hold cannot be released');
    const [latest] = (await entries(player)).data;
    t.match(latest, { id: paid.entryId, type: 'WITHDRAWAL', amount: '-40.00', balanceAfter: '110.00', referenceId: w2 });
    t.equal(errorOf(await release(id('wd')))?.code, 'WITHDRAWAL_NOT_FOUND');
  });

  test('20 concurrent holds never reserve more than the balance', async (t) => {
    const player = await createPlayer(call, brand);
    ok(await credit(player, '100.00'));
    const replies = await Promise.all(Array.from({ length: 20 }, () => hold(player, '15.00')));
    const accepted = replies.filter((r) => r.ok).length;
    t.equal(accepted, 6, 'floor(100 / 15) holds fit');
    t.ok(replies.filter((r) => !r.ok).every((r) => errorOf(r)?.code === 'INSUFFICIENT_FUNDS'));
    t.same(await wallet(player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '10.00' });
  });

  test('concurrent credits of one deposit post it once', async (t) => {
    const player = await createPlayer(call, brand);
    const depositId = id('dep');
    const replies = await Promise.all(Array.from({ length: 10 }, () => credit(player, '12.34', depositId)));
    t.equal(new Set(replies.map((r) => ok(r).entryId)).size, 1);
    t.equal(await entryCount(depositId), 2);
    t.equal((await wallet(player)).available, '12.34');
  });

  test('pages of the ledger: newest first, tamper-evident cursor bound to the player', async (t) => {
    const player = await createPlayer(call, brand);
    const other = await createPlayer(call, brand);
    ok(await credit(other, '1.00'));
    const refs: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const d = id('dep');
      refs.push(d);
      ok(await credit(player, `${i}.00`, d));
    }
    const page1 = await entries(player, { limit: 2 });
    t.same(
      page1.data.map((e) => e.referenceId),
      [refs[4], refs[3]],
    );
    t.type(page1.nextCursor, 'string');
    const page2 = await entries(player, { limit: '2', cursor: page1.nextCursor });
    t.same(
      page2.data.map((e) => e.referenceId),
      [refs[2], refs[1]],
    );
    const page3 = await entries(player, { limit: 2, cursor: page2.nextCursor });
    t.same(
      page3.data.map((e) => e.referenceId),
      [refs[0]],
    );
    t.equal(page3.nextCursor, null);
    t.same(
      page1.data.map((e) => e.balanceAfter),
      ['15.00', '10.00'],
    );
    t.equal((await entries(player)).data.length, 5, 'default limit covers the rest');

    const cursor = page1.nextCursor!;
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2999-01-01T00:00:00.000Z', 'le_z'])).toString('base64url');
    const bad = ['garbage', `${payload}.${mac!.slice(0, -2)}xx`, `${forged}.${mac}`, `${cursor}.x`, '.'];
    for (const c of bad) {
      const r = await call('wallet.transactions', { scope: brand, params: { playerId: player }, query: { cursor: c } });
      t.same(
        errorOf(r),
        {
          code: 'VALIDATION_ERROR',
          message: 'The cursor is not valid.',
          details: { in: 'query', issues: [{ path: '/cursor', message: errorOf(r) && (errorOf(r)!.details as any).issues[0].message }] },
        },
        `cursor ${c.slice(0, 20)} refused`,
      );
    }
    const stolen = await call('wallet.transactions', { scope: brand, params: { playerId: other }, query: { cursor } });
    t.equal(errorOf(stolen)?.code, 'VALIDATION_ERROR', "another player's cursor is refused");
    t.match(errorOf(stolen)?.details, { in: 'query', issues: [{ path: '/cursor' }] });
    for (const limit of [0, 201, 'x']) {
      t.match(errorOf(await call('wallet.transactions', { scope: brand, params: { playerId: player }, query: { limit } })), {
        code: 'VALIDATION_ERROR',
        details: { in: 'query', issues: [{ path: '/limit' }] },
      });
    }
  });

  test('the ledger is append-only and player balances cannot go below zero', async (t) => {
    const player = await createPlayer(call, brand);
    const depositId = id('dep');
    ok(await credit(player, '10.00', depositId));
    await t.rejects(sql.query(`update wallet.ledger_entries set amount = 1000 where reference_id = $1`, [depositId]), /append-only/);
    await t.rejects(sql.query(`delete from wallet.ledger_entries where reference_id = $1`, [depositId]), /append-only/);
    await t.rejects(sql.query('truncate wallet.ledger_entries cascade'), /append-only/);
    await t.rejects(sql.query(`update wallet.ledger_transactions set reference_id = 'x' where reference_id = $1`, [depositId]), /append-only/);
    await t.rejects(sql.query(`delete from wallet.ledger_transactions where reference_id = $1`, [depositId]), /append-only/);
    t.equal(await entryCount(depositId), 2, 'nothing changed');
    await t.rejects(sql.query(`update wallet.accounts set available = -1 where player_id = $1`, [player]), /accounts_player_balances/);
    await t.rejects(sql.query(`update wallet.accounts set held = 11 where player_id = $1`, [player]), /accounts_player_balances/);
    // A transaction whose postings do not sum to zero cannot commit.
    const account = (await sql.query(`select id from wallet.accounts where player_id = $1`, [player])).rows[0].id;
    await sql.query('begin');
    await sql.query(
      `insert into wallet.ledger_transactions (id, source, type, brand_id, currency, reference_id, created_at) values ('ltx_bad', 'bad:1', 'DEPOSIT', $1, 'BRL', 'bad', now())`,
      [brand.brandId],
    );
    await sql.query(
      `insert into wallet.ledger_entries (id, transaction_id, account_id, account_seq, type, amount, balance_after, currency, reference_id, created_at) values ('le_bad', 'ltx_bad', $1, 99, 'DEPOSIT', 5, 15, 'BRL', 'bad', now())`,
      [account],
    );
    await t.rejects(sql.query('commit'), /does not balance/);
    t.equal(await entryCount('bad'), 0);
  });

  test('verifyLedger notices a stored balance that disagrees with the entries', async (t) => {
    const player = await createPlayer(call, brand);
    ok(await credit(player, '10.00'));
    await sql.query(`update wallet.accounts set available = 11 where player_id = $1`, [player]);
    const v = await stack.verifyLedger();
    t.equal(v.ok, false);
    t.match(v.mismatches, [{ check: 'available', stored: '11.00', computed: '10.00' }]);
    t.equal(v.sumOfAllBalances, '1.00');
    await sql.query(`update wallet.accounts set available = 10 where player_id = $1`, [player]);
  });

  test('money commands are internal and verification is admin only', async (t) => {
    const player = await createPlayer(call, brand);
    const r = await call(WALLET_SUBJECTS.credit, {
      scope: brand,
      body: { brandId: brand.brandId, playerId: player, currency: 'BRL', amount: '5.00', depositId: id('dep') },
    });
    t.equal(errorOf(r)?.code, 'UNAUTHORIZED');
    t.equal(errorOf(await call('wallet.admin.verifyLedger', { scope: brand }))?.code, 'UNAUTHORIZED');
    for (const amount of ['0', '0.00', '1000000.01', '1.234', '-1', 5]) {
      t.equal(errorOf(await credit(player, amount as string))?.code, 'VALIDATION_ERROR', `amount ${amount} refused`);
    }
    t.equal((await wallet(player)).available, '0.00');
  });
});
