// AML deadlines and duties (issue #60 item 5) through the compliance service's admin operations (real
// Postgres and NATS, the service's clock moved): every case carries its alert's 30-day analysis clock
// (due, near, overdue; concluded by the decision), in the queue too, and bo_aml_case_analysis counts
// the running ones by state; the yearly internal risk assessment is kept as versions (a change says
// what changed) and the yearly report names it with the narrative our team wrote; the risk register's
// subjects are screened for PEP and sanctions like players (a hit rates them high, at registration,
// at a review and when a list changes).
import t from 'tap';
import type { AmlAnnualReport, AmlCase, AmlCaseSummary, RiskAssessment, RiskSubjectWithHistory } from '@bo/contracts';
import { outboxAudits } from '@bo/test-support';
import { errorOf, ok, startComplianceStack } from '../support/stack.ts';

const as = (actor: string) => ({ kind: 'admin' as const, actor });
const DAY = 86_400_000;

t.test('the analysis clock, the risk assessment, the narrative and the screening of the register', async (t) => {
  let clock: Date | undefined;
  const s = await startComplianceStack(t, 'amldeadl', { now: () => clock ?? new Date() });
  const metric = async () => (await s.services.get('compliance')!.metrics.getSingleMetricAsString('bo_aml_case_analysis')) as string;
  const count = (text: string, state: string) => Number(new RegExp(`bo_aml_case_analysis\\{state="${state}"[^}]*\\} (\\d+)`).exec(text)?.[1] ?? 'NaN');
  const counts = async () => {
    const text = await metric();
    return ['due', 'near', 'overdue'].map((st) => count(text, st));
  };
  t.same(await counts(), [0, 0, 0], 'bo_aml_case_analysis: every state at 0 from the start');
  const op = await s.brSpaOperator();
  const call = <T>(subject: string, actor: string, req: Record<string, unknown> = {}) => s.call<T>(subject, { scope: as(actor), ...req });

  t.test("every alert's 30-day analysis clock, on the case and in the queue", async (t) => {
    const p = await s.player(op);
    await s.deposit(op, p, '1000.00');
    await s.withdraw(op, p, '900.00');
    await s.watched(p, 2);
    const [opened] = await s.cases(p);
    const openedAt = Date.parse(opened!.openedAt);
    const dueAt = new Date(openedAt + 30 * DAY).toISOString();
    clock = new Date(openedAt + DAY);
    const read = () => call<AmlCase>('compliance.admin.cases.get', 'x@team', { params: { id: opened!.id } }).then(ok<AmlCase>);
    t.same(
      (await read()).analysis,
      { startedAt: opened!.openedAt, dueAt, concludedAt: null, state: 'due', secondsLeft: 29 * 86_400 },
      'a day after the alert: 29 days left',
    );
    const queue = ok<{ data: AmlCaseSummary[] }>(await call('compliance.admin.cases.list', 'x@team', { query: { playerId: p } })).data;
    t.match(queue, [{ id: opened!.id, analysis: { dueAt, state: 'due' } }], 'the queue shows it too');
    t.same(await counts(), [1, 0, 0], 'counted as due');

    clock = new Date(openedAt + 26 * DAY);
    t.match((await read()).analysis, { state: 'near', secondsLeft: 4 * 86_400 }, 'under 5 days left: near');
    t.same(await counts(), [0, 1, 0], 'counted as near (AmlCaseAnalysisNearDeadline)');

    clock = new Date(openedAt + 31 * DAY);
    t.match((await read()).analysis, { state: 'overdue', secondsLeft: -86_400 }, 'past the 30 days: overdue');
    t.same(await counts(), [0, 0, 1], 'counted as overdue (AmlCaseAnalysisOverdue)');

    ok(await call('compliance.admin.cases.decide', 'alice@team', { params: { id: opened!.id }, body: { status: 'under_review', reason: 'looking' } }));
    t.same(await counts(), [0, 0, 1], 'under review: still running');
    ok(await call('compliance.admin.cases.decideReport', 'bob@team', { params: { id: opened!.id }, body: { reason: 'no economic reason' } }));
    t.match(
      (await read()).analysis,
      { state: 'concluded_late', concludedAt: clock.toISOString(), secondsLeft: null },
      'concluded by the decision to report, late',
    );
    t.same(await counts(), [0, 0, 0], 'no longer counted');
  });

  t.test('the yearly internal risk assessment, versioned, and the annual report with its narrative', async (t) => {
    clock = new Date('2026-03-10T12:00:00.000Z');
    const content = {
      assessedOn: '2026-03-09',
      approvedBy: 'Marta Lima, compliance director',
      methodology: 'Likelihood and impact per area, from the last year of cases and the products on offer.',
      risks: [
        {
          area: 'payment methods',
          description: 'PIX deposits from third parties',
          likelihood: 'medium',
          impact: 'high',
          controls: 'payer CPF checked',
          residual: 'low',
        },
      ],
      conclusions: 'Overall risk medium.',
    };
    const save = (body: Record<string, unknown>, actor = 'ana@team') =>
      call<RiskAssessment>('compliance.admin.riskAssessments.save', actor, { params: { operatorId: op.operatorId }, body });
    const list = () =>
      call<{ currentYearAssessed: boolean; currentYear: number; data: RiskAssessment[] }>('compliance.admin.riskAssessments.list', 'x@team', {
        params: { operatorId: op.operatorId },
      }).then(ok);
    t.match(await list(), { currentYear: 2026, currentYearAssessed: false, data: [] }, 'none yet: the year is not assessed');
    t.match(
      errorOf(await save({ year: 2026, ...content, change: 'x' })),
      { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/change' }] } },
      'the first version changes nothing',
    );
    t.match(errorOf(await save({ year: 2026, ...content, assessedOn: '2026-02-30' })), {
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: '/assessedOn' }] },
    });
    const v1 = ok(await save({ year: 2026, ...content }));
    t.match(v1, {
      operatorId: op.operatorId,
      year: 2026,
      version: 1,
      change: null,
      madeBy: 'ana@team',
      assessedOn: '2026-03-09',
      risks: [{ residual: 'low' }],
    });
    t.match(
      errorOf(await save({ year: 2026, ...content })),
      { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/change' }] } },
      'a change says what changed',
    );
    const v2 = ok(await save({ year: 2026, ...content, conclusions: 'Overall risk medium; PIX high.', change: 'PIX re-rated after Q1' }, 'bia@team'));
    t.match(v2, { version: 2, change: 'PIX re-rated after Q1', madeBy: 'bia@team' });
    const listed = await list();
    t.match(listed, { currentYearAssessed: true }, 'the year is assessed');
    t.same(
      listed.data.map((a) => a.version),
      [2, 1],
      'every version kept, newest first',
    );
    t.match(
      await outboxAudits(s.db, 'compliance', `aml_risk_assessment:${op.operatorId}:2026`),
      [{ action: 'adminSaveAmlRiskAssessment' }, { action: 'adminSaveAmlRiskAssessment', before: { version: 1 }, after: { version: 2 } }],
      'each version audited',
    );

    clock = new Date('2027-01-20T12:00:00.000Z');
    const narrative = { practices: 'KYC at sign-up, PEP screening, rules watch; a COS filed within a day.', training: 'Two sessions for the support team.' };
    const made = ok<AmlAnnualReport>(
      await call('compliance.admin.annualReports.make', 'carla@team', { params: { operatorId: op.operatorId }, body: { year: 2026, narrative } }),
    );
    t.same(made.report!.narrative, narrative, 'the narrative part, as written');
    t.same(made.report!.riskAssessment, { year: 2026, version: 2, assessedOn: '2026-03-09' }, 'and the risk assessment in force');
    const bare = ok<AmlAnnualReport>(
      await call('compliance.admin.annualReports.make', 'carla@team', { params: { operatorId: op.operatorId }, body: { year: 2026 } }),
    );
    t.equal(bare.report!.narrative, null, 'a version without it says so');
    t.match(
      errorOf(
        await call('compliance.admin.annualReports.make', 'carla@team', {
          params: { operatorId: op.operatorId },
          body: { year: 2026, narrative: { training: 'x' } },
        }),
      ),
      { code: 'VALIDATION_ERROR' },
      'the practices are required in a narrative',
    );
  });

  t.test('the risk register screened for PEP and sanctions like players', async (t) => {
    clock = new Date('2027-02-10T12:00:00.000Z');
    const add = (body: Record<string, unknown>) => call<RiskSubjectWithHistory>('compliance.admin.riskSubjects.add', 'ana@team', { body });
    const pep = ok(
      await call('compliance.admin.screening.add', 'ana@team', {
        body: { list: 'pep', cpf: '52998224725', name: 'Afonso Deputado', detail: 'federal deputy' },
      }),
    );
    t.ok(pep, 'a PEP on the list');
    const partner = ok(
      await add({ kind: 'partner', operatorId: op.operatorId, name: 'Afonso Deputado', document: '529.982.247-25', rating: 'low', rationale: 'affiliate' }),
    );
    t.match(
      partner,
      {
        rating: 'high',
        rationale: /affiliate \[rated high, not low: on the pep list at screening\]/,
        screening: { state: 'hit', lists: ['pep'], hits: [{ list: 'pep', detail: 'federal deputy' }], screenedAt: clock.toISOString() },
        history: [{ rating: 'high' }],
      },
      'registered: screened, on the PEP list, rated high',
    );
    const supplier = ok(
      await add({ kind: 'supplier', operatorId: op.operatorId, name: 'Clean Supplier', document: '11144477735', rating: 'low', rationale: 'hosting' }),
    );
    t.match(supplier, { rating: 'low', screening: { state: 'clear', lists: [], screenedAt: clock.toISOString() } }, 'a clear one keeps its rating');
    const nameOnly = ok(
      await add({ kind: 'team_member', name: 'Clara (support)', teamMemberId: `usr_${'0123456789abcdef'.repeat(2)}`, rating: 'medium', rationale: 'new hire' }),
    );
    t.match(nameOnly, { screening: { state: 'not_screened', screenedAt: null } }, 'without a document: not screened, and says so');

    // A list change screens the register again: the supplier is now sanctioned.
    ok(
      await call('compliance.admin.screening.add', 'ana@team', { body: { list: 'sanctions', cpf: '11144477735', name: 'Clean Supplier', detail: 'OFAC SDN' } }),
    );
    const after = ok(await call<RiskSubjectWithHistory>('compliance.admin.riskSubjects.get', 'x@team', { params: { id: supplier.id } }));
    t.match(
      after,
      {
        rating: 'high',
        ratedBy: 'screening',
        screening: { state: 'hit', lists: ['sanctions'] },
        history: [{ rating: 'low' }, { rating: 'high', ratedBy: 'screening' }],
      },
      'a list change: screened again, rated high, the rating kept in its history',
    );
    // A review screens again too: rated low by a person, still on the list, it stays high.
    const reviewed = ok(
      await call<RiskSubjectWithHistory>('compliance.admin.riskSubjects.rate', 'bia@team', {
        params: { id: partner.id },
        body: { rating: 'low', rationale: 'reviewed' },
      }),
    );
    t.match(reviewed, { rating: 'high', screening: { state: 'hit' } }, 'a review of a subject still on a list: high');
  });
});
