// Brazilian business days and the AML deadlines counted in them (docs/aml.md, "The COS deadline"):
// plain functions over calendar dates (YYYY-MM-DD) and a time zone, no I/O.
//
// A business day is a weekday that is not a national holiday set by federal law: 1 January, 21 April,
// 1 May, 7 September, 2 November, 15 November, 25 December (Lei 662/1949 as amended by Lei
// 10.607/2002), 12 October (Lei 6.802/1980) and, from 2024, 20 November (Lei 14.759/2023). Carnival,
// Good Friday and Corpus Christi are not national holidays by law (optional days, or set by states
// and towns), and no state or municipal holiday is counted: a deadline counted here can only fall
// earlier than one that counts them, never later.
import { dayBounds } from './daily-file.ts';

const FIXED_HOLIDAYS = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '12-25'];

const parse = (date: string) => date.split('-').map(Number) as [number, number, number];
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Whether `date` is a national holiday of Brazil (the list above). */
export function isNationalHoliday(date: string): boolean {
  const [y] = parse(date);
  const md = date.slice(5);
  return FIXED_HOLIDAYS.includes(md) || (md === '11-20' && y >= 2024);
}

export function isBusinessDay(date: string): boolean {
  const [y, m, d] = parse(date);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isNationalHoliday(date);
}

/** The calendar date `n` days after `date` (n may be negative). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = parse(date);
  return iso(Date.UTC(y, m - 1, d + n));
}

/** The first business day after `date`. */
export function nextBusinessDay(date: string): string {
  let day = addDays(date, 1);
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** The last business day of a month (1-12) of a year. */
export function lastBusinessDayOfMonth(year: number, month: number): string {
  let day = iso(Date.UTC(year, month, 0));
  while (!isBusinessDay(day)) day = addDays(day, -1);
  return day;
}

/** One formatter per time zone: making one costs ~50 µs, using it ~1 µs (the harm feed dates every deposit). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of `instant` in `timeZone`. */
export function localDateOf(instant: Date, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone });
    dateFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** The instant a calendar date ends in `timeZone` (the next day's local midnight). */
export function endOfDay(date: string, timeZone: string): Date {
  return dayBounds(date, timeZone).to;
}

/**
 * A COS's deadline: the end of the next business day after the day our team decided to report the
 * case, in the brand's time zone ("one day after the analysis concludes", Portaria SPA/MF 1.143/2024
 * arts. 27-29 as summarised; COAF's sector rules say "até o dia útil seguinte ao da decisão de
 * comunicação"). A decision on a weekend or holiday counts from that day too.
 */
export function cosDueAt(decidedAt: Date, timeZone: string): Date {
  return endOfDay(nextBusinessDay(localDateOf(decidedAt, timeZone)), timeZone);
}

export type CosState = 'due' | 'near' | 'overdue' | 'filed' | 'filed_late';

/** Where a COS stands at `now`: filed (by its deadline or late), else due, near (less than `nearMs` left) or overdue. */
export function cosStateAt(c: { dueAt: Date; filedAt: Date | null }, now: Date, nearMs: number): { state: CosState; secondsLeft: number | null } {
  if (c.filedAt) return { state: c.filedAt.getTime() <= c.dueAt.getTime() ? 'filed' : 'filed_late', secondsLeft: null };
  const left = c.dueAt.getTime() - now.getTime();
  return { state: left <= 0 ? 'overdue' : left <= nearMs ? 'near' : 'due', secondsLeft: Math.trunc(left / 1000) };
}

/** The yearly report's due dates for `year`: 1 February of the next year (the report), January's last business day (the "no occurrence" statement). */
export function annualDueDates(year: number): { dueDate: string; noOccurrenceDueDate: string } {
  return { dueDate: `${year + 1}-02-01`, noOccurrenceDueDate: lastBusinessDayOfMonth(year + 1, 1) };
}
