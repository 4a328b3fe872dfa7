// The COS deadline (issue #46) through the compliance service's admin operations (real Postgres and
// NATS, the service's clock moved): our team's decision to report a case under review (not by its
// reviewer) sets `cos.dueAt` at the end of the next business day in the brand's time zone; the case
// shows the time left, `GET /admin/aml/cases?cos=` lists the COS awaiting and overdue, the metric
// bo_aml_cos_awaiting counts them by state (at 0 from the start), a case decided for reporting is not
// dismissed, and filing it (reported, with the receipt) after the deadline marks it late.
import t from 'tap';
import type { AmlCase, AmlCaseSummary } from '@bo/contracts';
import { outboxAudits } from '@bo/test-support';
import { errorOf, ok, startComplianceStack } from '../support/stack.ts';

const as = (actor: string) => ({ kind: 'admin' as const, actor });
const HOUR = 3_600_000;

t.test('the COS deadline from the decision to report', async (t) => {
  let clock: Date | undefined;
  const s = await startComplianceStack(t, 'amlcos', { now: () => clock ?? new Date() });
  const metric = async () => (await s.services.get('compliance')!.metrics.getSingleMetricAsString('bo_aml_cos_awaiting')) as string;
  const count = (text: string, state: string) => Number(new RegExp(`bo_aml_cos_awaiting\\{state="${state}"[^}]*\\} (\\d+)`).exec(text)?.[1] ?? 'NaN');
  const start = await metric();
  t.same(
    ['due', 'near', 'overdue'].map((st) => count(start, st)),
    [0, 0, 0],
    'every state at 0 from the start',
  );

  const op = await s.brSpaOperator();
  const highCase = async () => {
    const p = await s.player(op);
    await s.deposit(op, p, '1000.00');
    await s.withdraw(op, p, '900.00');
    await s.watched(p, 2);
    return (await s.cases(p))[0]!;
  };
  const decide = (id: string, body: Record<string, unknown>, actor: string) =>
    s.call<AmlCase>('compliance.admin.cases.decide', { scope: as(actor), params: { id }, body });
  const decideReport = (id: string, reason: string, actor: string) =>
    s.call<AmlCase>('compliance.admin.cases.decideReport', { scope: as(actor), params: { id }, body: { reason } });
  const list = async (query: Record<string, unknown>) =>
    ok<{ data: AmlCaseSummary[] }>(await s.call('compliance.admin.cases.list', { scope: as('x@team'), query })).data;

  const c = await highCase();
  t.equal(c.cos, null, 'no COS deadline before a decision to report');

  t.test('who may decide to report, and when', async (t) => {
    t.match(errorOf(await decideReport(c.id, 'looks bad', 'bob@team')), { code: 'AML_CASE_INVALID_TRANSITION' }, 'an open case is reviewed first');
    ok(await decide(c.id, { status: 'under_review', reason: 'in and out, no play' }, 'alice@team'));
    t.match(errorOf(await decideReport(c.id, 'report it', 'alice@team')), { code: 'FOUR_EYES_REQUIRED' }, 'not by its reviewer');
    t.match(errorOf(await decideReport('aml_nope', 'x', 'bob@team')), { code: 'AML_CASE_NOT_FOUND' });
  });

  t.test('the decision sets the deadline; the case shows the time left', async (t) => {
    clock = new Date('2026-11-19T18:00:00.000Z'); // Thursday 15:00 in Brasília; Friday 20 November is a holiday
    const decided = ok(await decideReport(c.id, 'no economic reason for the round trip', 'bob@team'));
    t.equal(decided.status, 'under_review', 'the case stays under review until filed');
    t.same(
      decided.cos,
      {
        decidedAt: '2026-11-19T18:00:00.000Z',
        decidedBy: 'bob@team',
        reason: 'no economic reason for the round trip',
        dueAt: '2026-11-24T03:00:00.000Z',
        filedAt: null,
        state: 'due',
        secondsLeft: (Date.parse('2026-11-24T03:00:00.000Z') - clock.getTime()) / 1000,
      },
      'due as Monday 23 ends in Brasília (the holiday and the weekend are not business days)',
    );
    t.equal(decided.holdsPayouts, true, 'the payout hold stays while the COS is being filed');
    t.match(errorOf(await decideReport(c.id, 'again', 'carol@team')), { code: 'AML_CASE_INVALID_TRANSITION' }, 'decided once');
    const [audit] = await outboxAudits(s.db, 'compliance', `aml_case:${c.id}`).then((rows) => rows.filter((a) => a.action === 'adminAmlReportDecision'));
    t.match(
      audit,
      { actor: 'bob@team', after: { reason: 'no economic reason for the round trip', cos: { dueAt: '2026-11-24T03:00:00.000Z' } } },
      'audited in its transaction',
    );
    t.same(
      (await list({ cos: 'awaiting' })).map((x) => x.id),
      [c.id],
      'listed as awaiting',
    );
    t.same(await list({ cos: 'overdue' }), [], 'not overdue yet');
    const m = await metric();
    t.same([count(m, 'due'), count(m, 'near'), count(m, 'overdue')], [1, 0, 0], 'counted as due');
  });

  t.test('near, then overdue', async (t) => {
    clock = new Date(Date.parse('2026-11-24T03:00:00.000Z') - 3 * HOUR);
    const near = ok(await s.call<AmlCase>('compliance.admin.cases.get', { scope: as('x@team'), params: { id: c.id } }));
    t.match(near.cos, { state: 'near', secondsLeft: 3 * 3600 }, 'less than COS_NEAR_MS (4 h) left');
    t.equal(count(await metric(), 'near'), 1, 'counted as near');
    clock = new Date(Date.parse('2026-11-24T03:00:00.000Z') + 90_000);
    const late = ok(await s.call<AmlCase>('compliance.admin.cases.get', { scope: as('x@team'), params: { id: c.id } }));
    t.match(late.cos, { state: 'overdue', secondsLeft: -90 }, 'overdue by a minute and a half');
    t.same(
      (await list({ cos: 'overdue' })).map((x) => x.id),
      [c.id],
      'listed as overdue',
    );
    const m = await metric();
    t.same([count(m, 'due'), count(m, 'near'), count(m, 'overdue')], [0, 0, 1], 'counted as overdue (AmlCosOverdue fires on it)');
  });

  t.test('decided for reporting: reported, not dismissed; filed late is marked', async (t) => {
    t.match(errorOf(await decide(c.id, { status: 'dismissed', reason: 'changed my mind' }, 'carol@team')), { code: 'AML_CASE_INVALID_TRANSITION' });
    t.match(
      errorOf(await decide(c.id, { status: 'reported', reason: 'filed', receipt: 'R-1' }, 'alice@team')),
      { code: 'FOUR_EYES_REQUIRED' },
      'still four eyes',
    );
    const filed = ok(await decide(c.id, { status: 'reported', reason: 'filed with Siscoaf', receipt: 'SISCOAF-2026-0042' }, 'carol@team'));
    t.match(filed, { status: 'reported', receipt: 'SISCOAF-2026-0042', holdsPayouts: false });
    t.match(filed.cos, { decidedBy: 'bob@team', filedAt: clock!.toISOString(), state: 'filed_late', secondsLeft: null }, 'filed after its deadline: late');
    t.same(await list({ cos: 'awaiting' }), [], 'no longer awaiting');
    const m = await metric();
    t.same([count(m, 'due'), count(m, 'near'), count(m, 'overdue')], [0, 0, 0], 'the metric back at 0');
  });

  t.test('reported straight from review: decided and filed at once, on time', async (t) => {
    clock = undefined;
    const d = await highCase();
    ok(await decide(d.id, { status: 'under_review', reason: 'a look' }, 'alice@team'));
    const filed = ok(await decide(d.id, { status: 'reported', reason: 'filed at once', receipt: 'SISCOAF-2026-0043' }, 'bob@team'));
    t.ok(filed.cos && filed.cos.decidedAt === filed.cos.filedAt, 'decided as it was filed');
    t.match(filed.cos, { decidedBy: 'bob@team', reason: 'filed at once', state: 'filed' });
    t.ok(Date.parse(filed.cos!.dueAt) > Date.parse(filed.cos!.filedAt!), 'its deadline after the filing');
  });
});
