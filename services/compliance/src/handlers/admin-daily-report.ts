// GET /admin/reports/daily?brandId=&date=[&timeZone=]: a brand's daily regulator file, its ledger
// part with the check of the whole file. A day that is over is made once (the ledger part and the
// line items: reports/daily-file-maker.ts) and kept; every read checks the kept file again
// (`ties`, `problems`: reports/daily-file-check.ts). A new file's time zone is the query's, else
// the brand's (its operator's compliance profile: reports/brand-zone.ts); a kept file keeps its
// own. The line items themselves are read through GET /admin/reports/daily/files/… (admin-daily-files.ts).
import { validationError, type DailyFile, type dailyFileAdminOperations } from '@bo/contracts';
import { adminScopeOf, isoTime, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { totalsOf } from '../domain/daily-file.ts';
import { brandOfOurs, brandZone } from '../reports/brand-zone.ts';
import { checkAndKeep, checkFile } from '../reports/daily-file-check.ts';
import { ensureFile, madeFileOnly } from '../reports/daily-file-maker.ts';
import type { FileRow } from '../store/daily-files.ts';

export function adminDailyReport(deps: ServiceDeps, now: () => Date): HandlerOf<typeof dailyFileAdminOperations.adminDailyReport> {
  return async (req) => {
    const readOnly = adminScopeOf(req).readOnly === true;
    const { brandId, date, timeZone } = req.query;
    if (timeZone !== undefined) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone });
      } catch {
        throw validationError('query', [{ path: '/timeZone', message: 'must be an IANA time zone, for example America/Sao_Paulo' }]);
      }
    }
    if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw validationError('query', [{ path: '/date', message: 'must be a calendar date' }]);
    // Made only for a brand of ours (404 BRAND_NOT_FOUND otherwise, issue #61), in the zone asked or the brand's.
    const zone = async () => (timeZone ? { timeZone, source: 'query' as const, ...(await brandOfOurs(deps, brandId)) } : brandZone(deps, brandId));
    const at = now();
    // A read-only role (the regulator, issue #69) reads the kept file checked now: it makes nothing and keeps no check.
    let row: FileRow;
    let problems: string[];
    if (readOnly) {
      row = await madeFileOnly(deps.sql, brandId, date, 'query');
      ({ problems } = await checkFile(deps, row));
    } else {
      const kept = await ensureFile(deps, brandId, date, zone, at);
      if ('notOver' in kept) throw validationError('query', [{ path: '/date', message: 'the day is not over yet in the time zone' }]);
      row = kept.row;
      ({ problems } = await checkAndKeep(deps, row, at));
    }
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
