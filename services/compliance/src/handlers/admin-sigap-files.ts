// Our team's SIGAP files (compliance and finance; docs/aml.md, "SIGAP files"): the list (GET
// /admin/reports/sigap/files, newest day first, a signed cursor bound to the filter), a brand's day
// (GET …/{brandId}/{date}: made first when the day is over and its daily file ties), sending it now
// (POST …/submit) and a rejected type again after a correction (POST …/resend), both audited here
// with the day's files before and after, and a kept file's download, exactly as sent.
import { AppError, validationError, type SigapDay, type sigapAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, listCursor, writeDecisionAudit, type DecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { contentOf, ensureSigapDay, fileView, keptSigapDay, resendType, submitDay, type SigapDeps } from '../reports/sigap-files.ts';
import { listSigapFiles } from '../store/sigap-files.ts';

/** Characters per download chunk: a chunk stays well under the NATS payload limit, escaped as JSON. */
const CHUNK_CHARS = 100_000;

export function adminListSigapFiles(
  deps: ServiceDeps<ComplianceConfig>,
  now: () => Date = () => new Date(),
): HandlerOf<typeof sigapAdminOperations.adminListSigapFiles> {
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'compliance.sigap_files');
  return async (req) => {
    adminScopeOf(req);
    const q = req.query;
    // Bound to the timeliness and environment too when asked (a cursor without them stays as it was).
    const scope = [
      q.brandId ?? '',
      q.from ?? '',
      q.to ?? '',
      q.status ?? '',
      ...(q.timeliness || q.environment ? [q.timeliness ?? '', q.environment ?? ''] : []),
    ];
    const limit = q.limit ?? 50;
    const after = q.cursor ? cursors.decode(scope, q.cursor) : undefined;
    const at = now();
    const rows = await listSigapFiles(deps.sql, {
      brandId: q.brandId,
      from: q.from,
      to: q.to,
      status: q.status,
      timeliness: q.timeliness,
      environment: q.environment,
      now: at,
      after,
      limit: limit + 1,
    });
    return {
      status: 200,
      body: cursors.page(
        scope,
        rows,
        limit,
        (r) => fileView(r, r.time_zone, at),
        (r) => ({ at: r.date, id: r.id }),
      ),
    };
  };
}

export function adminGetSigapDay(deps: SigapDeps, now: () => Date): HandlerOf<typeof sigapAdminOperations.adminGetSigapDay> {
  return async (req) => {
    // A read-only role (the regulator, issue #69) reads the day as kept: the files are made by our team's read or the daily job.
    const read = adminScopeOf(req).readOnly === true ? keptSigapDay : ensureSigapDay;
    return { status: 200, body: await read(deps, req.params.brandId, req.params.date, now()) };
  };
}

/** What the audit keeps of a day: each file's id, type, version, part, status and receipt (not the content). */
const auditOf = (day: SigapDay) => ({
  accepted: day.accepted,
  files: day.files.map((f) => ({ id: f.id, fileType: f.fileType, version: f.version, part: f.part, status: f.status, receipt: f.receipt })),
});

/**
 * Sending is many steps (each file made, claimed, sent and answered on its own): the day our team
 * sent is audited once the sending is done, in a transaction of its own (the kit's
 * writeDecisionAudit, relayed to the audit log once), with the day's files before and after.
 */
async function auditSending(deps: ServiceDeps, req: Parameters<typeof adminScopeOf>[0], d: Omit<DecisionAudit, 'target'>, brandId: string, date: string) {
  await deps.sql.transaction((tx) =>
    writeDecisionAudit(tx, deps.schema, decisionAuthorOf(adminScopeOf(req), req.ctx), { ...d, target: `sigap_day:${brandId}/${date}` }),
  );
  deps.outbox.poke();
}

export function adminSubmitSigapDay(deps: ServiceDeps, sigap: SigapDeps, now: () => Date): HandlerOf<typeof sigapAdminOperations.adminSubmitSigapDay> {
  return async (req) => {
    adminScopeOf(req);
    const { brandId, date } = req.params;
    const before = await ensureSigapDay(sigap, brandId, date, now());
    // Accepted whole: nothing to send, and no audit row of a sending that did not happen (issue #61).
    // A file SIGAP rejects is sent again, corrected, through the resend.
    if (before.accepted) throw new AppError('SIGAP_DAY_ACCEPTED', undefined, { brandId, date, timeliness: before.timeliness });
    const after = await submitDay(sigap, brandId, date, now());
    await auditSending(deps, req, { action: 'adminSubmitSigapDay', before: auditOf(before), after: auditOf(after) }, brandId, date);
    return { status: 200, body: after };
  };
}

export function adminResendSigapFile(deps: ServiceDeps, sigap: SigapDeps, now: () => Date): HandlerOf<typeof sigapAdminOperations.adminResendSigapFile> {
  return async (req) => {
    adminScopeOf(req);
    const { brandId, date } = req.params;
    const before = await ensureSigapDay(sigap, brandId, date, now());
    const after = await resendType(sigap, brandId, date, req.body.fileType, req.body.correction, now());
    const audit = { ...auditOf(after), resent: req.body.fileType, correction: req.body.correction };
    await auditSending(deps, req, { action: 'adminResendSigapFile', before: auditOf(before), after: audit }, brandId, date);
    return { status: 200, body: after };
  };
}

export function adminDownloadSigapFile(deps: SigapDeps): HandlerOf<typeof sigapAdminOperations.adminDownloadSigapFile> {
  return async (req) => {
    adminScopeOf(req);
    const { brandId, date, fileId } = req.params;
    const file = await contentOf(deps, brandId, date, fileId);
    if (!file) throw validationError('path', [{ path: '/fileId', message: 'no such SIGAP file of this brand and day' }]);
    const start = req.query.cursor === undefined ? 0 : Number(req.query.cursor);
    if (!Number.isInteger(start) || start < 0 || start > file.content.length)
      throw validationError('query', [{ path: '/cursor', message: 'must be a cursor of this download' }]);
    let end = Math.min(start + CHUNK_CHARS, file.content.length);
    // Never between the two halves of a character outside the BMP.
    if (end < file.content.length && /[\uD800-\uDBFF]/.test(file.content[end - 1]!)) end--;
    return {
      status: 200,
      body: {
        filename: file.fileName,
        contentType: 'application/json; charset=utf-8',
        chunk: file.content.slice(start, end),
        nextCursor: end < file.content.length ? String(end) : null,
      },
    };
  };
}
