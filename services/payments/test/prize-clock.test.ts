// The prize clock in payments (issue #46 item 3; docs/eligibility.md, "The prize clock"), through
// real players, wallet and payments: a br-spa withdrawal is due 120 minutes after its request (none
// under the profile off); the review queue by deadline; the gauge of withdrawals ahead, near and past
// their deadline as the rule clock moves; and automatic approval below the amount our team sets per
// operator (audited), which approves and pays without a person unless an AML review holds the
// payout, an impediment restricted the player or a service does not answer; a payout the system
// started and a crash interrupted is finished by the reconciler, audited once. Compliance's hold
// question is answered here by a NATS responder the test controls.
import t from 'tap';
import { rpcSubject, type Withdrawal } from '@bo/contracts';
import { setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import { BR_SPA_LIMITS, outboxAudits } from '@bo/test-support';
import { autoDecisionOf } from '../src/domain/prize-clock.ts';
import { adminScope, createPlayer, errorOf, key, moneyTest, ok, operatorScope, startPaymentsStack } from './support/stack.ts';

const MINUTE = 60_000;

t.test('the prize clock', async (t) => {
  const stack = await startPaymentsStack(t, 'prizeclock');
  const { call, money, sql } = stack;
  t.teardown(() => setRuleClockOffset(0));
  // Compliance's answer to "does an AML review hold this player's payouts?".
  let aml: 'held' | 'free' | 'down' = 'free';
  const sub = stack.nc.subscribe(rpcSubject(stack.prefix, 'compliance.holds.check'), {
    callback: (_e, msg) => {
      const reply =
        aml === 'down' ? { ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } } : { ok: true, status: 200, body: { held: aml === 'held' } };
      msg.respond(JSON.stringify(reply));
    },
  });
  t.teardown(() => sub.unsubscribe());

  const spa = operatorScope('spa');
  const off = operatorScope('off');
  ok(
    await call('players.admin.setCompliance', {
      scope: adminScope,
      params: { id: spa.operatorId },
      body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    }),
  );
  const test = moneyTest(t, stack);
  const admin = (actor = 'root') => ({ kind: 'admin' as const, actor });
  const cpfOf = async (playerId: string): Promise<string> => (await sql.query('select cpf from players.players where id = $1', [playerId])).rows[0].cpf;
  /** A br-spa player with `amount` in the wallet (the payer their own CPF). */
  const spaPlayer = async (amount = '100.00') => {
    const playerId = await createPlayer(call, spa, { kyc: 'aprovado', limits: BR_SPA_LIMITS });
    const dep = ok(await money.createDeposit(spa, playerId, { amount }));
    ok(
      await call('payments.deposits.confirm', { scope: spa, key: key('conf'), params: { depositId: dep.id }, body: { payer: { cpf: await cpfOf(playerId) } } }),
    );
    return playerId;
  };
  const spaWithdraw = async (playerId: string, amount: string) =>
    money.createWithdrawal(spa, playerId, amount, key('wd'), { destination: await cpfOf(playerId) });
  const setAuto = (operatorId: string, belowAmount: string | null, scope: Parameters<typeof call>[1]['scope'] = admin()) =>
    call<{ operatorId: string; belowAmount: string | null; updatedBy: string | null }>('payments.admin.setAutoApproval', {
      scope,
      params: { id: operatorId },
      body: { belowAmount },
    });
  const clockGauge = async () => {
    const text = await stack.services.get('payments')!.metrics.metrics();
    const value = (state: string) => Number(new RegExp(`bo_withdrawals_payout_clock\\{state="${state}",service="payments"\\} (\\d+)`).exec(text)?.[1]);
    return { ahead: value('ahead'), near: value('near'), overdue: value('overdue') };
  };
  const statusEvents = async (withdrawalId: string) =>
    (await sql.query(`select payload from payments.outbox where subject_type = 'withdrawal.status_changed' order by seq`)).rows
      .map((r) => JSON.parse(r.payload).data as { withdrawal: Withdrawal; previousStatus: string | null })
      .filter((d) => d.withdrawal.id === withdrawalId)
      .map((d) => `${d.previousStatus}→${d.withdrawal.status}`);

  test('a br-spa withdrawal is due 120 minutes after its request; under the profile off, none', async (t) => {
    const gaugeBefore = await clockGauge();
    t.same(Object.keys(gaugeBefore), ['ahead', 'near', 'overdue']);
    t.ok(
      Object.values(gaugeBefore).every((n) => Number.isInteger(n)),
      'every state of the gauge is there (at its count) before anything moves',
    );
    const player = await spaPlayer();
    const wd = ok(await spaWithdraw(player, '30.00'));
    t.equal(wd.status, 'under_review', 'automatic approval off (the default): a person decides');
    t.equal(Date.parse(wd.payoutDueAt!) - Date.parse(wd.createdAt), 120 * MINUTE, 'payoutDueAt = createdAt + 120 minutes');
    t.equal(ok(await money.getWithdrawal(spa, wd.id)).payoutDueAt, wd.payoutDueAt, 'the operator reads it');
    const listed = ok(await call<{ data: Withdrawal[] }>('payments.admin.withdrawals', { scope: admin(), query: { playerId: player } })).data;
    t.equal(listed[0]?.payoutDueAt, wd.payoutDueAt, 'so does our team');
    const plain = await money.fundedPlayer(off, '50.00');
    t.equal(ok(await money.createWithdrawal(off, plain, '10.00')).payoutDueAt, null, 'the profile off: no deadline');
    const after = await clockGauge();
    t.equal(after.ahead - gaugeBefore.ahead, 1, 'one more withdrawal ahead of its deadline (the off one is not counted)');
    ok(await money.adminDecide(wd.id, 'reject'));
    t.equal((await clockGauge()).ahead, gaugeBefore.ahead, 'a rejected withdrawal waits for nothing');
  });

  test('the gauge as time passes: ahead, near (under 30 minutes left), overdue; paid, counted no more', async (t) => {
    const player = await spaPlayer();
    const base = await clockGauge();
    const wd = ok(await spaWithdraw(player, '20.00'));
    t.equal((await clockGauge()).ahead, base.ahead + 1, 'ahead');
    setRuleClockOffset(95 * MINUTE);
    const near = await clockGauge();
    t.equal(near.near, base.near + 1, '25 minutes left: near');
    setRuleClockOffset(121 * MINUTE);
    t.equal((await clockGauge()).overdue, base.overdue + 1, 'past the deadline: overdue');
    ok(await money.adminDecide(wd.id, 'approve'));
    t.equal((await clockGauge()).overdue, base.overdue + 1, 'approved, still waiting for its payout');
    ok(await money.adminDecide(wd.id, 'pay'));
    t.equal((await clockGauge()).overdue, base.overdue, 'paid: no longer waiting');
    setRuleClockOffset(0);
  });

  test('the review queue by payout deadline: the nearest first, those without one after; cursors bound to the order', async (t) => {
    const mixed = operatorScope('mix');
    const plainPlayer = await money.fundedPlayer(mixed, '50.00');
    const early = ok(await money.createWithdrawal(mixed, plainPlayer, '1.00'));
    const player = await spaPlayer();
    const first = ok(await spaWithdraw(player, '2.00'));
    const second = ok(await spaWithdraw(player, '3.00'));
    const ours = new Set([early.id, first.id, second.id]);
    const page = async (query: Record<string, unknown>) =>
      ok(await call<{ data: Withdrawal[]; nextCursor: string | null }>('payments.admin.withdrawals', { scope: admin(), query }));
    const all: Withdrawal[] = [];
    let cursor: string | undefined;
    do {
      const p = await page({ status: 'under_review', order: 'payout_due', limit: 2, ...(cursor ? { cursor } : {}) });
      all.push(...p.data);
      cursor = p.nextCursor ?? undefined;
    } while (cursor);
    const dues = all.map((w) => w.payoutDueAt);
    const firstNull = dues.indexOf(null);
    t.ok(firstNull === -1 || dues.slice(firstNull).every((d) => d === null), 'every withdrawal with a deadline before those without one');
    const timed = dues.filter((d): d is string => d !== null);
    t.same(timed, [...timed].sort(), 'the nearest deadline first');
    t.same(
      all.filter((w) => ours.has(w.id)).map((w) => w.id),
      [first.id, second.id, early.id],
      "ours in that order across pages, the off operator's (older) last",
    );
    const created = await page({ status: 'under_review', limit: 1 });
    t.ok(created.nextCursor, 'a cursor of the created order');
    t.match(
      errorOf(await call('payments.admin.withdrawals', { scope: admin(), query: { status: 'under_review', order: 'payout_due', cursor: created.nextCursor } })),
      { code: 'VALIDATION_ERROR', details: { in: 'query' } },
      "another order's cursor is refused",
    );
    for (const w of [early, first, second]) ok(await money.adminDecide(w.id, 'reject'));
  });

  test('automatic approval: set per operator by our team (audited), off by default, refused below 0.01', async (t) => {
    const op = operatorScope('auto');
    t.same(
      ok(await call('payments.admin.getAutoApproval', { scope: admin('ana'), params: { id: op.operatorId } })),
      { operatorId: op.operatorId, belowAmount: null, updatedAt: null, updatedBy: null },
      'off',
    );
    t.match(ok(await setAuto(op.operatorId, '50')), { operatorId: op.operatorId, belowAmount: '50.00', updatedBy: 'root' });
    t.match(ok(await setAuto(op.operatorId, null)), { belowAmount: null, updatedBy: 'root' });
    t.match(await outboxAudits(sql, 'payments', `operator:${op.operatorId}`), [
      { action: 'adminSetAutoApproval', actor: 'root', before: { belowAmount: null }, after: { belowAmount: '50.00' } },
      { action: 'adminSetAutoApproval', actor: 'root', before: { belowAmount: '50.00' }, after: { belowAmount: null } },
    ]);
    t.match(errorOf(await setAuto(op.operatorId, '0.00')), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/belowAmount' }] } });
    t.equal(errorOf(await setAuto(op.operatorId, '10.00', op))?.code, 'UNAUTHORIZED', 'the admin API only');
  });

  test('below the amount, a br-spa withdrawal is approved and paid by the system, audited with the reason', async (t) => {
    ok(await setAuto(spa.operatorId, '50.00'));
    aml = 'free';
    const player = await spaPlayer('100.00');
    const wd = ok(await spaWithdraw(player, '49.99'));
    t.equal(wd.status, 'approved', 'the answer: approved (its payout under way)');
    t.equal(ok(await money.getWithdrawal(spa, wd.id)).status, 'paid', 'paid before the answer');
    t.same(await statusEvents(wd.id), ['null→under_review', 'under_review→approved', 'approved→paid'], 'every step announced');
    t.same(await money.wallet(spa, player), { playerId: player, currency: 'BRL', available: '50.01', withdrawable: '50.01' }, 'debited once');
    t.match(
      (await outboxAudits(sql, 'payments', `withdrawal:${wd.id}`)).map((a) => [a.actor, a.actorId, a.action, a.before, a.after]),
      [
        [
          'system:auto-approval',
          null,
          'autoWithdrawalDecision',
          { status: 'under_review' },
          { status: 'approved', reason: /below the operator's automatic approval amount \(50\.00 BRL\)/ },
        ],
        ['system:auto-approval', null, 'autoWithdrawalDecision', { status: 'approved' }, { status: 'paid' }],
      ],
      'the approval and the payout, each audited once, by the system',
    );
    const listed = ok(
      await call<{ data: (Withdrawal & { approvedBy: string })[] }>('payments.admin.withdrawals', { scope: admin(), query: { playerId: player } }),
    );
    t.equal(listed.data[0]?.approvedBy, 'system:auto-approval', 'the queue says who approved it');

    const at = ok(await spaWithdraw(player, '50.00'));
    t.equal(at.status, 'under_review', 'at the amount: a person decides');
    ok(await money.adminDecide(at.id, 'reject'));
  });

  test('never without the checks: an AML hold, compliance down, an impediment, the profile off: a person decides', async (t) => {
    ok(await setAuto(spa.operatorId, '50.00'));
    ok(await setAuto(off.operatorId, '50.00'));
    const player = await spaPlayer('100.00');
    aml = 'held';
    const held = ok(await spaWithdraw(player, '10.00'));
    t.equal(held.status, 'under_review', 'an AML review holds the payouts');
    aml = 'down';
    const unknown = ok(await spaWithdraw(player, '10.00'));
    t.equal(unknown.status, 'under_review', 'compliance did not answer: fail closed');
    aml = 'free';
    const plain = await money.fundedPlayer(off, '50.00');
    t.equal(ok(await money.createWithdrawal(off, plain, '10.00')).status, 'under_review', 'the profile off: no prize clock, no automatic approval');

    // An impediment hit (the SPA registry's sandbox list): withdrawals stay open for the window, never automatically.
    const hit = await spaPlayer('60.00');
    ok(await call('players.sandbox.impediments.add', { scope: spa, body: { cpf: await cpfOf(hit), reason: 'social_program' } }));
    // The check the next day's first login would make (the sandbox's): a hit restricts the player.
    t.match(
      ok(await call('players.sandbox.impedimentCheck', { scope: spa, params: { playerId: hit } })),
      { outcome: 'impeded', status: 'restrito' },
      'the hit',
    );
    const restricted = ok(await spaWithdraw(hit, '10.00'));
    t.equal(restricted.status, 'under_review', 'an impediment restricted the player');
    for (const w of [held, unknown, restricted]) {
      t.same(await outboxAudits(sql, 'payments', `withdrawal:${w.id}`), [], 'no decision, no audit row');
      ok(await money.adminDecide(w.id, 'reject'));
    }
  });

  test('a payout the system started and a crash interrupted: the reconciler finishes it, audited once', async (t) => {
    ok(await setAuto(spa.operatorId, null));
    const player = await spaPlayer('40.00');
    const wd = ok(await spaWithdraw(player, '5.00'));
    t.equal(wd.status, 'under_review', 'held, waiting (automatic approval off for now)');
    // What a crash right after an automatic approval's commit leaves: approved by the system, its payout's intent recorded for it.
    await sql.query(
      `update payments.withdrawals set status = 'paying', approved_by = 'system:auto-approval', approver_id = 'actor:system:auto-approval',
         decided_by = $2::jsonb, touched_at = now() - interval '1 hour' where id = $1`,
      [wd.id, JSON.stringify({ actor: 'system:auto-approval', requestId: 'req_crash' })],
    );
    await waitFor(async () => (await money.withdrawalStatus(wd.id)) === 'paid', { what: 'the reconciler to finish the payout' });
    t.match(
      (await outboxAudits(sql, 'payments', `withdrawal:${wd.id}`)).map((a) => [a.actor, a.action, a.after]),
      [['system:auto-approval', 'autoWithdrawalDecision', { status: 'paid' }]],
      "the payout audited once, as the system's",
    );
    t.same(await money.wallet(spa, player), { playerId: player, currency: 'BRL', available: '35.00', withdrawable: '35.00' }, 'debited once');
  });

  t.test('the rule, branch by branch', async (t) => {
    const player = { exists: true, playerId: 'plr_1', status: 'ativo' as const, restrictedAt: null };
    const w = { amount: '10.00', currency: 'BRL', payoutDueAt: new Date() };
    const facts = { belowAmount: '50.00', player, amlHeld: false };
    t.equal(autoDecisionOf(w, facts).approve, true, 'all clear');
    const cases: [string, Parameters<typeof autoDecisionOf>[0], Parameters<typeof autoDecisionOf>[1], RegExp][] = [
      ['off', w, { ...facts, belowAmount: null }, /off/],
      ['profile off', { ...w, payoutDueAt: null }, facts, /not under the prize clock/],
      ['at the amount', { ...w, amount: '50.00' }, facts, /not below/],
      ['players down', w, { ...facts, player: undefined }, /could not be read/],
      ['restricted', w, { ...facts, player: { ...player, restrictedAt: '2026-01-01T00:00:00.000Z' } }, /impediment/],
      ['not active', w, { ...facts, player: { ...player, status: 'suspenso' as const } }, /suspenso/],
      ['compliance down', w, { ...facts, amlHeld: undefined }, /could not be read/],
      ['held', w, { ...facts, amlHeld: true }, /AML review holds/],
    ];
    for (const [name, ww, f, why] of cases) t.match(autoDecisionOf(ww, f), { approve: false, reason: why }, name);
  });
});
