// The daily regulator file's ledger part as plain functions: a calendar day's bounds in a time
// zone, the totals, and the check that the file ties (each account's opening plus the day's
// movements equals its closing, and the file equals what the ledger says now).
import type { DailyFile, LedgerDayAccount } from '@bo/contracts';
import { formatMoney, Money } from '@bo/service-kit';

/** The offset of `tz` at `instant`, in ms (local time minus UTC). */
function offsetMs(instant: Date, tz: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return local - Math.floor(instant.getTime() / 1000) * 1000;
}

/** Local midnight of `date` (YYYY-MM-DD) in `tz`, as an instant. */
function midnight(date: string, tz: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // Twice: the offset at the first guess may differ from the offset at the answer (a DST change).
  const first = guess - offsetMs(new Date(guess), tz);
  return new Date(guess - offsetMs(new Date(first), tz));
}

export function dayBounds(date: string, tz: string): { from: Date; to: Date } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return { from: midnight(date, tz), to: midnight(next, tz) };
}

const MOVES = ['deposits', 'withdrawals', 'bets', 'wins', 'other'] as const;
const sum = (values: string[]) => formatMoney(values.reduce((acc, v) => acc.plus(v), new Money(0)));

export function totalsOf(accounts: LedgerDayAccount[]): DailyFile['totals'] {
  const total = (k: (typeof MOVES)[number] | 'opening' | 'closing') => sum(accounts.map((a) => a[k]));
  return {
    accounts: accounts.length,
    opening: total('opening'),
    deposits: total('deposits'),
    withdrawals: total('withdrawals'),
    bets: total('bets'),
    wins: total('wins'),
    other: total('other'),
    closing: total('closing'),
    entries: accounts.reduce((n, a) => n + a.entries, 0),
  };
}

/** What keeps the file from tying: each account's arithmetic, then the file against the ledger now. */
export function tieProblems(file: LedgerDayAccount[], ledger: LedgerDayAccount[]): string[] {
  const problems: string[] = [];
  const key = (a: LedgerDayAccount) => `${a.playerId}/${a.currency}`;
  for (const a of file) {
    const expected = sum([a.opening, ...MOVES.map((k) => a[k])]);
    if (new Money(expected).comparedTo(a.closing) !== 0)
      problems.push(`${key(a)}: opening ${a.opening} plus the day's movements is ${expected}, closing says ${a.closing}`);
  }
  const now = new Map(ledger.map((a) => [key(a), a]));
  const stored = new Map(file.map((a) => [key(a), a]));
  for (const [k, a] of stored) {
    const l = now.get(k);
    if (!l) problems.push(`${k}: in the file, not in the ledger`);
    else
      for (const f of ['opening', ...MOVES, 'closing'] as const) {
        if (new Money(a[f]).comparedTo(l[f]) !== 0) problems.push(`${k}: ${f} ${a[f]} in the file, ${l[f]} in the ledger`);
      }
  }
  for (const k of now.keys()) if (!stored.has(k)) problems.push(`${k}: in the ledger, not in the file`);
  return problems;
}
