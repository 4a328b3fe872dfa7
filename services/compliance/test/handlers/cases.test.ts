// Our team's casework through the compliance service's admin operations (real Postgres and NATS):
// the queue with its signed cursor, a case's steps with who/when/why, the transitions, four eyes
// on `reported`, and the payout hold: while a high case is open, paying the player's withdrawal
// is refused with 403 AML_REVIEW_REQUIRED (approve and reject still work), and it is lifted when
// the case is reported.
import t from 'tap';
import type { AmlCase, Withdrawal } from '@bo/contracts';
import { outboxAudits } from '@bo/test-support';
import { errorOf, key, ok, startComplianceStack } from '../support/stack.ts';

const as = (actor: string) => ({ kind: 'admin' as const, actor });

t.test('cases: lifecycle, four eyes, queue and the payout hold', async (t) => {
  const s = await startComplianceStack(t, 'amlcases');
  const op = await s.brSpaOperator();
  const decide = (id: string, body: Record<string, unknown>, actor: string) =>
    s.call<AmlCase>('compliance.admin.cases.decide', { scope: as(actor), params: { id }, body });
  const payout = (id: string, decision: string, actor: string) =>
    s.call<Withdrawal>('payments.admin.withdrawalDecision', {
      scope: as(actor),
      key: key('dec'),
      params: { id },
      // A rejection says why (issue #61).
      body: { decision, ...(decision === 'reject' ? { reason: 'not the player’s account' } : {}) },
    });

  // In and out with no play: a high case.
  const p = await s.player(op);
  await s.deposit(op, p, '1000.00');
  const w1 = await s.withdraw(op, p, '400.00');
  await s.watched(p, 2);
  const [c] = await s.cases(p);
  t.match(c, { risk: 'high', status: 'open' });

  t.test('while the high case is open: approve and reject work, paying is refused', async (t) => {
    t.equal(errorOf(await payout(w1.id, 'approve', 'reviewer@team')), undefined, 'approve works');
    const refused = await payout(w1.id, 'pay', 'payer@team');
    t.match(errorOf(refused), { code: 'AML_REVIEW_REQUIRED' }, 'pay refused with AML_REVIEW_REQUIRED');
    t.match(await s.db.query('select status from payments.withdrawals where id = $1', [w1.id]), { rows: [{ status: 'approved' }] }, 'still approved');
    t.match(await s.db.query('select status from wallet.holds where withdrawal_id = $1', [w1.id]), { rows: [{ status: 'open' }] }, 'the money still held');
    const w2 = await s.withdraw(op, p, '100.00');
    await s.watched(p, 3);
    t.equal(errorOf(await payout(w2.id, 'reject', 'reviewer@team')), undefined, 'reject works');
    t.equal((await s.cases(p)).length, 1, 'the second withdrawal joined the same case');
  });

  t.test('transitions and four eyes', async (t) => {
    t.match(
      errorOf(await decide(c!.id, { status: 'reported', reason: 'x', receipt: 'R1' }, 'alice@team')),
      { code: 'AML_CASE_INVALID_TRANSITION' },
      'open cannot be reported',
    );
    ok(await decide(c!.id, { status: 'under_review', reason: 'deposit and payout with no play' }, 'alice@team'));
    t.match(
      errorOf(await decide(c!.id, { status: 'reported', reason: 'suspicious', receipt: 'SISCOAF-1' }, 'alice@team')),
      { code: 'FOUR_EYES_REQUIRED' },
      'the reviewer cannot report',
    );
    t.match(
      errorOf(await decide(c!.id, { status: 'reported', reason: 'suspicious' }, 'bob@team')),
      { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/receipt' }] } },
      'a report needs its receipt',
    );
    t.match(errorOf(await payout(w1.id, 'pay', 'payer@team')), { code: 'AML_REVIEW_REQUIRED' }, 'under review: still held');
    const reported = ok(await decide(c!.id, { status: 'reported', reason: 'filed with COAF', receipt: 'SISCOAF-2026-0001' }, 'bob@team'));
    t.match(reported, { status: 'reported', receipt: 'SISCOAF-2026-0001' });
    t.match(
      reported.steps,
      [
        { status: 'open', by: 'aml-watch' },
        { status: 'under_review', by: 'alice@team', reason: 'deposit and payout with no play', receipt: null },
        { status: 'reported', by: 'bob@team', reason: 'filed with COAF', receipt: 'SISCOAF-2026-0001' },
      ],
      'each step with who and why',
    );
    t.ok(
      reported.steps.every((st) => !Number.isNaN(Date.parse(st.at))),
      'and when',
    );
    t.match(
      errorOf(await decide(c!.id, { status: 'dismissed', reason: 'x' }, 'carol@team')),
      { code: 'AML_CASE_INVALID_TRANSITION' },
      'a reported case is final',
    );
    t.equal(errorOf(await payout(w1.id, 'pay', 'payer@team')), undefined, 'reported: the payout goes through');
  });

  t.test('the COS record (JSON and CSV) and the yearly no-occurrence statement', async (t) => {
    const cos = ok<{ record: Record<string, any>; csv: string }>(await s.call('compliance.admin.cos', { scope: as('bob@team'), params: { id: c!.id } }));
    const cpf = (await s.db.query('select cpf, name from players.players where id = $1', [p])).rows[0];
    t.match(cos.record, {
      caseId: c!.id,
      subject: { playerId: p, cpf: cpf.cpf, name: cpf.name },
      rules: ['in_and_out'],
      risk: 'high',
      status: 'reported',
      receipt: 'SISCOAF-2026-0001',
      reasoning: [{ status: 'open' }, { status: 'under_review', by: 'alice@team' }, { status: 'reported', by: 'bob@team' }],
    });
    t.same(
      cos.record.operations.map((o: { type: string; amount: string }) => [o.type, o.amount]),
      [
        ['deposit', '1000.00'],
        ['withdrawal', '400.00'],
        ['withdrawal', '100.00'],
      ],
      'every operation the evidence names, once, in time order',
    );
    t.equal(cos.record.totalAmount, '1500.00');
    const lines = cos.csv.trimEnd().split('\r\n');
    t.equal(lines.length, 4, 'a header and one row per operation');
    t.match(
      lines[0],
      /^case_id,brand_id,player_id,player_name,player_cpf,rules,risk,operation_type,operation_reference,amount,operation_at,detected_at,receipt,reasoning$/,
    );
    t.match(lines[1], new RegExp(`^${c!.id},${op.brandId},${p},.*,${cpf.cpf},in_and_out,high,deposit,.*,1000.00,`));

    const year = new Date().getUTCFullYear();
    const noOcc = async (brandId: string) =>
      ok<Record<string, unknown>>(await s.call('compliance.admin.noOccurrence', { scope: as('a'), params: { brandId }, query: { year } }));
    t.match(await noOcc(op.brandId), { reportedCases: 1, noOccurrence: false, statement: null });
    t.match(await noOcc('brd_without_cases'), { reportedCases: 0, noOccurrence: true, statement: /reported no suspicious operation/ });
  });

  t.test('dismissal, the queue and its cursor', async (t) => {
    const q = await s.player(op);
    await s.deposit(op, q, '50000.00');
    await s.watched(q, 1);
    const [mc] = await s.cases(q);
    t.match(mc, { risk: 'medium', status: 'open' });
    ok(await decide(mc!.id, { status: 'under_review', reason: 'large deposit' }, 'alice@team'));
    t.match(ok(await decide(mc!.id, { status: 'dismissed', reason: 'salary, documented' }, 'alice@team')), { status: 'dismissed' });
    t.match(errorOf(await s.call('compliance.admin.cases.get', { scope: as('a'), params: { id: 'aml_nope' } })), { code: 'AML_CASE_NOT_FOUND' });

    const list = (query: Record<string, unknown>) =>
      s.call<{ data: AmlCase[]; nextCursor: string | null }>('compliance.admin.cases.list', { scope: as('a'), query });
    const first = ok(await list({ limit: 1 }));
    t.equal(first.data.length, 1);
    t.ok(first.nextCursor, 'a next page');
    const second = ok(await list({ limit: 1, cursor: first.nextCursor }));
    t.not(second.data[0]!.id, first.data[0]!.id, 'the next page goes on');
    t.same(
      ok(await list({ status: 'dismissed' })).data.map((x) => x.id),
      [mc!.id],
      'filtered by status',
    );
    t.match(errorOf(await list({ status: 'open', cursor: first.nextCursor })), { code: 'VALIDATION_ERROR' }, "another filter's cursor is refused");
    t.match(errorOf(await s.call('compliance.admin.cases.list', { scope: op, query: {} })), { code: 'UNAUTHORIZED' }, 'never with an operator scope');
  });

  t.test('a queue that scales: filters, oldest first, assignment, the brand view', async (t) => {
    type Listed = AmlCase & { assignee: string | null; assignedAt: string | null; timeZone: string; holdsPayouts: boolean };
    const list = async (query: Record<string, unknown>, actor = 'alice@team') =>
      ok(await s.call<{ data: Listed[]; nextCursor: string | null }>('compliance.admin.cases.list', { scope: as(actor), query })).data;
    const a = await s.player(op);
    await s.deposit(op, a, '900.00');
    await s.withdraw(op, a, '800.00');
    await s.watched(a, 2);
    const b = await s.player(op);
    await s.deposit(op, b, '60000.00');
    await s.watched(b, 1);
    const [high] = await s.cases(a);
    const [medium] = await s.cases(b);
    t.match(high, { risk: 'high', status: 'open' });
    t.match(medium, { risk: 'medium', status: 'open' });

    const ids = (rows: Listed[]) => rows.map((x) => x.id);
    t.same(ids(await list({ status: 'open', brandId: op.brandId, risk: 'high' })), [high!.id], 'by risk');
    t.same(ids(await list({ status: 'open', rule: 'high_value' })), [medium!.id], 'by rule');
    t.same(ids(await list({ status: 'open', operatorId: 'op_nobody' })), [], 'by operator');
    t.same(ids(await list({ status: 'open', brandId: op.brandId, order: 'oldest' })), [high!.id, medium!.id], 'oldest first');
    t.same(ids(await list({ status: 'open', brandId: op.brandId })), [medium!.id, high!.id], 'newest first by default');
    t.same(ids(await list({ status: 'open', openedBefore: high!.openedAt })), [], 'by age: none opened before the oldest');
    const oldestFirst = ok(
      await s.call<{ data: Listed[]; nextCursor: string }>('compliance.admin.cases.list', {
        scope: as('a'),
        query: { status: 'open', brandId: op.brandId, order: 'oldest', limit: 1 },
      }),
    );
    const next = ok(
      await s.call<{ data: Listed[] }>('compliance.admin.cases.list', {
        scope: as('a'),
        query: { status: 'open', brandId: op.brandId, order: 'oldest', limit: 1, cursor: oldestFirst.nextCursor },
      }),
    );
    t.same([...ids(oldestFirst.data), ...ids(next.data)], [high!.id, medium!.id], 'pages follow the order');

    const [view] = await list({ status: 'open', brandId: op.brandId, risk: 'high' });
    t.match(
      view,
      { timeZone: 'America/Sao_Paulo', holdsPayouts: true, assignee: null, assignedAt: null },
      "the brand's zone; a high br-spa case holds payouts",
    );
    t.match((await list({ status: 'open', rule: 'high_value' }))[0], { holdsPayouts: false }, 'a medium one does not');

    const assign = (id: string, assignee: string | null, actor: string) =>
      s.call<Listed>('compliance.admin.cases.assign', { scope: as(actor), params: { id }, body: { assignee } });
    const taken = await assign(high!.id, 'me', 'alice@team');
    t.match(ok(taken), { id: high!.id, assignee: 'alice@team', assignedAt: /^\d{4}-/ }, '`me` is the caller');
    t.match(
      (await outboxAudits(s.db, 'compliance', `aml_case:${high!.id}`)).filter((a) => a.action === 'adminAssignAmlCase'),
      [{ actor: 'alice@team', before: { assignee: null }, after: { assignee: 'alice@team' } }],
      "audited in the assignment's transaction",
    );
    t.same(ids(await list({ status: 'open', assignee: 'me' }, 'alice@team')), [high!.id], 'my cases');
    t.same(ids(await list({ status: 'open', assignee: 'me' }, 'bob@team')), [], "not someone else's");
    t.same(ids(await list({ status: 'open', brandId: op.brandId, assignee: 'none' })), [medium!.id], 'nobody yet');
    t.match(ok(await assign(high!.id, null, 'bob@team')), { assignee: null, assignedAt: null }, 'given back to nobody');
    t.match(errorOf(await assign('aml_nope', 'me', 'alice@team')), { code: 'AML_CASE_NOT_FOUND' });
  });

  t.test('thresholds per brand', async (t) => {
    const got = ok(await s.call('compliance.admin.rules.get', { scope: as('a'), params: { brandId: op.brandId } }));
    t.match(got, { thresholds: { highValue: '50000.00', inAndOutHours: 48, inAndOutStakePercent: 30 }, updatedBy: null });
    const set = ok(
      await s.call('compliance.admin.rules.set', {
        scope: as('lead@team'),
        params: { brandId: op.brandId },
        body: { ...got.thresholds, highValue: '20000.00' },
      }),
    );
    t.match(set, { thresholds: { highValue: '20000.00' }, updatedBy: 'lead@team' });
    const r = await s.player(op);
    await s.deposit(op, r, '20000.00');
    await s.watched(r, 1);
    t.match(await s.cases(r), [{ rules: ['high_value'] }], "the brand's threshold applies");
  });
});
