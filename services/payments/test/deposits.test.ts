// Deposits: shape, the check order of docs/decisions.md, confirm/fail, exactly-once under retries and
// races, brand isolation. Real players, wallet and payments services; real Postgres and NATS.
import t from 'tap';
import { startPaymentsStack, moneyTest, operatorScope, adminScope, answerOf, ok, errorOf, key, setStatus, publishedEvents } from './support/stack.ts';

t.test('deposits', async (t) => {
  const stack = await startPaymentsStack(t, 'deposits');
  const { money } = stack;
  const brand = operatorScope('a');
  const other = operatorScope('b', 'production');
  const test = moneyTest(t, stack);

  test('create answers 201 with the deposit, pending', async (t) => {
    const player = await money.player(brand);
    const r = await money.createDeposit(brand, player, { amount: '150.5', method: 'pix', externalReference: 'order-1' });
    t.equal(r.ok && r.status, 201);
    const dep = ok(r);
    t.match(dep, {
      id: /^dep_/,
      playerId: player,
      amount: '150.50',
      currency: 'BRL',
      method: 'pix',
      externalReference: 'order-1',
      status: 'pending',
      confirmedAt: null,
      failedAt: null,
      failureReason: null,
    });
    t.same(Object.keys(dep).sort(), [
      'amount',
      'confirmedAt',
      'createdAt',
      'currency',
      'externalReference',
      'failedAt',
      'failureReason',
      'id',
      'method',
      'playerId',
      'status',
      'updatedAt',
    ]);
    t.match(dep.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    t.same(await money.playerEntries(dep.id), [], 'a pending deposit has no ledger entry');
    t.equal((await money.wallet(brand, player)).available, '0.00');
  });

  test('create checks in order: amount → player → currency → duplicate → RG → status', async (t) => {
    const player = await money.player(brand);
    const code = async (playerId: string, body: Record<string, unknown>, scope = brand) => errorOf(await money.createDeposit(scope, playerId, body))?.code;
    t.equal(await code(player, { amount: '0' }), 'VALIDATION_ERROR');
    t.equal(await code(player, { amount: '1000000.01' }), 'VALIDATION_ERROR');
    t.match(
      errorOf(await money.createDeposit(brand, 'plr_unknown', { amount: '0.00' })),
      { code: 'VALIDATION_ERROR', details: { in: 'body', issues: [{ path: '/amount' }] } },
      'validation before existence',
    );
    t.equal(await code('plr_unknown', { amount: '10.00' }), 'PLAYER_NOT_FOUND');
    t.equal(await code(player, { amount: '10.00' }, other), 'PLAYER_NOT_FOUND', "another brand's player does not exist");
    t.equal(ok(await money.createDeposit(brand, player, { amount: '1000000.00', externalReference: key() })).amount, '1000000.00', 'the maximum is allowed');

    const first = ok(await money.createDeposit(brand, player, { amount: '10.00', externalReference: 'dup-ref' }));
    t.same(errorOf(await money.createDeposit(brand, player, { amount: '10.00', externalReference: 'dup-ref' })), {
      code: 'DEPOSIT_ALREADY_EXISTS',
      message: 'A deposit with this externalReference already exists.',
      details: { depositId: first.id },
    });
    t.equal(await code(player, { amount: '10.00', externalReference: 'dup-ref', currency: 'USD' }), 'CURRENCY_MISMATCH', 'currency before duplicate');
    t.equal(
      ok(await money.createDeposit(other, await money.player(other), { amount: '10.00', externalReference: 'dup-ref' })).status,
      'pending',
      'the reference is unique per brand, not across brands',
    );

    // Our team's self-exclusion date (autoexcluido only through a self-exclusion, issue #56), then a
    // sanctions freeze: bloqueado, and still self-excluded.
    const excluded = await money.player(brand, { selfExcludedUntil: new Date(Date.now() + 86_400_000).toISOString() });
    ok(await stack.call('players.sanctions.freeze', { scope: adminScope, body: { playerId: excluded } }));
    t.equal(await code(excluded, { amount: '10.00' }), 'RG_BLOCKED', 'RG before player status');
    const cleared = await stack.call('players.admin.limits', {
      scope: adminScope,
      params: { id: excluded },
      body: { dailyDepositLimit: null, selfExcludedUntil: null },
    });
    t.equal(errorOf(cleared)?.code, 'STANDING_HAS_OWN_FLOW', 'the limits form never ends a self-exclusion');
    t.equal(await code(excluded, { amount: '10.00' }), 'RG_BLOCKED', 'still self-excluded');
    const blocked = await money.player(brand, { status: 'bloqueado' });
    t.equal(await code(blocked, { amount: '10.00' }), 'PLAYER_NOT_ACTIVE');
    t.equal(await code(blocked, { amount: '10.00', currency: 'EUR' }), 'CURRENCY_MISMATCH');
    const closed = await money.player(brand, { status: 'encerrado' });
    t.equal(await code(closed, { amount: '10.00' }), 'PLAYER_NOT_ACTIVE');
    const suspended = await money.player(brand, { status: 'suspenso' });
    t.equal(ok(await money.createDeposit(brand, suspended, { amount: '10.00' })).status, 'pending', 'only bloqueado and encerrado refuse deposits');
  });

  test("the daily limit counts today's pending and confirmed deposits, not failed ones", async (t) => {
    const player = await money.player(brand, { dailyDepositLimit: '100.00' });
    const a = ok(await money.createDeposit(brand, player, { amount: '40.00' }));
    ok(await money.confirm(brand, a.id));
    const b = ok(await money.createDeposit(brand, player, { amount: '40.00' }));
    t.match(errorOf(await money.createDeposit(brand, player, { amount: '20.01' })), { code: 'RG_BLOCKED' });
    ok(await money.fail(brand, b.id));
    ok(await money.createDeposit(brand, player, { amount: '60.00' }));
    t.match(errorOf(await money.createDeposit(brand, player, { amount: '0.01' })), { code: 'RG_BLOCKED' });
  });

  test('concurrent deposits cannot pass the daily limit together', async (t) => {
    const player = await money.player(brand, { dailyDepositLimit: '100.00' });
    const replies = await Promise.all(Array.from({ length: 10 }, () => money.createDeposit(brand, player, { amount: '30.00' })));
    t.equal(replies.filter((r) => r.ok).length, 3);
    t.ok(replies.filter((r) => !r.ok).every((r) => errorOf(r)?.code === 'RG_BLOCKED'));
  });

  test('confirm credits the wallet once and emits deposit.confirmed', async (t) => {
    const player = await money.player(brand);
    const dep = ok(await money.createDeposit(brand, player, { amount: '75.25' }));
    const r = await money.confirm(brand, dep.id);
    t.equal(r.ok && r.status, 200);
    const confirmed = ok(r);
    t.match(confirmed, { id: dep.id, status: 'confirmed', amount: '75.25', createdAt: dep.createdAt, failedAt: null });
    t.equal(confirmed.confirmedAt, confirmed.updatedAt);
    t.same(await money.playerEntries(dep.id), [{ type: 'DEPOSIT', amount: '75.25' }]);
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '75.25', withdrawable: '75.25' });
    t.equal(errorOf(await money.confirm(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING', 'a new key cannot confirm again');
    t.equal(errorOf(await money.fail(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING');
    const events = (await publishedEvents(stack)).filter((e) => e.type === 'deposit.confirmed' && (e.data as { id: string }).id === dep.id);
    t.equal(events.length, 1);
    t.same(events[0]!.data, confirmed, 'the event carries the deposit');
    t.equal(events[0]!.environment, 'sandbox');
  });

  test('fail marks a pending deposit failed, with no entry', async (t) => {
    const player = await money.player(brand);
    const dep = ok(await money.createDeposit(brand, player, { amount: '5.00' }));
    const failed = ok(await money.fail(brand, dep.id, { reason: 'card declined' }));
    t.match(failed, { status: 'failed', failureReason: 'card declined', confirmedAt: null });
    t.equal(failed.failedAt, failed.updatedAt);
    t.equal(errorOf(await money.confirm(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING');
    t.equal(errorOf(await money.fail(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING');
    const noReason = ok(await money.fail(brand, ok(await money.createDeposit(brand, player, { amount: '5.00' })).id));
    t.equal(noReason.failureReason, null);
    t.same(await money.playerEntries(dep.id), []);
    t.equal(errorOf(await money.fail(brand, dep.id, { reason: 'x'.repeat(501) }))?.code, 'VALIDATION_ERROR');
  });

  test("confirm and fail of another brand's or an unknown deposit are 404", async (t) => {
    const player = await money.player(brand);
    const dep = ok(await money.createDeposit(brand, player, { amount: '5.00' }));
    t.equal(errorOf(await money.confirm(other, dep.id))?.code, 'DEPOSIT_NOT_FOUND');
    t.equal(errorOf(await money.fail(other, dep.id))?.code, 'DEPOSIT_NOT_FOUND');
    t.equal(errorOf(await money.confirm(brand, 'dep_nope'))?.code, 'DEPOSIT_NOT_FOUND');
    t.equal(await money.depositStatus(dep.id), 'pending');
  });

  test('concurrent confirm and fail of one deposit end in exactly one of the two', async (t) => {
    for (let i = 0; i < 10; i++) {
      const player = await money.player(brand);
      const dep = ok(await money.createDeposit(brand, player, { amount: '20.00' }));
      const [c, f] = await Promise.all([money.confirm(brand, dep.id), money.fail(brand, dep.id)]);
      t.equal([c, f].filter((r) => r.ok).length, 1, 'one wins');
      t.equal(errorOf(c.ok ? f : c)?.code, 'DEPOSIT_NOT_PENDING', 'the other is refused');
      const entries = await money.playerEntries(dep.id);
      if (c.ok) {
        t.equal(await money.depositStatus(dep.id), 'confirmed');
        t.equal(entries.length, 1);
      } else {
        t.equal(await money.depositStatus(dep.id), 'failed');
        t.equal(entries.length, 0);
      }
    }
  });

  test('a retry with the same key after a gateway timeout has one effect and the original answer', async (t) => {
    const player = await money.player(brand);
    const createKey = key('create');
    const body = { amount: '33.00', externalReference: key('ref') };
    const created = await Promise.all([1, 2, 3].map(() => money.createDeposit(brand, player, body, createKey)));
    const again = await money.createDeposit(brand, player, body, createKey);
    for (const r of [...created, again]) t.same(answerOf(r), answerOf(created[0]!), 'same status and body');
    t.equal(again.replayed, true, 'a later copy is answered as a replay');
    t.equal(Number((await stack.sql.query('select count(*) from payments.deposits where player_id = $1', [player])).rows[0].count), 1);

    const depositId = ok(created[0]!).id;
    const confirmKey = key('confirm');
    const confirms = await Promise.all([1, 2, 3, 4, 5].map(() => money.confirm(brand, depositId, confirmKey)));
    for (const r of confirms) t.same(answerOf(r), answerOf(confirms[0]!));
    const laterConfirm = await money.confirm(brand, depositId, confirmKey);
    t.same(answerOf(laterConfirm), answerOf(confirms[0]!), 'a later replay answers the stored result');
    t.equal(laterConfirm.replayed, true);
    t.equal(ok(confirms[0]!).status, 'confirmed');
    t.same(await money.playerEntries(depositId), [{ type: 'DEPOSIT', amount: '33.00' }]);
    // More rounds of racing retries: a late one must still get the stored answer, never a 409.
    for (let i = 0; i < 5; i++) {
      const d = ok(await money.createDeposit(brand, player, { amount: '1.00' }));
      const k2 = key('confirm');
      const replies = await Promise.all(Array.from({ length: 8 }, () => money.confirm(brand, d.id, k2)));
      t.ok(
        replies.every((r) => JSON.stringify(answerOf(r)) === JSON.stringify(answerOf(replies[0]!))) && replies[0]!.ok,
        'all racing retries get the one result',
      );
      t.equal((await money.playerEntries(d.id)).length, 1);
    }

    // A replay answers what the first request did, even if the player's state changed since.
    await setStatus(stack.call, player, 'bloqueado');
    t.same(answerOf(await money.createDeposit(brand, player, body, createKey)), answerOf(created[0]!));

    const failKey = key('fail');
    const pending = ok(await money.createDeposit(brand, await money.player(brand), { amount: '1.00' }));
    const fails = await Promise.all([1, 2, 3].map(() => money.fail(brand, pending.id, { reason: 'x' }, failKey)));
    for (const r of fails) t.same(answerOf(r), answerOf(fails[0]!));
    t.equal(ok(fails[0]!).status, 'failed');
  });

  test('the same key finishes a confirm whose intent was recorded; another key gets 409', async (t) => {
    const player = await money.player(brand);
    const dep = ok(await money.createDeposit(brand, player, { amount: '12.00' }));
    const k = key('confirm');
    // The state step 1 leaves behind when the process dies right after it (see crash.test.ts for the real thing).
    await stack.sql.query(`update payments.deposits set status = 'confirming', confirm_scope = $2, confirm_key = $3 where id = $1`, [
      dep.id,
      `${brand.operatorId}:${brand.environment}`,
      k,
    ]);
    t.equal(errorOf(await money.confirm(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING', 'another key: the decision is taken');
    t.equal(errorOf(await money.fail(brand, dep.id))?.code, 'DEPOSIT_NOT_PENDING', 'fail cannot undo a confirm under way');
    const finished = ok(await money.confirm(brand, dep.id, k));
    t.equal(finished.status, 'confirmed');
    t.same(await money.playerEntries(dep.id), [{ type: 'DEPOSIT', amount: '12.00' }]);
  });
});
