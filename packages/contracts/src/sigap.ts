// SIGAP files (issue #46 item 1; Portaria SPA/MF 722/2024 art. 10, docs/aml.md "SIGAP files"):
// the files a brand's day is reported to the SPA's Sistema de Gestão de Apostas with, made from
// the kept daily regulator file (the same ledger-tied lines), kept with SIGAP's answer (a receipt,
// or the phase and reasons of a rejection), sent again as a new version after a correction, and
// our team's admin operations over them. The file types are the ones public sources name (bettors,
// wallets, online games, sports bets; legal destinations from art. 10); every field inside a file
// is OUR assumption until the SIGAP manual's data model is in hand (docs/aml.md says which).
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Nullable, Page, Timestamp, pageQuery } from './common.ts';
import { defineOperations } from './operations.ts';
import { FileChunkSchema } from './regulator-file.ts';

/** The file types of a day, in the order they are made and sent. */
export const SIGAP_FILE_TYPES = ['bettors', 'wallets', 'online_games', 'sports_bets', 'legal_destinations'] as const;
export type SigapFileType = (typeof SIGAP_FILE_TYPES)[number];
export const SigapFileTypeSchema = Type.Union(SIGAP_FILE_TYPES.map((t) => Type.Literal(t)));

/**
 * Where a file stands: `made` (kept, not sent yet), `sending` (a sender holds it now), `pending`
 * (sent; SIGAP's structure and quality analyses have not answered yet), `accepted` (SIGAP's
 * receipt: only now does the file count as sent), `rejected` (the phase and the reasons: a
 * correction and a new version are due), `failed` (not delivered: SIGAP did not answer; sent again
 * by the next pass).
 */
export const SIGAP_FILE_STATUSES = ['made', 'sending', 'pending', 'accepted', 'rejected', 'failed'] as const;
export type SigapFileStatus = (typeof SIGAP_FILE_STATUSES)[number];
export const SigapFileStatusSchema = Type.Union(SIGAP_FILE_STATUSES.map((s) => Type.Literal(s)));

/** The two phases SIGAP submits a file to (the manual, as quoted publicly): its structure, then its data's quality. */
export const SigapPhaseSchema = Type.Union([Type.Literal('structure'), Type.Literal('quality')]);
export type SigapPhase = Static<typeof SigapPhaseSchema>;

/** One reason of a rejection: a code, the field and record it names when it names one, and the text. */
export const SigapReasonSchema = Type.Object({
  code: Type.String(),
  field: Nullable(Type.String()),
  /** The record's index in the file (0-based), when the reason is about one record. */
  record: Nullable(Type.Integer()),
  message: Type.String(),
});
export type SigapReason = Static<typeof SigapReasonSchema>;

/**
 * Whether a file (or a day) reached SIGAP by its deadline, 06:00 of the next day in the brand's zone
 * (issue #61): `on_time` (accepted, sent by the deadline), `late` (accepted, sent after it), `overdue`
 * (not accepted and the deadline passed), `due` (not accepted, the deadline still ahead). The time that
 * counts is when the version SIGAP accepted was sent to it (`submittedAt`).
 */
export const SIGAP_TIMELINESS = ['on_time', 'late', 'overdue', 'due'] as const;
export type SigapTimeliness = (typeof SIGAP_TIMELINESS)[number];
export const SigapTimelinessSchema = Type.Union(SIGAP_TIMELINESS.map((s) => Type.Literal(s)));

const BrandId = Type.String({ minLength: 1, maxLength: 64 });
const CalendarDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: "YYYY-MM-DD, a calendar day in the brand's time zone" });

/** One kept file (one part of a file type's version), with SIGAP's answer. */
export const SigapFileSchema = Type.Object(
  {
    id: Type.String({ description: 'Ours (sgf_…)' }),
    brandId: Type.String(),
    operatorId: Nullable(Type.String()),
    /** The brand's environment as this service saw it (null: never seen). Only production brands reach the real SIGAP. */
    environment: Nullable(EnvironmentSchema),
    date: Type.String(),
    fileType: SigapFileTypeSchema,
    /** 1, then one more for each resend after a correction; the highest is the current one. */
    version: Type.Integer({ minimum: 1 }),
    /** A type's records are split into parts of at most SIGAP_RECORDS_PER_FILE records. */
    part: Type.Integer({ minimum: 1 }),
    parts: Type.Integer({ minimum: 1 }),
    fileName: Type.String(),
    records: Type.Integer({ minimum: 0 }),
    /** SHA-256 of the content, hex. */
    checksum: Type.String(),
    status: SigapFileStatusSchema,
    /** Who answers it: `simulator` (sandbox, tests, npm start) or `sigap` (the real service). */
    via: Nullable(Type.Union([Type.Literal('simulator'), Type.Literal('sigap')])),
    attempts: Type.Integer({ minimum: 0 }),
    receipt: Nullable(Type.String()),
    /** SIGAP's protocol of a submission whose analyses are still running. */
    protocol: Nullable(Type.String()),
    phase: Nullable(SigapPhaseSchema),
    reasons: Type.Array(SigapReasonSchema),
    /** Why the last attempt was not delivered (failed). */
    lastError: Nullable(Type.String()),
    /** What was corrected, for a version after the first (the resend's reason). */
    correction: Nullable(Type.String()),
    madeAt: Timestamp,
    submittedAt: Nullable(Timestamp),
    answeredAt: Nullable(Timestamp),
    /** When a newer version replaced it (null: the current one). */
    supersededAt: Nullable(Timestamp),
    /** 06:00 of the day after `date` in the brand's zone: when SIGAP expects the day's files. */
    deadline: Timestamp,
    /** On time, late, overdue or still due, as the file is read (null for a version a newer one replaced). */
    timeliness: Nullable(SigapTimelinessSchema),
  },
  { $id: 'SigapFile' },
);
export type SigapFile = Static<typeof SigapFileSchema>;

