// The SIGAP files kept exactly as sent (compliance.sigap_files), with SIGAP's answer: a version of a
// file type made in one transaction (its parts, the earlier versions marked superseded), a brand's day
// and the list, a file claimed for sending, an answer kept, a file's content. Kit SQL only.
import type { Environment, SigapFile, SigapFileStatus, SigapFileType, SigapPhase, SigapReason } from '@bo/contracts';
import type { Sql, SqlRunner } from '@bo/service-kit';

/** A kept file's row. */
export interface SigapRow {
  id: string;
  brand_id: string;
  operator_id: string | null;
  environment: Environment | null;
  date: string;
  file_type: SigapFileType;
  version: number;
  part: number;
  parts: number;
  file_name: string;
  records: number;
  checksum: string;
  content?: string;
  status: SigapFileStatus;
  via: SigapFile['via'];
  attempts: number;
  receipt: string | null;
  protocol: string | null;
  phase: SigapPhase | null;
  reasons: SigapReason[];
  last_error: string | null;
  correction: string | null;
  made_at: string | Date;
  claimed_at: string | Date | null;
  submitted_at: string | Date | null;
  answered_at: string | Date | null;
  superseded_at: string | Date | null;
}

/** Every column but the content (a file's content is read only to send or download it). */
const COLUMNS = `id, brand_id, operator_id, environment, date, file_type, version, part, parts, file_name, records, checksum, status, via, attempts,
  receipt, protocol, phase, reasons, last_error, correction, made_at, claimed_at, submitted_at, answered_at, superseded_at`;

/**
 * A file's deadline in SQL (issue #61): 06:00 of the day after its date in its brand's zone (its daily
 * file's; São Paulo when none is kept), for `files` joined to their daily file as `r`.
 */
const DEADLINE = `((files.date::date + 1)::timestamp + interval '6 hours') at time zone coalesce(r.time_zone, 'America/Sao_Paulo')`;
/** A file's timeliness in SQL at `?` (now), beside its deadline (domain: reports/sigap-files.ts `timelinessOf`). */
const TIMELINESS = `case when files.superseded_at is not null then null
  when files.status = 'accepted' then case when files.submitted_at <= d.deadline then 'on_time' else 'late' end
  when ?::timestamptz > d.deadline then 'overdue' else 'due' end`;

/** A page of the kept files, newest day first (then id, descending), `limit` of them, each with its brand's zone. */
export function listSigapFiles(
  sql: SqlRunner,
  f: {
    brandId?: string;
    from?: string;
    to?: string;
    status?: string;
    environment?: Environment;
    /** The current files on time, late, overdue (not accepted past the deadline) or still due at `now`. */
    timeliness?: string;
    now: Date;
    after?: { at: string; id: string };
    limit: number;
  },
): Promise<Array<SigapRow & { time_zone: string | null }>> {
  return sql.query<SigapRow & { time_zone: string | null }>(
    `select ${COLUMNS.replace(/(\w+)/g, 'files.$1')}, r.time_zone
     from compliance.sigap_files files
     left join compliance.daily_reports r on r.brand_id = files.brand_id and r.date = files.date
     cross join lateral (select ${DEADLINE} as deadline) d
     where (?::text is null or files.brand_id = ?) and (?::text is null or files.date >= ?) and (?::text is null or files.date <= ?)
       and (?::text is null or files.status = ?) and (?::text is null or files.environment = ?)
       and (?::text is null or (${TIMELINESS}) = ?)
       and (?::text is null or files.date < ? or (files.date = ? and files.id < ?))
     order by files.date desc, files.id desc limit ?`,
    [
      ...[f.brandId, f.brandId, f.from, f.from, f.to, f.to, f.status, f.status, f.environment, f.environment].map((v) => v ?? null),
      f.timeliness ?? null,
      f.now,
      f.timeliness ?? null,
      ...[f.after?.at, f.after?.at, f.after?.at, f.after?.id].map((v) => v ?? null),
      f.limit,
    ],
  );
}

/** A part of a version to keep. */
export interface SigapPart {
  id: string;
  part: number;
  file_name: string;
  records: number;
  checksum: string;
  content: string;
}

/**
 * Keeps a version of a file type of a brand's day (its parts, made), and marks the earlier versions
 * superseded, in one transaction. Two makers at once keep each part once.
 */
