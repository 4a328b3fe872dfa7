// Our team's kept daily regulator files (compliance and finance): the list (GET
// /admin/reports/daily/files, newest day first, a signed cursor bound to the filter), one file
// checked now (GET …/files/{brandId}/{date}: made and kept first if the day is over and it was not)
// and its download (GET …/download?format=json|csv&part=, chunk by chunk, streamed by the gateway).
// A file is made in its brand's time zone (reports/brand-zone.ts).
import { validationError, type DailyFilePart, type dailyFilesAdminOperations } from '@bo/contracts';
import { adminScopeOf, isoTime, listCursor, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { totalsOf } from '../domain/daily-file.ts';
import { brandZone } from '../reports/brand-zone.ts';
import { checkAndKeep, checkFile, summaryOf } from '../reports/daily-file-check.ts';
import { ensureFile, madeFileOnly, type MakerDeps } from '../reports/daily-file-maker.ts';
import { listFiles, type FileRow } from '../store/daily-files.ts';
import { CSV_COLUMNS, csvChunk, jsonChunk } from '../reports/file-layout.ts';

/** A calendar date of this century or later (Date.UTC reads years below 100 as 19xx). */
const isDate = (date: string) =>
  date >= '2000-01-01' && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);

/**
 * The kept file of the brand's day (made now when it is due), or a 422 naming why there is none. A
 * read-only role (the regulator, issue #69) reads kept files only: it never makes one.
 */
export async function fileFor(deps: MakerDeps, brandId: string, date: string, now: Date, readOnly = false): Promise<FileRow> {
  if (!isDate(date)) throw validationError('path', [{ path: '/date', message: 'must be a calendar date' }]);
  if (readOnly) return madeFileOnly(deps.sql, brandId, date, 'path');
  const kept = await ensureFile(deps, brandId, date, () => brandZone(deps, brandId), now);
  if ('notOver' in kept) throw validationError('path', [{ path: '/date', message: "the day is not over yet in the brand's time zone" }]);
  return kept.row;
}

export function adminListDailyFiles(deps: ServiceDeps<ComplianceConfig>): HandlerOf<typeof dailyFilesAdminOperations.adminListDailyFiles> {
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'compliance.daily_files');
  return async (req) => {
    adminScopeOf(req);
    const q = req.query;
    const scope = [q.brandId ?? '', q.from ?? '', q.to ?? '', ...(q.environment ? [q.environment] : [])];
    const limit = q.limit ?? 50;
    const after = q.cursor ? cursors.decode(scope, q.cursor) : undefined;
    const rows = await listFiles(deps.sql, { brandId: q.brandId, from: q.from, to: q.to, environment: q.environment, after, limit: limit + 1 });
    return { status: 200, body: cursors.page(scope, rows, limit, summaryOf, (r) => ({ at: r.date, id: r.brand_id })) };
  };
}

const downloadPath = (brandId: string, date: string) => `/admin/reports/daily/files/${encodeURIComponent(brandId)}/${date}/download`;

/** The file checked now; the check kept with it, but for a read-only role's read (which changes nothing). */
async function checked(deps: MakerDeps, brandId: string, date: string, now: Date, readOnly = false) {
  const row = await fileFor(deps, brandId, date, now, readOnly);
  const { problems, lineTotals } = readOnly ? await checkFile(deps, row) : await checkAndKeep(deps, row, now);
  const t = totalsOf(row.accounts);
  const totals = { opening: t.opening, deposits: t.deposits, withdrawals: t.withdrawals, bets: t.bets, wins: t.wins, other: t.other, closing: t.closing };
  return {
    row,
    check: {
      ...summaryOf(row),
      totals,
      lineTotals,
      ties: problems.length === 0,
      problems,
      checkedAt: isoTime(now),
    },
  };
}

export function adminGetDailyFile(deps: ServiceDeps, now: () => Date): HandlerOf<typeof dailyFilesAdminOperations.adminGetDailyFile> {
  return async (req) => {
    const readOnly = adminScopeOf(req).readOnly === true;
    const { brandId, date } = req.params;
    const { check } = await checked(deps, brandId, date, now(), readOnly);
    const base = downloadPath(brandId, date);
    const csv = Object.fromEntries((Object.keys(CSV_COLUMNS) as DailyFilePart[]).map((part) => [part, `${base}?format=csv&part=${part}`]));
    return { status: 200, body: { ...check, downloads: { json: `${base}?format=json`, csv } } };
  };
}

export function adminDownloadDailyFile(deps: ServiceDeps, now: () => Date): HandlerOf<typeof dailyFilesAdminOperations.adminDownloadDailyFile> {
  return async (req) => {
    const readOnly = adminScopeOf(req).readOnly === true;
    const { brandId, date } = req.params;
    const { format = 'json', part, cursor } = req.query;
    if (format === 'csv' && !part)
      throw validationError('query', [
        { path: '/part', message: 'format=csv gives one part: bettors, accounts, deposits, withdrawals, rounds, provider_transactions or status_changes' },
      ]);
    if (format === 'json' && part) throw validationError('query', [{ path: '/part', message: 'format=json gives the whole file; leave part out' }]);
    // The first chunk makes the file if it is due (and, as JSON, carries the check made now); the
    // following ones read the kept file.
    if (!cursor) {
      if (format === 'csv') return { status: 200, body: await csvChunk(deps, await fileFor(deps, brandId, date, now(), readOnly), part!, undefined) };
      const { row, check } = await checked(deps, brandId, date, now(), readOnly);
      return { status: 200, body: await jsonChunk(deps, row, check, undefined) };
    }
    const row = await fileFor(deps, brandId, date, now(), readOnly);
    return { status: 200, body: format === 'csv' ? await csvChunk(deps, row, part!, cursor) : await jsonChunk(deps, row, {}, cursor) };
  };
}