/** A brand's day: its files (every version, newest first per type), and whether SIGAP accepted them all. */
export const SigapDaySchema = Type.Object(
  {
    brandId: Type.String(),
    date: Type.String(),
    timeZone: Type.String(),
    /** 06:00 of the day after `date` in the brand's zone (São Paulo for br-spa): when SIGAP expects the day's files (art. 10, the manual). */
    deadline: Timestamp,
    /** Every current file accepted. */
    accepted: Type.Boolean(),
    /** The day as a whole: on time or late once every current file is accepted (the last one sent decides), else overdue or due. */
    timeliness: SigapTimelinessSchema,
    /** The daily file's check when the SIGAP files were asked for: they are made only from a file that ties. */
    dailyFileTies: Type.Boolean(),
    /** What keeps the daily file from tying (none are made then). */
    problems: Type.Array(Type.String()),
    files: Type.Array(SigapFileSchema),
  },
  { $id: 'SigapDay' },
);
export type SigapDay = Static<typeof SigapDaySchema>;

const DayParams = Type.Object({ brandId: BrandId, date: CalendarDate });
/** Making a day's files reads every line of its daily file; sending them waits for SIGAP. */
const SIGAP_TIMEOUT_MS = 120_000;

export const sigapAdminOperations = defineOperations({
  adminListSigapFiles: {
    id: 'adminListSigapFiles',
    method: 'GET',
    path: '/admin/reports/sigap/files',
    subject: 'compliance.admin.sigap.files.list',
    tag: 'Admin',
    summary: 'The kept SIGAP files, newest day first (one brand, a range of days, one status)',
    query: Type.Object({
      brandId: Type.Optional(BrandId),
      from: Type.Optional(CalendarDate),
      to: Type.Optional(CalendarDate),
      status: Type.Optional(SigapFileStatusSchema),
      /** The current files on time, late, overdue (not accepted past their deadline) or still due (issue #61). */
      timeliness: Type.Optional(SigapTimelinessSchema),
      /** One environment's files (the console shows production unless asked for the sandbox); both when absent. */
      environment: Type.Optional(EnvironmentSchema),
      ...pageQuery(200),
    }),
    response: Page(SigapFileSchema),
    status: 200,
  },
  adminGetSigapDay: {
    id: 'adminGetSigapDay',
    method: 'GET',
    path: '/admin/reports/sigap/files/:brandId/:date',
    subject: 'compliance.admin.sigap.day.get',
    tag: 'Admin',
    summary: "A brand's SIGAP files of a day (made first, for a day that is over, from its daily file if it ties)",
    params: DayParams,
    response: SigapDaySchema,
    status: 200,
    timeoutMs: SIGAP_TIMEOUT_MS,
    errors: ['BRAND_NOT_FOUND'],
  },
  adminSubmitSigapDay: {
    id: 'adminSubmitSigapDay',
    method: 'POST',
    path: '/admin/reports/sigap/files/:brandId/:date/submit',
    subject: 'compliance.admin.sigap.day.submit',
    tag: 'Admin',
    summary:
      "Send a brand's day to SIGAP now: each current file made or not delivered, and the answers of those pending; a day SIGAP accepted whole is not sent again (409 SIGAP_DAY_ACCEPTED)",
    params: DayParams,
    response: SigapDaySchema,
    status: 200,
    timeoutMs: SIGAP_TIMEOUT_MS,
    errors: ['SIGAP_DAY_ACCEPTED', 'BRAND_NOT_FOUND'],
  },
  adminResendSigapFile: {
    id: 'adminResendSigapFile',
    method: 'POST',
    path: '/admin/reports/sigap/files/:brandId/:date/resend',
    subject: 'compliance.admin.sigap.file.resend',
    tag: 'Admin',
    summary: 'After a correction: a new version of a rejected file type, made from the data as it is now, and sent',
    params: DayParams,
    body: Type.Object({
      fileType: SigapFileTypeSchema,
      /** What was corrected: kept on the new version and in the audit log. */
      correction: Type.String({ minLength: 3, maxLength: 500 }),
    }),
    response: SigapDaySchema,
    status: 200,
    errors: ['SIGAP_FILE_NOT_REJECTED'],
    timeoutMs: SIGAP_TIMEOUT_MS,
  },
  adminDownloadSigapFile: {
    id: 'adminDownloadSigapFile',
    method: 'GET',
    path: '/admin/reports/sigap/files/:brandId/:date/:fileId/download',
    subject: 'compliance.admin.sigap.file.download',
    tag: 'Admin',
    summary: 'Download a kept SIGAP file exactly as it was (or will be) sent',
    params: Type.Object({ brandId: BrandId, date: CalendarDate, fileId: Type.String({ minLength: 1, maxLength: 64 }) }),
    query: Type.Object({
      /** The gateway's, while it pages through the file: a caller never sends it. */
      cursor: Type.Optional(Type.String({ maxLength: 64 })),
    }),
    response: FileChunkSchema,
    status: 200,
    download: true,
  },
});
