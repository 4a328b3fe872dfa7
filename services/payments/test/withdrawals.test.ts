// Withdrawals: check order, the review lifecycle (approve, reject, pay, cancel) with its wallet
// effects and events, concurrency, retries with the same key, brand isolation, the admin queue.
import t from 'tap';
import type { OperationReply, Withdrawal } from '@bo/contracts';
import { answerOf, outboxAudits } from '@bo/test-support';
import { startPaymentsStack, moneyTest, operatorScope, ok, errorOf, key, publishedEvents, setStatus } from './support/stack.ts';

t.test('withdrawals', async (t) => {
  const stack = await startPaymentsStack(t, 'withdrawals');
  const { money } = stack;
  const brand = operatorScope('a');
  const other = operatorScope('b');
  const test = moneyTest(t, stack);
  const statusEvents = async (withdrawalId: string) =>
    (await publishedEvents(stack))
      .filter((e) => e.type === 'withdrawal.status_changed' && (e.data as { withdrawal: Withdrawal }).withdrawal.id === withdrawalId)
      .map((e) => e.data as { withdrawal: Withdrawal; previousStatus: string | null });

  test('create reserves the amount and enters the review queue', async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    const r = await money.createWithdrawal(brand, player, '60.5');
    t.equal(r.ok && r.status, 201);
    const wd = ok(r);
    t.match(wd, { id: /^wd_/, playerId: player, amount: '60.50', currency: 'BRL', method: 'pix', destination: 'chave-pix-123', status: 'under_review' });
    t.same(Object.keys(wd).sort(), ['amount', 'createdAt', 'currency', 'destination', 'id', 'method', 'payoutDueAt', 'playerId', 'status', 'updatedAt']);
    t.equal(wd.payoutDueAt, null, 'the profile off: no payout deadline (the prize clock is br-spa)');
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '39.50' }, 'not debited, only reserved');
    t.same(ok(await money.getWithdrawal(brand, wd.id)), wd);
    t.same(await statusEvents(wd.id), [{ withdrawal: wd, previousStatus: null }]);
  });

  test('create checks in order: amount → player → currency → KYC → status → funds', async (t) => {
    const code = async (playerId: string, amount: string, extra: Record<string, unknown> = {}, scope = brand) =>
      errorOf(await money.createWithdrawal(scope, playerId, amount, key(), extra))?.code;
    const player = await money.fundedPlayer(brand, '50.00');
    t.equal(await code('plr_unknown', '0.00'), 'VALIDATION_ERROR');
    t.equal(await code(player, '1000000.01'), 'VALIDATION_ERROR');
    t.equal(await code('plr_unknown', '1.00'), 'PLAYER_NOT_FOUND');
    t.equal(await code(player, '1.00', {}, other), 'PLAYER_NOT_FOUND');
    const noKyc = await money.fundedPlayer(brand, '50.00', {});
    await setStatus(stack.call, noKyc, 'bloqueado');
    t.equal(await code(noKyc, '1.00', { currency: 'USD' }), 'CURRENCY_MISMATCH');
    t.equal(await code(noKyc, '1.00'), 'KYC_NOT_APPROVED', 'KYC before status');
    const blocked = await money.fundedPlayer(brand, '50.00', { kyc: 'aprovado' });
    await setStatus(stack.call, blocked, 'bloqueado');
    t.equal(await code(blocked, '999.00'), 'PLAYER_NOT_ACTIVE', 'status before funds');
    const closed = await money.fundedPlayer(brand, '50.00', { kyc: 'aprovado' });
    await setStatus(stack.call, closed, 'encerrado');
    t.equal(ok(await money.createWithdrawal(brand, closed, '10.00')).status, 'under_review', 'only bloqueado refuses withdrawals');
    t.equal(await code(player, '50.01'), 'INSUFFICIENT_FUNDS');
    t.equal(ok(await money.createWithdrawal(brand, player, '50.00')).status, 'under_review', 'the whole balance may be withdrawn');
    t.equal(await code(player, '0.01'), 'INSUFFICIENT_FUNDS', 'withdrawable counts open requests');
  });

  test('a declined request is invisible and its key keeps answering 422', async (t) => {
    const player = await money.fundedPlayer(brand, '10.00');
    const k = key('wd');
    t.equal(errorOf(await money.createWithdrawal(brand, player, '10.01', k))?.code, 'INSUFFICIENT_FUNDS');
    const [{ id }] = (await stack.sql.query(`select id from payments.withdrawals where request_key = $1`, [k])).rows;
    t.equal(await money.withdrawalStatus(id), 'declined');
    t.equal(errorOf(await money.getWithdrawal(brand, id))?.code, 'WITHDRAWAL_NOT_FOUND');
    t.equal(errorOf(await money.cancel(brand, id))?.code, 'WITHDRAWAL_NOT_FOUND');
    ok(await money.createDeposit(brand, player, { amount: '100.00' }).then(async (r) => money.confirm(brand, ok(r).id)));
    t.equal(errorOf(await money.createWithdrawal(brand, player, '10.01', k))?.code, 'INSUFFICIENT_FUNDS', 'the stored answer, not a new attempt');
    t.equal((await money.wallet(brand, player)).withdrawable, '110.00');
  });

  test('approve then pay debits the wallet once, with events for each move', async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    const wd = ok(await money.createWithdrawal(brand, player, '30.00'));
    const approved = ok(await money.decide(brand, wd.id, 'approve'));
    t.equal(approved.status, 'approved');
    t.equal(errorOf(await money.cancel(brand, wd.id))?.code, 'WITHDRAWAL_NOT_CANCELLABLE');
    t.equal(errorOf(await money.decide(brand, wd.id, 'approve'))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
    t.equal(errorOf(await money.decide(brand, wd.id, 'reject'))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '70.00' });
    const paid = ok(await money.decide(brand, wd.id, 'pay'));
    t.equal(paid.status, 'paid');
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '70.00', withdrawable: '70.00' });
    t.same(await money.playerEntries(wd.id), [{ type: 'WITHDRAWAL', amount: '-30.00' }]);
    for (const d of ['pay', 'approve', 'reject']) t.equal(errorOf(await money.decide(brand, wd.id, d))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
    t.equal(errorOf(await money.cancel(brand, wd.id))?.code, 'WITHDRAWAL_NOT_CANCELLABLE');
    t.same(
      (await statusEvents(wd.id)).map((e) => [e.previousStatus, e.withdrawal.status]),
      [
        [null, 'under_review'],
        ['under_review', 'approved'],
        ['approved', 'paid'],
      ],
    );
    t.same(await money.playerEntries(wd.id), [{ type: 'WITHDRAWAL', amount: '-30.00' }], 'still one debit');
  });

  test('reject and cancel release the reservation without a ledger entry', async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    const a = ok(await money.createWithdrawal(brand, player, '40.00'));
    const b = ok(await money.createWithdrawal(brand, player, '50.00'));
    t.equal((await money.wallet(brand, player)).withdrawable, '10.00');
    t.equal(errorOf(await money.decide(brand, a.id, 'pay'))?.code, 'WITHDRAWAL_INVALID_TRANSITION', 'pay needs approval first');
    t.equal(ok(await money.decide(brand, a.id, 'reject')).status, 'rejected');
    t.equal(ok(await money.cancel(brand, b.id)).status, 'cancelled');
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '100.00' });
    t.equal(await money.holdOf(a.id), 'released');
    t.equal(await money.holdOf(b.id), 'released');
    t.same(await money.playerEntries(a.id), []);
    t.equal(errorOf(await money.cancel(brand, b.id))?.code, 'WITHDRAWAL_NOT_CANCELLABLE');
    t.equal(errorOf(await money.cancel(brand, a.id))?.code, 'WITHDRAWAL_NOT_CANCELLABLE');
    t.equal(errorOf(await money.decide(brand, b.id, 'approve'))?.code, 'WITHDRAWAL_INVALID_TRANSITION');
    t.same(
      (await statusEvents(b.id)).map((e) => [e.previousStatus, e.withdrawal.status]),
      [
        [null, 'under_review'],
        ['under_review', 'cancelled'],
      ],
    );
    t.same(
      (await statusEvents(a.id)).map((e) => [e.previousStatus, e.withdrawal.status]),
      [
        [null, 'under_review'],
        ['under_review', 'rejected'],
      ],
    );
  });

  test('20 concurrent withdrawals never reserve more than the balance', async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    const replies = await Promise.all(Array.from({ length: 20 }, () => money.createWithdrawal(brand, player, '15.00')));
    const accepted = replies.filter((r) => r.ok);
    t.equal(accepted.length, 6);
    t.ok(replies.filter((r) => !r.ok).every((r) => errorOf(r)?.code === 'INSUFFICIENT_FUNDS'));
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '10.00' });
    // Paying all accepted ones cannot take the balance below zero either.
    for (const r of accepted) {
      const id = ok(r).id;
      ok(await money.adminDecide(id, 'approve'));
      ok(await money.adminDecide(id, 'pay'));
    }
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '10.00', withdrawable: '10.00' });
  });

  test('concurrent cancel and reject of one withdrawal end in exactly one', async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    for (let i = 0; i < 5; i++) {
      const wd = ok(await money.createWithdrawal(brand, player, '10.00'));
      const [c, r] = await Promise.all([money.cancel(brand, wd.id), money.adminDecide(wd.id, 'reject')]);
      t.equal([c, r].filter((x) => x.ok).length, 1);
      t.equal(await money.withdrawalStatus(wd.id), c.ok ? 'cancelled' : 'rejected');
      t.equal(await money.holdOf(wd.id), 'released');
    }
    t.equal((await money.wallet(brand, player)).withdrawable, '100.00');
  });

  test('retries with the same key have one effect and answer the original result', async (t) => {
    // Copies racing each other may each finish the move (then the answer is theirs) or find it
    // finished (a replay): the same answer either way. A later retry is always a replay.
    const answer = (r: OperationReply) => JSON.stringify(answerOf(r));
    const player = await money.fundedPlayer(brand, '100.00');
    const k = key('wd');
    const creates = await Promise.all([1, 2, 3, 4].map(() => money.createWithdrawal(brand, player, '25.00', k)));
    t.same(
      creates.map(answer),
      creates.map(() => answer(creates[0]!)),
      'racing copies of a create: one answer',
    );
    const createdAgain = await money.createWithdrawal(brand, player, '25.00', k);
    t.equal(answer(createdAgain), answer(creates[0]!));
    t.equal((createdAgain as { replayed?: boolean }).replayed, true, 'a later retry is a replay');
    t.equal((await money.wallet(brand, player)).withdrawable, '75.00', 'one reservation');
    const id = ok(creates[0]!).id;
    const ck = key('cancel');
    const cancels = await Promise.all(Array.from({ length: 8 }, () => money.cancel(brand, id, ck)));
    t.same(
      cancels.map(answer),
      cancels.map(() => answer(cancels[0]!)),
      'racing copies of a cancel: one answer',
    );
    const cancelledAgain = await money.cancel(brand, id, ck);
    t.equal(answer(cancelledAgain), answer(cancels[0]!));
    t.equal((cancelledAgain as { replayed?: boolean }).replayed, true, 'a later retry is a replay');
    t.equal(ok(cancels[0]!).status, 'cancelled');
    t.equal((await statusEvents(id)).length, 2, 'created and cancelled, once each');
    t.equal((await money.wallet(brand, player)).withdrawable, '100.00');
    // More rounds of racing retries: a late one must still get the stored answer, never a 409.
    for (let i = 0; i < 5; i++) {
      const wd = ok(await money.createWithdrawal(brand, player, '1.00'));
      const k2 = key('cancel');
      const replies = await Promise.all(Array.from({ length: 8 }, () => money.cancel(brand, wd.id, k2)));
      t.ok(replies.every((r) => answer(r) === answer(replies[0]!)) && replies[0]!.ok, 'all racing retries get the one result');
    }
  });

  test('brand isolation: another brand sees no withdrawal', async (t) => {
    const player = await money.fundedPlayer(brand, '20.00');
    const wd = ok(await money.createWithdrawal(brand, player, '5.00'));
    t.equal(errorOf(await money.getWithdrawal(other, wd.id))?.code, 'WITHDRAWAL_NOT_FOUND');
    t.equal(errorOf(await money.cancel(other, wd.id))?.code, 'WITHDRAWAL_NOT_FOUND');
    t.equal(errorOf(await money.decide(other, wd.id, 'approve'))?.code, 'WITHDRAWAL_NOT_FOUND');
    t.equal(errorOf(await money.getWithdrawal(brand, 'wd_nope'))?.code, 'WITHDRAWAL_NOT_FOUND');
    t.equal(ok(await money.getWithdrawal(brand, wd.id)).status, 'under_review');
  });

  t.test('the admin review queue: oldest first, paged, across brands, decisions audited', async (t) => {
    // A stack of its own: the queue spans every brand, so other tests' requests would be in it.
    const stack = await startPaymentsStack(t, 'queue');
    const { money } = stack;
    const p1 = await money.fundedPlayer(brand, '100.00');
    const p2 = await money.fundedPlayer(other, '100.00');
    const w = [
      ok(await money.createWithdrawal(brand, p1, '1.00')),
      ok(await money.createWithdrawal(other, p2, '2.00')),
      ok(await money.createWithdrawal(brand, p1, '3.00')),
    ];
    const list = (query: Record<string, unknown>) =>
      stack.call<{ data: (Withdrawal & { operatorId: string; brandId: string; environment: string })[]; nextCursor: string | null }>(
        'payments.admin.withdrawals',
        { scope: { kind: 'admin', actor: 'reviewer@test' }, query },
      );
    const page1 = ok(await list({ limit: 2 }));
    t.same(
      page1.data.map((x) => x.id),
      [w[0]!.id, w[1]!.id],
    );
    t.match(page1.data[1], { operatorId: other.operatorId, brandId: other.brandId, environment: 'sandbox', status: 'under_review' });
    const page2 = ok(await list({ limit: '2', cursor: page1.nextCursor }));
    t.same(
      page2.data.map((x) => x.id),
      [w[2]!.id],
    );
    t.equal(page2.nextCursor, null);
    t.match(errorOf(await list({ cursor: 'garbage' })), { code: 'VALIDATION_ERROR', details: { in: 'query', issues: [{ path: '/cursor' }] } });
    t.match(errorOf(await list({ cursor: page1.nextCursor, status: 'paid' })), { code: 'VALIDATION_ERROR' }, 'a cursor is bound to its filter');
    // A position written by hand (the shape the cursor once had, unsigned) is refused: cursors are signed.
    const handWritten = Buffer.from(JSON.stringify(['under_review', '1970-01-01T00:00:00.000Z', 'wd_0'])).toString('base64url');
    t.match(errorOf(await list({ cursor: handWritten })), { code: 'VALIDATION_ERROR', details: { in: 'query' } }, 'a cursor written by hand is refused');

    const r = await money.adminDecide(w[1]!.id, 'approve');
    t.ok(r.ok);
    t.same(
      (await outboxAudits(stack.sql, 'payments', `withdrawal:${w[1]!.id}`)).map(({ target, before, after }) => ({ target, before, after })),
      [{ target: `withdrawal:${w[1]!.id}`, before: w[1], after: r.ok ? r.body : undefined }],
      'the decision is audited in its transaction',
    );
    t.same(ok(await list({ status: 'approved' })).data.filter((x) => x.id === w[1]!.id).length, 1);
    t.same(
      ok(await list({})).data.map((x) => x.id),
      [w[0]!.id, w[2]!.id],
    );
    t.equal(errorOf(await money.adminDecide('wd_nope', 'approve'))?.code, 'WITHDRAWAL_NOT_FOUND');
    t.equal(errorOf(await stack.call('payments.admin.withdrawals', { scope: brand }))?.code, 'UNAUTHORIZED');
    const v = await stack.verifyLedger();
    t.ok(v.ok, 'ledger verifies');
  });
});
