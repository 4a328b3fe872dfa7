// The daily regulator file's ledger part through the real services: a day with deposits, game
// rounds and a paid withdrawal ties to the ledger (each account's opening plus the day's movements
// is its closing, and the kept file equals the ledger); a corrupted row of the kept file makes the
// check fail; a day not over is refused; the scheduled job makes yesterday's files. The service's
// clock is moved past the day; the money moves at real time.
import t from 'tap';
import type { DailyFile, Wallet } from '@bo/contracts';
import { makeYesterdaysFiles } from '../../src/reports/daily-job.ts';
import { adminScope, errorOf, key, ok, startComplianceStack } from '../support/stack.ts';

t.test('the daily file ties to the ledger, and a corrupted row does not', async (t) => {
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);
  const s = await startComplianceStack(t, 'amldaily', { now: clock });
  const op = await s.brSpaOperator();
  // A zone where it is about noon now, so every movement below falls on the same local day.
  const offset = 12 - new Date().getUTCHours();
  const timeZone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  const date = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

  const a = await s.player(op);
  const b = await s.player(op);
  await s.deposit(op, a, '100.00');
  await s.deposit(op, b, '50.00');
  await s.play(op, a, '10.00', 3);
  const w = await s.withdraw(op, a, '30.00');
  ok(
    await s.call('payments.admin.withdrawalDecision', {
      scope: { kind: 'admin', actor: 'rev@team' },
      key: key('a'),
      params: { id: w.id },
      body: { decision: 'approve' },
    }),
  );
  ok(
    await s.call('payments.admin.withdrawalDecision', {
      scope: { kind: 'admin', actor: 'pay@team' },
      key: key('p'),
      params: { id: w.id },
      body: { decision: 'pay' },
    }),
  );

  const read = () => s.call<DailyFile>('compliance.admin.reports.daily', { scope: adminScope, query: { brandId: op.brandId, date, timeZone } });
  t.match(errorOf(await read()), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/date' }] } }, 'the day is not over: no file');

  shift = 2 * 86_400_000;
  // The regulator (read-only, issue #69) reads kept files only: the day is over, the file not made, and her read makes none.
  const regulator = { ...adminScope, actor: 'user:inspetora@spa', readOnly: true as const };
  const readAs = (scope: typeof regulator) => s.call<DailyFile>('compliance.admin.reports.daily', { scope, query: { brandId: op.brandId, date, timeZone } });
  t.match(errorOf(await readAs(regulator)), { code: 'VALIDATION_ERROR', details: { in: 'query', issues: [{ path: '/date', message: /no file is kept/ }] } });
  t.equal((await s.db.query('select count(*)::int as n from compliance.daily_reports where brand_id = $1', [op.brandId])).rows[0].n, 0, 'none made');
  const file = ok(await read());
  t.same(ok(await readAs(regulator)), file, 'once made, she reads it as our team does');
  t.equal(file.ties, true, 'ties to the ledger');
  t.same(file.problems, []);
  t.equal(file.accounts.length, 2, 'both players');
  t.match(file.totals, { accounts: 2, opening: '0.00', deposits: '150.00', withdrawals: '-30.00', bets: '-30.00' });
  const balances = await Promise.all([a, b].map(async (p) => ok<Wallet>(await s.call('wallet.get', { scope: op, params: { playerId: p } })).available));
  t.same(
    [a, b].map((p) => file.accounts.find((x) => x.playerId === p)!.closing),
    balances,
    'closing balances are the wallets',
  );
  t.same(ok(await read()).generatedAt, file.generatedAt, 'made once and kept');

  // Corrupt one row of the kept file.
  await s.db.query(`update compliance.daily_reports set accounts = jsonb_set(accounts, '{0,closing}', '"1.00"') where brand_id = $1 and date = $2`, [
    op.brandId,
    date,
  ]);
  const corrupted = ok(await read());
  t.equal(corrupted.ties, false, 'the check fails');
  t.match(corrupted.problems.join('\n'), /closing says 1\.00/, "the row's own arithmetic");
  t.match(corrupted.problems.join('\n'), /closing 1\.00 in the file, [0-9.]+ in the ledger/, 'and the ledger');

  // The job works in the brand's own zone (São Paulo): 5 days on, its yesterday is never the day read
  // above, whatever the hour of the run (2 days on, late in São Paulo's evening, it was that day).
  const later = new Date(clock().getTime() + 3 * 86_400_000);
  const missing: number[] = [];
  const made = await makeYesterdaysFiles(s.services.get('compliance')!, later, (n) => missing.push(n));
  t.ok(made >= 1, 'the job made the files of yesterday');
  t.same(missing, [0], 'and says no brand is left without its file (bo_daily_files_pending)');
  t.equal(await makeYesterdaysFiles(s.services.get('compliance')!, later), 0, 'and only once');
});
