// Brazilian business days and the AML deadlines counted in them (domain/business-days.ts), the
// risk register's review dates and the yearly report's state: plain functions, fixed dates.
import t from 'tap';
import {
  addDays,
  annualDueDates,
  cosDueAt,
  cosStateAt,
  isBusinessDay,
  isNationalHoliday,
  lastBusinessDayOfMonth,
  nextBusinessDay,
} from '../../src/domain/business-days.ts';
import { annualReportState } from '../../src/domain/annual-report.ts';
import { checkNewSubject, documentDigits, reviewDueAt } from '../../src/domain/risk-register.ts';

const SP = 'America/Sao_Paulo';

t.test('national holidays and business days', async (t) => {
  for (const d of ['2026-01-01', '2026-04-21', '2026-05-01', '2026-09-07', '2026-10-12', '2026-11-02', '2026-11-15', '2026-11-20', '2026-12-25']) {
    t.ok(isNationalHoliday(d), `${d} is a national holiday`);
  }
  t.notOk(isNationalHoliday('2023-11-20'), '20 November is national from 2024 (Lei 14.759/2023)');
  t.ok(isNationalHoliday('2024-11-20'), 'and is from 2024');
  t.notOk(isNationalHoliday('2026-02-17'), 'Carnival is not a national holiday by law');
  t.notOk(isNationalHoliday('2026-04-03'), 'nor Good Friday');
  t.notOk(isBusinessDay('2026-11-21'), 'a Saturday is not a business day');
  t.notOk(isBusinessDay('2026-11-22'), 'nor a Sunday');
  t.ok(isBusinessDay('2026-11-23'), 'a plain Monday is');
  t.equal(addDays('2026-12-31', 1), '2027-01-01');
  t.equal(nextBusinessDay('2026-11-19'), '2026-11-23', 'Thursday → Monday across the 20 November holiday and the weekend');
  t.equal(nextBusinessDay('2026-12-24'), '2026-12-28', 'Christmas Eve (Thursday) → Monday');
  t.equal(nextBusinessDay('2026-12-31'), '2027-01-04', 'New Year: 1 January and the weekend skipped');
  t.equal(lastBusinessDayOfMonth(2027, 1), '2027-01-29', "January 2027's last business day is Friday 29 (31 is a Sunday)");
  t.equal(lastBusinessDayOfMonth(2026, 1), '2026-01-30', "January 2026's is Friday 30 (31 is a Saturday)");
});

t.test("a COS's deadline: the end of the next business day in the brand's zone", async (t) => {
  t.equal(cosDueAt(new Date('2026-11-19T18:00:00.000Z'), SP).toISOString(), '2026-11-24T03:00:00.000Z', 'decided Thursday: due as Monday ends in Brasília');
  t.equal(
    cosDueAt(new Date('2026-11-20T02:30:00.000Z'), SP).toISOString(),
    '2026-11-24T03:00:00.000Z',
    'at 23:30 on Thursday in Brasília (already Friday in UTC): still Thursday',
  );
  t.equal(cosDueAt(new Date('2026-11-23T12:00:00.000Z'), SP).toISOString(), '2026-11-25T03:00:00.000Z', 'decided Monday: due as Tuesday ends');
  t.equal(cosDueAt(new Date('2026-11-22T12:00:00.000Z'), SP).toISOString(), '2026-11-24T03:00:00.000Z', 'decided on a Sunday: the next business day is Monday');
  t.equal(cosDueAt(new Date('2026-11-23T12:00:00.000Z'), 'UTC').toISOString(), '2026-11-25T00:00:00.000Z', "in another zone, that zone's day");
  const due = new Date('2026-11-24T03:00:00.000Z');
  const hours = 3_600_000;
  t.same(cosStateAt({ dueAt: due, filedAt: null }, new Date(due.getTime() - 10 * hours), 4 * hours), { state: 'due', secondsLeft: 36_000 });
  t.same(cosStateAt({ dueAt: due, filedAt: null }, new Date(due.getTime() - 3 * hours), 4 * hours), { state: 'near', secondsLeft: 10_800 });
  t.same(cosStateAt({ dueAt: due, filedAt: null }, new Date(due.getTime() + 60_000), 4 * hours), { state: 'overdue', secondsLeft: -60 });
  t.same(
    cosStateAt({ dueAt: due, filedAt: due }, new Date(due.getTime() + hours), 4 * hours),
    { state: 'filed', secondsLeft: null },
    'filed at the deadline is on time',
  );
  t.same(cosStateAt({ dueAt: due, filedAt: new Date(due.getTime() + 1) }, due, 4 * hours), { state: 'filed_late', secondsLeft: null });
});

t.test("the yearly report's due dates and state", async (t) => {
  t.same(annualDueDates(2026), { dueDate: '2027-02-01', noOccurrenceDueDate: '2027-01-29' });
  const dueAt = new Date('2027-02-02T03:00:00.000Z');
  t.equal(annualReportState(null, dueAt, new Date('2027-01-20T00:00:00.000Z')), 'not_made');
  t.equal(annualReportState(null, dueAt, dueAt), 'overdue', 'not made as the due date ends: overdue');
  t.equal(annualReportState(new Date('2027-01-30T00:00:00.000Z'), dueAt, new Date('2027-03-01T00:00:00.000Z')), 'made');
  t.equal(annualReportState(new Date('2027-02-05T00:00:00.000Z'), dueAt, new Date('2027-03-01T00:00:00.000Z')), 'made_late');
});

t.test("the risk register's review dates and subjects", async (t) => {
  const at = new Date('2026-01-31T10:00:00.000Z');
  t.equal(reviewDueAt(at, 'high').toISOString(), '2026-07-31T10:00:00.000Z', 'high: 6 months');
  t.equal(reviewDueAt(at, 'medium').toISOString(), '2027-01-31T10:00:00.000Z', 'medium: 12 months');
  t.equal(reviewDueAt(at, 'low').toISOString(), '2028-01-31T10:00:00.000Z', 'low: 24 months');
  t.equal(documentDigits('12.345.678/0001-95'), '12345678000195', 'a CNPJ without its punctuation');
  t.throws(() => documentDigits('123.456.789-0'), { code: 'VALIDATION_ERROR' }, 'neither 11 nor 14 digits');
  const base = { name: 'X', rating: 'low', rationale: 'r' } as const;
  t.throws(() => checkNewSubject({ ...base, kind: 'supplier' }), { code: 'VALIDATION_ERROR' }, 'a supplier needs its document');
  t.throws(() => checkNewSubject({ ...base, kind: 'partner', document: '12345678000195', teamMemberId: `usr_${'a'.repeat(32)}` }), {
    code: 'VALIDATION_ERROR',
  });
  t.throws(() => checkNewSubject({ ...base, kind: 'team_member' }), { code: 'VALIDATION_ERROR' }, 'a team member needs an id or a CPF');
  t.same(checkNewSubject({ ...base, kind: 'team_member', teamMemberId: `usr_${'b'.repeat(32)}` }), { document: null, teamMemberId: `usr_${'b'.repeat(32)}` });
});
