// A brand's monthly SIGAP report (issue #60 item 4): the SIGAP manual asks operators for a monthly
// report besides the daily files (as quoted publicly: "files are sent daily, except the operators'
// monthly report"); what it holds is not public, so its layout is OUR assumption (sigap/layout.ts,
// `sigap-assumed-monthly/1`): per currency, the month's deposits, withdrawals, stakes, prizes, other
// movements, gross gaming revenue and the legal destinations' share, the accounts that moved and the
// balances held as the month closed, summed from the month's daily files. Every day's file is made
// when it was not and checked now: a month with a day that does not tie is refused (422, naming the
// days), as a SIGAP file is never made from a daily file that does not tie. Kept as versions.
import { createHash } from 'node:crypto';
import { validationError, type LedgerDayAccount } from '@bo/contracts';
import { Money, addMoney, formatMoney, isoTime } from '@bo/service-kit';
import { LEGAL_DESTINATIONS_RATE, SIGAP_MONTHLY_LAYOUT, sigapMonthlyFileName } from '../sigap/layout.ts';
import { brandZone, localDate } from './brand-zone.ts';
import { checkAndKeep } from './daily-file-check.ts';
import { ensureFile, type MakerDeps } from './daily-file-maker.ts';

export interface MonthlyTotals {
  currency: string;
  accounts: number;
  deposits: string;
  withdrawals: string;
  stakes: string;
  prizes: string;
  otherMovements: string;
  ggr: string;
  legalDestinationsRate: string;
  legalDestinationsShare: string;
  closingBalances: string;
}

/** The days of a month, YYYY-MM-DD. */
export function daysOf(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

/** Sums a month's daily files' ledger parts per currency (the last day's closing balances as the month's). */
export function monthlyTotalsOf(days: LedgerDayAccount[][]): MonthlyTotals[] {
  const byCurrency = new Map<string, LedgerDayAccount[]>();
  for (const accounts of days) for (const a of accounts) byCurrency.set(a.currency, [...(byCurrency.get(a.currency) ?? []), a]);
  const last = days.at(-1) ?? [];
  return [...byCurrency]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, all]) => {
      const sum = (f: (a: LedgerDayAccount) => string) => (all.length ? addMoney(...all.map(f)) : '0.00');
      const stakes = formatMoney(new Money(0).minus(sum((a) => a.bets)));
      const prizes = sum((a) => a.wins);
      const other = sum((a) => a.other);
      const ggr = formatMoney(new Money(stakes).minus(prizes).minus(other));
      const closing = last.filter((a) => a.currency === currency);
      return {
        currency,
        accounts: new Set(all.filter((a) => a.entries > 0).map((a) => a.playerId)).size,
        deposits: sum((a) => a.deposits),
        withdrawals: sum((a) => a.withdrawals),
        stakes,
        prizes,
        otherMovements: other,
        ggr,
        legalDestinationsRate: LEGAL_DESTINATIONS_RATE,
        legalDestinationsShare: formatMoney(Money.max(new Money(ggr), new Money(0)).times(LEGAL_DESTINATIONS_RATE)),
        closingBalances: closing.length ? addMoney(...closing.map((a) => a.closing)) : '0.00',
      };
    });
}

/**
 * The month's figures from its daily files, each made now if it was not and checked: 422 when the
 * month is not over in the brand's zone or a day does not tie.
 */
export async function monthlyFigures(
  deps: MakerDeps,
  brandId: string,
  month: string,
  now: Date,
): Promise<{ timeZone: string; days: number; totals: MonthlyTotals[] }> {
  const zone = await brandZone(deps, brandId);
  const days = daysOf(month);
  if (localDate(now, zone.timeZone) <= days.at(-1)!)
    throw validationError('path', [{ path: '/month', message: `the month is not over yet in the brand's time zone (${zone.timeZone})` }]);
  const accounts: LedgerDayAccount[][] = [];
  const untied: string[] = [];
  for (const date of days) {
    const kept = await ensureFile(deps, brandId, date, async () => zone, now);
    if ('notOver' in kept) throw validationError('path', [{ path: '/month', message: `${date} is not over yet` }]);
    const ties = kept.row.ties === true || (await checkAndKeep(deps, kept.row, now)).problems.length === 0;
    if (!ties) untied.push(date);
    accounts.push(kept.row.accounts as LedgerDayAccount[]);
  }
  if (untied.length > 0)
    throw validationError('path', [{ path: '/month', message: `the daily files of ${untied.join(', ')} do not tie to the ledger: correct them first` }]);
  return { timeZone: zone.timeZone, days: days.length, totals: monthlyTotalsOf(accounts) };
}

/** The kept file of a version: the content (the assumed layout) and its SHA-256. */
export function monthlyFile(
  o: { brandId: string; month: string; version: number; operatorId: string; operatorCnpj: string | null; now: Date },
  f: { timeZone: string; days: number; totals: MonthlyTotals[] },
): { content: string; checksum: string } {
  const content = JSON.stringify({
    layout: SIGAP_MONTHLY_LAYOUT,
    fileName: sigapMonthlyFileName(o.brandId, o.month, o.version),
    operatorId: o.operatorId,
    operatorCnpj: o.operatorCnpj,
    brandId: o.brandId,
    referenceMonth: o.month,
    timeZone: f.timeZone,
    version: o.version,
    days: f.days,
    generatedAt: isoTime(o.now),
    totals: f.totals,
  });
  return { content, checksum: createHash('sha256').update(content).digest('hex') };
}
