// Four eyes on money out: the person who approved a withdrawal cannot pay it (from the operator's
// threshold up, default always); the refusal moves nothing; the threshold is per operator and
// audited; a player's withdrawals list for the review page; a keyed admin pay is audited; one
// person is one person whatever name they act under (identities are compared, not names).
import t from 'tap';
import type { Withdrawal } from '@bo/contracts';
import { outboxAudits } from '@bo/test-support';
import { startPaymentsStack, moneyTest, operatorScope, ok, errorOf, key } from './support/stack.ts';

t.test('four eyes', async (t) => {
  const stack = await startPaymentsStack(t, 'four-eyes');
  const { money, call } = stack;
  const brand = operatorScope('fe-a');
  const other = operatorScope('fe-b');
  const test = moneyTest(t, stack);
  const admin = (actor: string) => ({ kind: 'admin' as const, actor });
  const fourEyes = (operatorId: string) =>
    call<{ minAmount: string; updatedBy: string | null }>('payments.admin.getFourEyes', { scope: admin('ana'), params: { id: operatorId } });
  const setFourEyes = (operatorId: string, minAmount: string) =>
    call<{ minAmount: string; updatedBy: string | null }>('payments.admin.setFourEyes', {
      scope: admin('root'),
      params: { id: operatorId },
      body: { minAmount },
    });
  const underReview = async (scope = brand, amount = '40.00') => {
    const player = await money.fundedPlayer(scope, '100.00');
    return { player, wd: ok(await money.createWithdrawal(scope, player, amount)) };
  };

  test('the approver cannot pay; another person can, and the money moves once', async (t) => {
    const { player, wd } = await underReview();
    t.equal(ok(await money.adminDecide(wd.id, 'approve', undefined, undefined, 'ana')).status, 'approved');
    const refused = await money.adminDecide(wd.id, 'pay', undefined, key('pay'), 'ana');
    t.match(errorOf(refused), { code: 'FOUR_EYES_REQUIRED', message: /ana approved this withdrawal/ });
    t.equal(await money.withdrawalStatus(wd.id), 'approved', 'the refusal records no intent');
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '60.00' }, 'nothing paid');
    const paid = await money.adminDecide(wd.id, 'pay', undefined, key('pay'), 'bruno');
    t.equal(ok(paid).status, 'paid');
    t.match(
      (await outboxAudits(stack.sql, 'payments', `withdrawal:${wd.id}`)).map((a) => [a.actor, a.action, a.before, a.after]),
      [
        ['ana', 'adminWithdrawalDecision', { status: 'under_review' }, { status: 'approved' }],
        ['bruno', 'adminWithdrawalDecision', { status: 'approved' }, { status: 'paid' }],
      ],
      'the approval and the keyed pay are audited once each, in their transactions; the refusal is not',
    );
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '60.00', withdrawable: '60.00' });
    t.ok((await stack.verifyLedger()).ok, 'ledger verifies');
  });

  test('one person under two names is one person: four eyes compares identities', async (t) => {
    const { player, wd } = await underReview();
    const as = (actor: string, personId: string) => ({ kind: 'admin' as const, actor, personId });
    const decideAs = (scope: ReturnType<typeof as>, decision: string) =>
      call<Withdrawal>('payments.admin.withdrawalDecision', { scope, key: key(decision), params: { id: wd.id }, body: { decision } });
    ok(await decideAs(as('user:eva@ourteam.example', 'usr_eva'), 'approve'));
    // The same person under another name (a name is text to this service; the identity is not).
    const refused = await decideAs(as('token:eva-laptop', 'usr_eva'), 'pay');
    t.match(errorOf(refused), { code: 'FOUR_EYES_REQUIRED', message: /user:eva@ourteam\.example approved this withdrawal/ });
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '60.00' }, 'nothing paid');
    t.equal(ok(await decideAs(as('user:eva@ourteam.example', 'usr_fabio'), 'pay')).status, 'paid', 'another person pays, whatever the name');
    t.same(
      (await outboxAudits(stack.sql, 'payments', `withdrawal:${wd.id}`)).map((a) => a.actorId),
      ['usr_eva', 'usr_fabio'],
      'each row names the identity that decided',
    );
  });

  test('the queue names the approver; a sandbox approval names nobody and any person pays it', async (t) => {
    const { wd } = await underReview();
    ok(await money.adminDecide(wd.id, 'approve', undefined, undefined, 'carla'));
    const approved = ok(
      await call<{ data: (Withdrawal & { approvedBy: string | null })[] }>('payments.admin.withdrawals', {
        scope: admin('ana'),
        query: { status: 'approved', limit: 200 },
      }),
    );
    t.equal(approved.data.find((x) => x.id === wd.id)?.approvedBy, 'carla');
    const sim = await underReview();
    ok(await money.decide(brand, sim.wd.id, 'approve'));
    t.equal(ok(await money.adminDecide(sim.wd.id, 'pay', undefined, undefined, 'carla')).status, 'paid', 'the operator simulated the approval');
  });

  test('the threshold is per operator: below it one person may approve and pay', async (t) => {
    t.same(ok(await fourEyes(other.operatorId)), { operatorId: other.operatorId, minAmount: '0.00', updatedAt: null, updatedBy: null }, 'default: always');
    const set = await setFourEyes(other.operatorId, '100.00');
    t.match(ok(set), { operatorId: other.operatorId, minAmount: '100.00', updatedBy: 'root' });
    t.match(await outboxAudits(stack.sql, 'payments', `operator:${other.operatorId}`), [
      { action: 'adminSetFourEyes', actor: 'root', before: { minAmount: '0.00' }, after: { minAmount: '100.00' } },
    ]);
    const small = await underReview(other, '99.99');
    ok(await money.adminDecide(small.wd.id, 'approve', undefined, undefined, 'dora'));
    t.equal(ok(await money.adminDecide(small.wd.id, 'pay', undefined, undefined, 'dora')).status, 'paid', 'below the threshold');
    const large = await underReview(other, '100.00');
    ok(await money.adminDecide(large.wd.id, 'approve', undefined, undefined, 'dora'));
    t.equal(errorOf(await money.adminDecide(large.wd.id, 'pay', undefined, undefined, 'dora'))?.code, 'FOUR_EYES_REQUIRED', 'from the threshold up');
    const mine = await underReview(brand, '1.00');
    ok(await money.adminDecide(mine.wd.id, 'approve', undefined, undefined, 'dora'));
    t.equal(
      errorOf(await money.adminDecide(mine.wd.id, 'pay', undefined, undefined, 'dora'))?.code,
      'FOUR_EYES_REQUIRED',
      "another operator's threshold does not apply",
    );
    // The review queue says so before anyone clicks: four eyes per withdrawal, from its operator's threshold.
    type Listed = { id: string; fourEyes: boolean; heldForAmlReview: boolean | null };
    const listed = async (playerId: string) =>
      ok(await call<{ data: Listed[] }>('payments.admin.withdrawals', { scope: admin('ana'), query: { playerId, limit: 10 } })).data;
    t.match(
      await listed(large.player),
      [{ id: large.wd.id, fourEyes: true, heldForAmlReview: false }],
      'from the threshold up: four eyes; profile off: no hold',
    );
    t.match(await listed(small.player), [{ id: small.wd.id, fourEyes: false, heldForAmlReview: false }], 'below it: the approver may pay');
    t.match(await listed(mine.player), [{ id: mine.wd.id, fourEyes: true }], "its own operator's threshold");
    t.match(errorOf(await setFourEyes(other.operatorId, '-1.00')), { code: 'VALIDATION_ERROR' });
    t.equal(
      errorOf(await call('payments.admin.setFourEyes', { scope: brand, params: { id: other.operatorId }, body: { minAmount: '1.00' } }))?.code,
      'UNAUTHORIZED',
    );
  });

  test('two other people paying at once pay once; the approver is refused', async (t) => {
    const { player, wd } = await underReview();
    ok(await money.adminDecide(wd.id, 'approve', undefined, undefined, 'ana'));
    const results = await Promise.all(['ana', 'bruno', 'carla'].map((who) => money.adminDecide(wd.id, 'pay', undefined, key('pay'), who)));
    const approver = errorOf(results[0]!)?.code;
    t.ok(
      approver === 'FOUR_EYES_REQUIRED' || approver === 'WITHDRAWAL_INVALID_TRANSITION',
      `the approver is refused (${approver}), even while another payout runs`,
    );
    const outcomes = results.slice(1).map((r) => (r.ok ? r.body.status : errorOf(r)?.code));
    t.ok(
      outcomes.every((o) => o === 'paid' || o === 'WITHDRAWAL_INVALID_TRANSITION') && outcomes.includes('paid'),
      `paid, or refused as already paid: ${outcomes.join(', ')}`,
    );
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '60.00', withdrawable: '60.00' }, 'debited once');
    t.ok((await stack.verifyLedger()).ok, 'ledger verifies');
  });

  test("one player's withdrawals, newest first, any status", async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    const first = ok(await money.createWithdrawal(brand, player, '10.00'));
    const second = ok(await money.createWithdrawal(brand, player, '20.00'));
    ok(await money.cancel(brand, first.id));
    const list = (query: Record<string, unknown>) =>
      call<{ data: Withdrawal[]; nextCursor: null }>('payments.admin.withdrawals', { scope: admin('ana'), query });
    const all = ok(await list({ playerId: player }));
    t.same(
      all.data.map((x) => [x.id, x.status]),
      [
        [second.id, 'under_review'],
        [first.id, 'cancelled'],
      ],
    );
    t.same(
      ok(await list({ playerId: player, status: 'cancelled' })).data.map((x) => x.id),
      [first.id],
    );
    t.match(errorOf(await list({ playerId: player, cursor: 'x' })), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/cursor' }] } });
  });

  test("a player's deposits and ledger for the console; another brand's player is not found", async (t) => {
    const player = await money.fundedPlayer(brand, '75.00');
    const deposits = ok(
      await call<{ data: (Record<string, unknown> & { status: string })[] }>('payments.admin.deposits', { scope: admin('ana'), query: { playerId: player } }),
    );
    t.match(deposits.data, [{ playerId: player, amount: '75.00', status: 'confirmed', operatorId: brand.operatorId, brandId: brand.brandId, paidBy: null }]);
    t.ok('paidBy' in deposits.data[0]!, 'who paid is listed (null: the PSP reported no payer)');
    const ledger = ok(
      await call<{ wallet: unknown; entries: { type: string; amount: string }[] }>('wallet.admin.playerLedger', {
        scope: admin('ana'),
        params: { id: player },
        query: { brandId: brand.brandId },
      }),
    );
    t.same(ledger.wallet, { playerId: player, currency: 'BRL', available: '75.00', withdrawable: '75.00' });
    t.match(ledger.entries, [{ amount: '75.00', balanceAfter: '75.00' }]);
    t.equal(
      errorOf(await call('wallet.admin.playerLedger', { scope: admin('ana'), params: { id: player }, query: { brandId: other.brandId } }))?.code,
      'PLAYER_NOT_FOUND',
    );
    t.equal(errorOf(await call('payments.admin.deposits', { scope: brand, query: { playerId: player } }))?.code, 'UNAUTHORIZED');
  });
});
