// AML beyond the players (issue #46) on the admin API, through the real gateway (in-process, with the
// operators service: tokens, the audit log) and the team's CLI: the decision to report a case and the
// COS awaiting, the risk register (its decisions audited, compliance's alone), and the yearly report
// made, read with its hash and printed as the kept file byte for byte.
import t from 'tap';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { startGateway, loadGatewayConfig } from '@bo/gateway';
import { operatorsService } from '@bo/operators';
import { testNatsUrl, waitFor } from '@bo/service-kit/testing';
import { startComplianceStack } from '../support/stack.ts';

const ADMIN_TOKEN = 'test-admin-token-aml-duties-0123456789';
const CLI = path.resolve(import.meta.dirname, '../../../../scripts/admin-cli.ts');

t.test('AML duties on the admin API and the CLI', async (t) => {
  const s = await startComplianceStack(t, 'amldutiesapi');
  await s.start(operatorsService);
  const gw = await startGateway(
    loadGatewayConfig({
      DATABASE_URL: s.databaseUrl,
      NATS_URL: testNatsUrl(),
      NATS_PREFIX: s.prefix,
      PORT: '0',
      ADMIN_PORT: '0',
      ADMIN_TOKEN,
      RPC_TIMEOUT_MS: '30000',
      LOG_LEVEL: 'warn',
    }),
  );
  t.teardown(() => gw.stop());
  const api = async (method: string, p: string, body?: unknown, actor = 'ana', token = ADMIN_TOKEN) => {
    const res = await fetch(`${gw.adminUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'x-admin-actor': actor, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const cli = (actor: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ADMIN_URL: gw.adminUrl, ADMIN_TOKEN, ADMIN_ACTOR: actor } }, (err, stdout) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });

  const op = await s.brSpaOperator();
  const p = await s.player(op);
  await s.deposit(op, p, '1000.00');
  await s.withdraw(op, p, '990.00');
  await s.watched(p, 2);
  const [c] = await s.cases(p);
  t.equal((await api('POST', `/admin/aml/cases/${c!.id}/decision`, { status: 'under_review', reason: 'in and out' }, 'ana')).status, 200);

  t.test('the decision to report, and the COS awaiting', async (t) => {
    const mine = await cli('ana', 'aml', 'report-decision', c!.id, '--reason', 'me again');
    t.equal(mine.code, 1, 'the reviewer is refused');
    t.match(JSON.parse(mine.stdout), { error: { code: 'FOUR_EYES_REQUIRED' } });
    const decided = await cli('bia', 'aml', 'report-decision', c!.id, '--reason', 'no play at all');
    t.equal(decided.code, 0);
    t.match(JSON.parse(decided.stdout), { id: c!.id, status: 'under_review', cos: { decidedBy: 'stand-in:bia', state: 'due', filedAt: null } });
    const due = await cli('x', 'aml', 'cos-due');
    t.same(
      JSON.parse(due.stdout).data.map((x: { id: string }) => x.id),
      [c!.id],
      'aml cos-due lists it',
    );
    t.same(JSON.parse((await cli('x', 'aml', 'cos-due', '--overdue')).stdout).data, [], 'none overdue');
    await waitFor(
      async () => (await api('GET', `/admin/audit?target=aml_case:${c!.id}`)).body.data?.some((a: { action: string }) => a.action === 'adminAmlReportDecision'),
      {
        what: 'the report decision in the audit log',
      },
    );
    t.pass('the decision reaches the audit log');
  });

  t.test('the risk register', async (t) => {
    const added = await cli(
      'ana',
      'aml',
      'add-subject',
      '--kind',
      'supplier',
      '--name',
      'Pague Já IP Ltda',
      '--document',
      '12.345.678/0001-95',
      '--operator',
      op.operatorId,
      '--rating',
      'high',
      '--rationale',
      'PSP; adverse media',
    );
    t.equal(added.code, 0, 'registered');
    const subject = JSON.parse(added.stdout);
    t.match(subject, { kind: 'supplier', document: '12345678000195', rating: 'high', ratedBy: 'stand-in:ana' });
    const listed = JSON.parse((await cli('x', 'aml', 'subjects', '--kind', 'supplier', '--operator', op.operatorId)).stdout);
    t.same(
      listed.data.map((x: { id: string }) => x.id),
      [subject.id],
      'aml subjects lists it',
    );
    t.same(JSON.parse((await cli('x', 'aml', 'subjects', '--overdue')).stdout).data, [], 'no review past due');
    const rated = JSON.parse((await cli('bia', 'aml', 'rate-subject', subject.id, '--rating', 'low', '--rationale', 'cleared')).stdout);
    t.match(rated, { rating: 'low', ratedBy: 'stand-in:bia', history: [{ rating: 'high' }, { rating: 'low' }] });
    const ended = JSON.parse((await cli('bia', 'aml', 'end-subject', subject.id, '--reason', 'contract over')).stdout);
    t.match(ended, { status: 'ended', endReason: 'contract over' });
    t.match(JSON.parse((await cli('x', 'aml', 'subject', subject.id)).stdout), { id: subject.id, status: 'ended', history: [{}, {}] });
    await waitFor(async () => (await api('GET', `/admin/audit?target=aml_risk_subject:${subject.id}`)).body.data?.length === 3, {
      what: 'three audit rows of the subject',
    });
    const audit = (await api('GET', `/admin/audit?target=aml_risk_subject:${subject.id}`)).body.data as Array<{ action: string; actor: string }>;
    t.same(
      audit.map((a) => [a.action, a.actor]).sort(),
      [
        ['adminAddAmlRiskSubject', 'stand-in:ana'],
        ['adminEndAmlRiskSubject', 'stand-in:bia'],
        ['adminRateAmlRiskSubject', 'stand-in:bia'],
      ],
      'each change in the audit log, with who',
    );

    const finance = (await api('POST', '/admin/tokens', { name: 'finance-bot', role: 'finance' })).body.secret as string;
    for (const [method, p] of [
      ['GET', '/admin/aml/risk-subjects'],
      ['GET', '/admin/aml/annual-reports?year=2025'],
      ['POST', `/admin/aml/cases/${c!.id}/report-decision`],
    ] as const) {
      const refused = await api(method, p, method === 'POST' ? { reason: 'x' } : undefined, 'x', finance);
      t.match(refused, { status: 403, body: { error: { code: 'FORBIDDEN_ROLE' } } }, `${method} ${p}: compliance only`);
    }
  });

  t.test('the yearly report', async (t) => {
    const made = await cli('carla', 'aml', 'make-annual-report', op.operatorId, '--year', '2025');
    t.equal(made.code, 0, 'made (2025 is over)');
    const report = JSON.parse(made.stdout);
    t.match(report, { operatorId: op.operatorId, year: 2025, version: 1, verified: true, report: { cos: { filed: 0 }, noOccurrence: { applies: true } } });
    const file = await cli('x', 'aml', 'annual-report', op.operatorId, '--year', '2025', '--raw');
    t.equal(file.stdout, report.file, '--raw prints the kept file itself');
    t.equal(createHash('sha256').update(file.stdout, 'utf8').digest('hex'), report.sha256, 'whose SHA-256 is the one kept');
    const listed = JSON.parse((await cli('x', 'aml', 'annual-reports', '--year', '2025')).stdout);
    t.match(
      listed.data.find((x: { operatorId: string }) => x.operatorId === op.operatorId),
      { dueDate: '2026-02-01', versions: [{ version: 1, madeBy: 'stand-in:carla' }] },
    );
    const audit = await waitFor(
      async () => {
        const rows = (await api('GET', `/admin/audit?target=aml_annual_report:${op.operatorId}:2025`)).body.data;
        return rows?.length ? rows : undefined;
      },
      { what: 'the report in the audit log' },
    );
    t.match(
      audit,
      [{ action: 'adminMakeAmlAnnualReport', actor: 'stand-in:carla', after: { version: 1, sha256: report.sha256 } }],
      'audited in the transaction that kept it',
    );
    t.match(await api('POST', `/admin/aml/operators/${op.operatorId}/annual-reports`, { year: 2999 }), {
      status: 422,
      body: { error: { code: 'VALIDATION_ERROR' } },
    });
  });
});
