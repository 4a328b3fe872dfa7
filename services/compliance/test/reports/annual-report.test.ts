// The risk register of team members, partners and suppliers and the yearly AML report to the SPA
// (issue #46), through the compliance service's admin operations (real Postgres and NATS, the
// service's clock moved): a subject registered with its first rating and review date, reviewed,
// listed with the overdue reviews first, ended (kept), refused twice; the year's report refused
// before the year is over, its due dates shown before it is made, the operators without it counted
// by bo_aml_annual_reports_overdue past 1 February, made from the year's cases, COS and register,
// kept with its SHA-256 (versions, the hash checked on every read), and the "no occurrence"
// statement for an operator that filed no COS.
import t from 'tap';
import { createHash } from 'node:crypto';
import type { AmlAnnualReport, AmlAnnualReportStatus, AmlCase, RiskSubject, RiskSubjectWithHistory } from '@bo/contracts';
import { outboxAudits } from '@bo/test-support';
import { waitFor } from '@bo/service-kit/testing';
import { errorOf, ok, startComplianceStack } from '../support/stack.ts';

const as = (actor: string) => ({ kind: 'admin' as const, actor });
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const TEAM_MEMBER = `usr_${'0123456789abcdef'.repeat(2)}`;

t.test('the risk register and the yearly report', async (t) => {
  let clock: Date | undefined;
  const s = await startComplianceStack(t, 'amlyear', { now: () => clock ?? new Date(), config: { AML_DUTIES_INTERVAL_MS: 1000 } });
  const call = <T>(subject: string, actor: string, req: Record<string, unknown> = {}) => s.call<T>(subject, { scope: as(actor), ...req });
  const overdueGauge = async () =>
    Number(
      /bo_aml_annual_reports_overdue\{[^}]*\} (\d+)/.exec(
        await s.services.get('compliance')!.metrics.getSingleMetricAsString('bo_aml_annual_reports_overdue'),
      )?.[1],
    );
  const reviewsGauge = async () => await s.services.get('compliance')!.metrics.getSingleMetricAsString('bo_aml_risk_reviews_overdue');
  t.equal(await overdueGauge(), 0, 'bo_aml_annual_reports_overdue at 0 from the start');
  t.match(await reviewsGauge(), /bo_aml_risk_reviews_overdue\{kind="supplier"[^}]*\} 0/, 'bo_aml_risk_reviews_overdue at 0 from the start');

  const op = await s.brSpaOperator();
  let supplier: RiskSubjectWithHistory;

  t.test('the risk register', async (t) => {
    clock = new Date('2026-03-10T12:00:00.000Z');
    const add = (body: Record<string, unknown>, actor = 'ana@team') => call<RiskSubjectWithHistory>('compliance.admin.riskSubjects.add', actor, { body });
    supplier = ok(
      await add({
        kind: 'supplier',
        operatorId: op.operatorId,
        name: 'Pague Já Instituição de Pagamento Ltda',
        document: '12.345.678/0001-95',
        rating: 'high',
        rationale: 'PSP of the operator; adverse media in 2025',
      }),
    );
    t.match(
      supplier,
      {
        kind: 'supplier',
        operatorId: op.operatorId,
        document: '12345678000195',
        status: 'active',
        rating: 'high',
        ratedBy: 'ana@team',
        ratedAt: '2026-03-10T12:00:00.000Z',
        reviewDueAt: '2026-09-10T12:00:00.000Z',
        reviewOverdue: false,
        history: [{ rating: 'high', ratedBy: 'ana@team', reviewDueAt: '2026-09-10T12:00:00.000Z' }],
      },
      'registered with its first rating; a high rating is reviewed in 6 months',
    );
    const member = ok(
      await add({ kind: 'team_member', name: 'Clara (compliance officer)', teamMemberId: TEAM_MEMBER, rating: 'low', rationale: 'background checked' }),
    );
    t.match(member, { operatorId: null, teamMemberId: TEAM_MEMBER, reviewDueAt: '2028-03-10T12:00:00.000Z' }, 'one of ours, low: reviewed in 24 months');
    const partner = ok(
      await add({ kind: 'partner', operatorId: op.operatorId, name: 'Afiliado Gol', document: '52998224725', rating: 'medium', rationale: 'affiliate' }),
    );
    t.equal(partner.reviewDueAt, '2027-03-10T12:00:00.000Z', 'medium: 12 months');

    const twice = await add({ kind: 'supplier', operatorId: op.operatorId, name: 'Same PSP', document: '12345678000195', rating: 'low', rationale: 'again' });
    t.match(
      errorOf(twice),
      { code: 'AML_RISK_SUBJECT_CONFLICT', details: { subjectId: supplier.id } },
      'the same document twice for the operator: named, not registered',
    );
    t.match(errorOf(await add({ kind: 'supplier', name: 'No document', rating: 'low', rationale: 'x' })), {
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: '/document' }] },
    });
    t.match(errorOf(await call('compliance.admin.riskSubjects.get', 'ana@team', { params: { id: 'rsk_nope' } })), { code: 'AML_RISK_SUBJECT_NOT_FOUND' });

    // Past the supplier's review date: listed first as overdue, counted by the metric.
    clock = new Date('2026-10-01T12:00:00.000Z');
    const overdue = ok(await call<{ data: RiskSubject[] }>('compliance.admin.riskSubjects.list', 'ana@team', { query: { reviewDue: 'overdue' } }));
    t.same(
      overdue.data.map((x) => [x.id, x.reviewOverdue]),
      [[supplier.id, true]],
      'only the supplier is past its review',
    );
    const all = ok(await call<{ data: RiskSubject[]; nextCursor: string | null }>('compliance.admin.riskSubjects.list', 'ana@team', { query: { limit: 2 } }));
    t.same(
      all.data.map((x) => x.id),
      [supplier.id, partner.id],
      'the review due first',
    );
    const rest = ok(await call<{ data: RiskSubject[] }>('compliance.admin.riskSubjects.list', 'ana@team', { query: { limit: 2, cursor: all.nextCursor } }));
    t.same(
      rest.data.map((x) => x.id),
      [member.id],
      'the next page',
    );
    t.match(
      errorOf(await call('compliance.admin.riskSubjects.list', 'ana@team', { query: { limit: 2, cursor: all.nextCursor, kind: 'supplier' } })),
      { code: 'VALIDATION_ERROR' },
      "a cursor of another filter's list is refused",
    );
    t.match(await reviewsGauge(), /bo_aml_risk_reviews_overdue\{kind="supplier"[^}]*\} 1/, 'bo_aml_risk_reviews_overdue counts it');

    const reviewed = ok(
      await call<RiskSubjectWithHistory>('compliance.admin.riskSubjects.rate', 'bia@team', {
        params: { id: supplier.id },
        body: { rating: 'medium', rationale: 'media cleared; contract renewed with AML clause' },
      }),
    );
    t.match(
      reviewed,
      { rating: 'medium', ratedBy: 'bia@team', reviewDueAt: '2027-10-01T12:00:00.000Z', reviewOverdue: false },
      'reviewed: its next review date',
    );
    t.same(
      reviewed.history.map((h) => [h.rating, h.ratedBy]),
      [
        ['high', 'ana@team'],
        ['medium', 'bia@team'],
      ],
      'every rating kept',
    );
    t.match(await reviewsGauge(), /bo_aml_risk_reviews_overdue\{kind="supplier"[^}]*\} 0/, 'no longer overdue');
    const audits = await outboxAudits(s.db, 'compliance', `aml_risk_subject:${supplier.id}`);
    t.same(
      audits.map((a) => [a.action, a.actor]),
      [
        ['adminAddAmlRiskSubject', 'ana@team'],
        ['adminRateAmlRiskSubject', 'bia@team'],
      ],
      'each change audited in its transaction',
    );

    const ended = ok(
      await call<RiskSubjectWithHistory>('compliance.admin.riskSubjects.end', 'bia@team', { params: { id: partner.id }, body: { reason: 'contract ended' } }),
    );
    t.match(ended, { status: 'ended', endedBy: 'bia@team', endReason: 'contract ended', reviewOverdue: false });
    t.match(
      errorOf(await call('compliance.admin.riskSubjects.rate', 'bia@team', { params: { id: partner.id }, body: { rating: 'low', rationale: 'x' } })),
      { code: 'AML_RISK_SUBJECT_CONFLICT' },
      'an ended subject is not reviewed',
    );
    const endedList = ok(await call<{ data: RiskSubject[] }>('compliance.admin.riskSubjects.list', 'ana@team', { query: { status: 'ended' } }));
    t.same(
      endedList.data.map((x) => x.id),
      [partner.id],
      'kept, listed as ended',
    );
    supplier = reviewed;
  });

  t.test('the yearly report', async (t) => {
    // The operator's 2026: one case reported (its COS filed on time), one dismissed; a second operator with money and no case.
    clock = undefined;
    const caseOf = async (scope: typeof op) => {
      const p = await s.player(scope);
      await s.deposit(scope, p, '1000.00');
      await s.withdraw(scope, p, '950.00');
      await s.watched(p, 2);
      return (await s.cases(p))[0]!;
    };
    const decide = (id: string, body: Record<string, unknown>, actor: string) =>
      call<AmlCase>('compliance.admin.cases.decide', actor, { params: { id }, body });
    const reported = await caseOf(op);
    ok(await decide(reported.id, { status: 'under_review', reason: 'look' }, 'ana@team'));
    ok(await call('compliance.admin.cases.decideReport', 'bia@team', { params: { id: reported.id }, body: { reason: 'report it' } }));
    ok(await decide(reported.id, { status: 'reported', reason: 'filed', receipt: 'SISCOAF-2026-7' }, 'bia@team'));
    const dismissed = await caseOf(op);
    ok(await decide(dismissed.id, { status: 'under_review', reason: 'look' }, 'bia@team'));
    ok(await decide(dismissed.id, { status: 'dismissed', reason: 'salary, documented' }, 'ana@team'));
    const quiet = await s.brSpaOperator();
    const qp = await s.player(quiet);
    await s.deposit(quiet, qp, '50.00');
    await s.watched(qp, 1);

    const make = (operatorId: string, year: number, actor = 'ana@team') =>
      call<AmlAnnualReport>('compliance.admin.annualReports.make', actor, { params: { operatorId }, body: { year } });
    const get = (operatorId: string, year: number, version?: number) =>
      call<AmlAnnualReport>('compliance.admin.annualReports.get', 'ana@team', {
        params: { operatorId, year: String(year) },
        query: version ? { version } : {},
      });

    clock = new Date('2026-12-20T12:00:00.000Z');
    t.match(errorOf(await make(op.operatorId, 2026)), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/year' }] } }, 'not before the year is over');
    const before = ok(await get(op.operatorId, 2026));
    t.match(
      before,
      {
        state: 'not_made',
        timeZone: 'America/Sao_Paulo',
        dueDate: '2027-02-01',
        dueAt: '2027-02-02T03:00:00.000Z',
        noOccurrenceDueDate: '2027-01-29',
        versions: [],
        version: null,
        report: null,
      },
      'its due dates shown before it is made',
    );

    // Past 1 February 2027 in Brasília: both operators' 2026 reports are overdue.
    clock = new Date('2027-02-02T03:00:01.000Z');
    await waitFor(async () => (await overdueGauge()) === 2, { what: 'bo_aml_annual_reports_overdue at 2' });
    t.pass('bo_aml_annual_reports_overdue counts the two operators without their report');
    const listed = ok(await call<{ data: AmlAnnualReportStatus[] }>('compliance.admin.annualReports.list', 'ana@team', { query: { year: 2026 } }));
    t.same(
      listed.data.map((x) => [x.operatorId, x.state]).sort(),
      [
        [op.operatorId, 'overdue'],
        [quiet.operatorId, 'overdue'],
      ].sort(),
      'listed as overdue',
    );

    const made = ok(await make(op.operatorId, 2026, 'carla@team'));
    t.match(made, { state: 'made_late', version: 1, verified: true, versions: [{ version: 1, madeBy: 'carla@team' }] }, 'made, after its due date');
    t.equal(made.sha256, sha256(made.file!), 'kept with the SHA-256 of its file');
    t.same(JSON.parse(made.file!), made.report, 'the file is the report');
    t.match(
      made.report,
      {
        layout: 'bo-aml-annual-report/1',
        operatorId: op.operatorId,
        year: 2026,
        from: '2026-01-01T03:00:00.000Z',
        to: '2027-01-01T03:00:00.000Z',
        madeBy: 'carla@team',
        brands: [op.brandId],
        cases: { opened: 2, openedByRisk: { high: 2, medium: 0, low: 0 }, reported: 1, dismissed: 1, activeAtYearEnd: 0 },
        cos: { decided: 1, filed: 1, filedLate: 0, awaitingAtYearEnd: 0, filings: [{ caseId: reported.id, receipt: 'SISCOAF-2026-7', late: false }] },
        riskRegister: {
          supplier: { medium: 1, high: 0, low: 0 },
          team_member: { low: 1 },
          partner: { medium: 0, low: 0, high: 0 },
          reviewsOverdue: 0,
          ratedInYear: 4,
        },
        noOccurrence: { applies: false, statement: null, dueDate: '2027-01-29' },
      },
      "the year's cases, COS and register",
    );
    t.equal(made.report!.cases.openedByRule.in_and_out, 2, 'by rule');
    t.match(
      await outboxAudits(s.db, 'compliance', `aml_annual_report:${op.operatorId}:2026`),
      [{ action: 'adminMakeAmlAnnualReport', before: null, after: { version: made.version, sha256: made.sha256 } }],
      'audited in the transaction that kept it, through the outbox',
    );
    await waitFor(async () => (await overdueGauge()) === 1, { what: 'bo_aml_annual_reports_overdue at 1' });
    t.pass('one operator left without its report');

    const none = ok(await make(quiet.operatorId, 2026));
    t.match(
      none.report,
      {
        cases: { opened: 0 },
        cos: { filed: 0 },
        noOccurrence: {
          applies: true,
          statement: `Operator ${quiet.operatorId} filed no communication of a suspicious operation with COAF in 2026 (Portaria SPA/MF 1.143/2024, art. 30).`,
        },
      },
      'no COS filed: the "no occurrence" statement',
    );
    await waitFor(async () => (await overdueGauge()) === 0, { what: 'bo_aml_annual_reports_overdue back at 0' });
    t.pass('every operator has its report');

    const again = ok(await make(op.operatorId, 2026));
    t.match(again, { version: 2, versions: [{ version: 2 }, { version: 1 }], state: 'made_late' }, 'made again: a new version, the first kept');
    t.match(ok(await get(op.operatorId, 2026, 1)), { version: 1, sha256: made.sha256, verified: true }, 'the first version as it was');
    await s.db.query(`update compliance.annual_reports set file = replace(file, '"reported": 1', '"reported": 0') where operator_id = $1 and version = 1`, [
      op.operatorId,
    ]);
    t.match(ok(await get(op.operatorId, 2026, 1)), { version: 1, verified: false }, 'a kept file altered no longer hashes to its SHA-256');
    t.match(errorOf(await get(op.operatorId, 2026, 9)), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/version' }] } });
    const bad = (operatorId: string, year: string) => call('compliance.admin.annualReports.get', 'ana@team', { params: { operatorId, year }, query: {} });
    t.match(
      errorOf(await bad(op.operatorId, '1999')),
      { code: 'VALIDATION_ERROR', details: { in: 'path', issues: [{ path: '/year' }] } },
      'a year before 2020',
    );
    t.match(errorOf(await bad('x', '2026')), { code: 'VALIDATION_ERROR', details: { in: 'path', issues: [{ path: '/operatorId' }] } }, "not an operator's id");
  });
});
