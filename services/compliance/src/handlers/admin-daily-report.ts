// GET /admin/reports/daily?brandId=&date=[&timeZone=]: a brand's daily regulator file (ledger
// part). A day that is over is made once from the wallet's ledger and kept; every read checks the
// kept file against the ledger again (`ties`, `problems`). The time zone is the query's, else
// the profile default (America/Sao_Paulo): this service does not know a brand's operator until it
// has seen one of its events. The scheduled job (reports/daily-job.ts) makes yesterday's files.
import {
  COMPLIANCE_DEFAULTS,
  validationError,
  walletLedgerDayMessages,
  type DailyFile,
  type dailyFileAdminOperations,
  type LedgerDayAccount,
} from '@bo/contracts';
import { adminScopeOf, isoTime, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { dayBounds, tieProblems, totalsOf } from '../domain/daily-file.ts';

type Deps = Pick<ServiceDeps, 'sql' | 'call'>;

async function ledgerOf(deps: Deps, brandId: string, from: Date, to: Date): Promise<LedgerDayAccount[]> {
  const answer = await deps.call<{ accounts: LedgerDayAccount[] }>(walletLedgerDayMessages.ledgerDay.subject, {
    brandId,
    from: from.toISOString(),
    to: to.toISOString(),
  });
  return answer.accounts;
}

/** The kept file of a day, made now if the day is over and it was never made. */
export async function keptDailyFile(deps: Deps, brandId: string, date: string, timeZone: string, now: Date): Promise<{ row: StoredRow } | { notOver: true }> {
  const found = await deps.sql.query<StoredRow>('select * from compliance.daily_reports where brand_id = ? and date = ?', [brandId, date]);
  if (found[0]) return { row: found[0] };
  const { from, to } = dayBounds(date, timeZone);
  if (to.getTime() > now.getTime()) return { notOver: true };
  const accounts = await ledgerOf(deps, brandId, from, to);
  await deps.sql.query(
    `insert into compliance.daily_reports (brand_id, date, time_zone, "from", "to", generated_at, accounts) values (?, ?, ?, ?, ?, ?, ?::jsonb)
     on conflict (brand_id, date) do nothing`,
    [brandId, date, timeZone, from, to, now, JSON.stringify(accounts)],
  );
  const kept = await deps.sql.query<StoredRow>('select * from compliance.daily_reports where brand_id = ? and date = ?', [brandId, date]);
  return { row: kept[0]! };
}

interface StoredRow {
  brand_id: string;
  date: string;
  time_zone: string;
  from: Date;
  to: Date;
  generated_at: Date;
  accounts: LedgerDayAccount[];
}

export function adminDailyReport(deps: ServiceDeps, now: () => Date): HandlerOf<typeof dailyFileAdminOperations.adminDailyReport> {
  return async (req) => {
    adminScopeOf(req);
    const { brandId, date } = req.query;
    const timeZone = req.query.timeZone ?? COMPLIANCE_DEFAULTS.timeZone;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
    } catch {
      throw validationError('query', [{ path: '/timeZone', message: 'must be an IANA time zone, for example America/Sao_Paulo' }]);
    }
    if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw validationError('query', [{ path: '/date', message: 'must be a calendar date' }]);
    const kept = await keptDailyFile(deps, brandId, date, timeZone, now());
    if ('notOver' in kept) throw validationError('query', [{ path: '/date', message: 'the day is not over yet in the time zone' }]);
    const { row } = kept;
    const problems = tieProblems(row.accounts, await ledgerOf(deps, brandId, new Date(row.from), new Date(row.to)));
    const file: DailyFile = {
      brandId,
      date,
      timeZone: row.time_zone,
      from: isoTime(row.from),
      to: isoTime(row.to),
      generatedAt: isoTime(row.generated_at),
      accounts: row.accounts,
      totals: totalsOf(row.accounts),
      ties: problems.length === 0,
      problems,
    };
    return { status: 200, body: file };
  };
}
