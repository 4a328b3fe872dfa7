// SIGAP warned in time (issue #60 item 4), through the real services (real Postgres and NATS, the
// job's passes run at chosen instants): the daily job counts a brand as done only once its file ties
// (bo_daily_files_pending); the SIGAP job counts a brand whose yesterday is not accepted as due soon
// from 05:00 in the brand's own zone and overdue from 06:00 there (bo_sigap_files_due_soon,
// bo_sigap_files_overdue: the alerts SigapFilesDueSoon and SigapFilesNotAccepted); a production
// brand's files are not made without its operator's CNPJ, and every file carries it; the monthly
// report is made from the month's daily files and kept as versions.
import t from 'tap';
import type { FileChunk, SigapDay, SigapMonthlyReport, SigapOperator } from '@bo/contracts';
import { outboxAudits } from '@bo/test-support';
import type { SigapDeps } from '../../src/reports/sigap-files.ts';
import { makeYesterdaysFiles } from '../../src/reports/daily-job.ts';
import { sigapPass } from '../../src/reports/sigap-job.ts';
import { sigapSimulator } from '../../src/sigap/simulator.ts';
import { TEST_CNPJ, adminScope, errorOf, ok, startComplianceStack } from '../support/stack.ts';

// Manaus: UTC−4 all year, not São Paulo: the warnings are counted in the brand's own zone.
const ZONE = 'America/Manaus';