export async function keepVersion(
  sql: Sql,
  v: {
    brandId: string;
    operatorId: string | null;
    environment: Environment | null;
    date: string;
    type: SigapFileType;
    version: number;
    parts: SigapPart[];
    correction: string | null;
    now: Date;
  },
): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query(
      `insert into compliance.sigap_files (id, brand_id, operator_id, environment, date, file_type, version, part, parts, file_name, records, checksum, content,
         status, attempts, reasons, correction, made_at)
       select f.id, ?, ?, ?, ?, ?, ?, f.part, ?, f.file_name, f.records, f.checksum, f.content, 'made', 0, '[]'::jsonb, ?, ?
       from jsonb_to_recordset(?::jsonb) as f(id text, part int, file_name text, records int, checksum text, content text)
       on conflict do nothing`,
      [v.brandId, v.operatorId, v.environment, v.date, v.type, v.version, v.parts.length, v.correction, v.now, JSON.stringify(v.parts)],
    );
    await tx.query(
      'update compliance.sigap_files set superseded_at = ? where brand_id = ? and date = ? and file_type = ? and version < ? and superseded_at is null',
      [v.now, v.brandId, v.date, v.type, v.version],
    );
  });
}

/** Every file of a brand's day (without content), by type in SIGAP_FILE_TYPES' order (`types`), newest version first, then part. */
export function filesOfDay(sql: SqlRunner, brandId: string, date: string, types: readonly string[]): Promise<SigapRow[]> {
  return sql.query<SigapRow>(
    `select ${COLUMNS} from compliance.sigap_files where brand_id = ? and date = ?
     order by array_position(?::text[], file_type), version desc, part`,
    [brandId, date, [...types]],
  );
}

/** An undelivered file back to `status` with why (only if it is still `from`). */
export async function keepUndelivered(sql: SqlRunner, id: string, from: SigapFileStatus, status: SigapFileStatus, why: string): Promise<void> {
  await sql.query(`update compliance.sigap_files set status = ?, last_error = ? where id = ? and status = ?`, [status, why, id, from]);
}

/** SIGAP's answer kept on the file (only if it is still `from`). */
export async function keepAnswered(
  sql: SqlRunner,
  id: string,
  from: SigapFileStatus,
  a: {
    status: SigapFileStatus;
    receipt: string | null;
    protocol: string | null;
    phase: SigapPhase | null;
    reasons: SigapReason[];
    now: Date;
    answeredAt: Date | null;
  },
): Promise<void> {
  await sql.query(
    `update compliance.sigap_files set status = ?, receipt = ?, protocol = coalesce(?, protocol), phase = ?, reasons = ?::jsonb, last_error = null,
       submitted_at = coalesce(submitted_at, ?), answered_at = ? where id = ? and status = ?`,
    [a.status, a.receipt, a.protocol, a.phase, JSON.stringify(a.reasons), a.now, a.answeredAt, id, from],
  );
}

/**
 * Claims a current file for sending (`sending`, one more attempt, through `via`) if it is made, was
 * not delivered, or its sender's claim is older than `staleBefore`; with its content, or undefined
 * when another sender has it.
 */
export async function claimForSending(
  sql: SqlRunner,
  id: string,
  via: string,
  now: Date,
  staleBefore: Date,
): Promise<(SigapRow & { content: string }) | undefined> {
  const claimed = await sql.query<SigapRow & { content: string }>(
    `update compliance.sigap_files set status = 'sending', claimed_at = ?, attempts = attempts + 1, via = ?
     where id = ? and superseded_at is null and (status in ('made', 'failed') or (status = 'sending' and claimed_at < ?))
     returning id, brand_id, operator_id, date, file_type, part, parts, file_name, checksum, content`,
    [now, via, id, staleBefore],
  );
  return claimed[0];
}

/** The content of a kept file, by id within its brand's day. */
export async function contentOf(sql: SqlRunner, brandId: string, date: string, id: string): Promise<{ fileName: string; content: string } | undefined> {
  const rows = await sql.query<{ file_name: string; content: string }>(
    'select file_name, content from compliance.sigap_files where id = ? and brand_id = ? and date = ?',
    [id, brandId, date],
  );
  return rows[0] ? { fileName: rows[0].file_name, content: rows[0].content } : undefined;
}