t.test('warnings at 05:00 and 06:00 in the brand zone, a file that does not tie pending, the CNPJ on every file', async (t) => {
  let clock: Date | undefined;
  const s = await startComplianceStack(t, 'amlsigapwarn', { now: () => clock ?? new Date() });
  const op = await s.brSpaOperator();
  ok(
    await s.call('players.admin.setCompliance', {
      scope: adminScope,
      params: { id: op.operatorId },
      body: { profile: 'br-spa', timeZone: ZONE, reason: 'the operator is licensed in Brazil' },
    }),
  );
  // No CNPJ registered yet (the stack registers one: taken away, as for a new operator; test-only edit).
  await s.db.query('delete from compliance.operator_cnpjs where operator_id = $1', [op.operatorId]);
  const p = await s.player(op);
  await s.deposit(op, p, '10.00');
  await s.watched(p, 1);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const at = (hhmm: string) => new Date(`${tomorrow}T${hhmm}:00-04:00`);
  const compliance = s.services.get('compliance')!;
  const simulator = sigapSimulator({ maxRecords: 7000 });
  const deps: SigapDeps = { sql: compliance.sql, call: compliance.call, ports: { production: simulator, sandbox: simulator }, recordsPerFile: 7000 };
  const getDay = () => s.call<SigapDay>('compliance.admin.sigap.day.get', { scope: adminScope, params: { brandId: op.brandId, date: today } });

  t.test('the daily job: a file that does not tie is not done', async (t) => {
    const pending: number[] = [];
    t.equal(await makeYesterdaysFiles(compliance, at('00:10'), (n) => pending.push(n)), 1, 'made');
    t.same(pending, [0], 'made and tied: done');
    const [line] = (
      await s.db.query(`delete from compliance.daily_file_lines where brand_id = $1 and date = $2 and part = 'deposits' returning *`, [op.brandId, today])
    ).rows;
    await s.db.query('update compliance.daily_reports set ties = null where brand_id = $1 and date = $2', [op.brandId, today]);
    t.equal(await makeYesterdaysFiles(compliance, at('00:15'), (n) => pending.push(n)), 0, 'nothing new to make');
    t.same(pending, [0, 1], 'its file no longer ties: pending (bo_daily_files_pending), checked again on every pass');
    await s.db.query('insert into compliance.daily_file_lines (brand_id, date, part, ref, player_id, at, data) values ($1, $2, $3, $4, $5, $6, $7)', [
      line.brand_id,
      line.date,
      line.part,
      line.ref,
      line.player_id,
      line.at,
      line.data,
    ]);
    await makeYesterdaysFiles(compliance, at('00:20'), (n) => pending.push(n));
    t.same(pending, [0, 1, 0], 'tied again: done');
  });

  t.test("a production brand's files wait for the operator's CNPJ; the warnings in the brand's zone", async (t) => {
    t.same(await sigapPass(deps, at('04:59')), { notAccepted: 1, dueSoon: 0, overdue: 0 }, '04:59 in Manaus: not accepted, no warning yet');
    const blocked = ok(await getDay());
    t.match(blocked, { dailyFileTies: true, files: [], problems: [/CNPJ is not registered/] }, 'no file without the CNPJ, and the day says why');
    t.same(await sigapPass(deps, at('05:00')), { notAccepted: 1, dueSoon: 1, overdue: 0 }, '05:00 in Manaus (not São Paulo): due soon');
    t.same(await sigapPass(deps, at('05:59')), { notAccepted: 1, dueSoon: 1, overdue: 0 });
    t.same(await sigapPass(deps, at('06:00')), { notAccepted: 1, dueSoon: 0, overdue: 1 }, '06:00 in Manaus: overdue');

    const set = (cnpj: string) =>
      s.call<SigapOperator>('compliance.admin.sigap.operator.set', {
        scope: { kind: 'admin', actor: 'ana@team' },
        params: { operatorId: op.operatorId },
        body: { cnpj, reason: 'from the licence' },
      });
    t.match(errorOf(await set('11.222.333/0001-80')), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/cnpj' }] } }, 'wrong check digits: refused');
    t.match(
      ok(await set('11.222.333/0001-81')),
      { operatorId: op.operatorId, cnpj: TEST_CNPJ, setBy: 'ana@team', reason: 'from the licence' },
      'registered, digits only',
    );
    t.match(ok(await s.call<SigapOperator>('compliance.admin.sigap.operator.get', { scope: adminScope, params: { operatorId: op.operatorId } })), {
      cnpj: TEST_CNPJ,
    });
    t.match(
      await outboxAudits(s.db, 'compliance', `sigap_operator:${op.operatorId}`),
      [{ action: 'adminSetSigapOperator', before: null, after: { cnpj: TEST_CNPJ } }],
      'audited',
    );

    t.same(await sigapPass(deps, at('06:05')), { notAccepted: 0, dueSoon: 0, overdue: 0 }, 'made, sent and accepted');
    const day = ok(await getDay());
    t.equal(day.files.length, 5, 'every type made');
    for (const f of day.files) {
      const chunk = ok<FileChunk>(
        await s.call('compliance.admin.sigap.file.download', { scope: adminScope, params: { brandId: op.brandId, date: today, fileId: f.id }, query: {} }),
      );
      const header = JSON.parse(chunk.chunk);
      t.equal(header.operatorCnpj, TEST_CNPJ, `${f.fileType}: the operator's CNPJ in its header`);
    }
  });

  t.test('the monthly report', async (t) => {
    const month = today.slice(0, 7);
    const make = () =>
      s.call<SigapMonthlyReport>('compliance.admin.sigap.monthly.make', {
        scope: { kind: 'admin', actor: 'ana@team' },
        params: { brandId: op.brandId, month },
      });
    clock = at('06:10');
    const [y, m] = month.split('-').map(Number) as [number, number];
    const nextMonth = `${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}`;
    if (tomorrow.slice(0, 7) === month)
      t.match(errorOf(await make()), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/month' }] } }, 'the month is not over: refused');
    else t.pass('the month is not over: refused (today is its last day: nothing to show)');
    clock = new Date(`${nextMonth}-01T12:00:00-04:00`);
    const v1 = ok(await make());
    t.match(
      v1,
      {
        brandId: op.brandId,
        month,
        version: 1,
        operatorId: op.operatorId,
        operatorCnpj: TEST_CNPJ,
        madeBy: 'ana@team',
        totals: [{ currency: 'BRL', accounts: 1, deposits: '10.00', withdrawals: '0.00', closingBalances: '10.00' }],
      },
      "made from the month's daily files, with the CNPJ",
    );
    t.equal(v1.days, new Date(Date.UTC(y, m, 0)).getUTCDate(), 'one daily file per day');
    t.match(JSON.parse(v1.content), { layout: 'sigap-assumed-monthly/1', operatorCnpj: TEST_CNPJ, referenceMonth: month }, 'the assumed layout');
    const v2 = ok(await make());
    t.equal(v2.version, 2, 'made again: a new version');
    const listed = ok(
      await s.call<{ versions: SigapMonthlyReport[] }>('compliance.admin.sigap.monthly.get', { scope: adminScope, params: { brandId: op.brandId, month } }),
    );
    t.same(
      listed.versions.map((v) => v.version),
      [2, 1],
      'both kept, newest first',
    );
  });
});
