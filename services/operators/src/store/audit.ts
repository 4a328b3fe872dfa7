// The admin audit log: who did what, when, before and after; written in the transaction of the
// change it records: this service's own changes here, another service's changes and decisions
// through that service's outbox (audit-intake.ts).
import { auditRowId, isoTime, type DecisionAudit, type DecisionAuthor, type SqlRunner } from '@bo/service-kit';
import { newId, type AuditRecord, type AuditRecorded } from '@bo/contracts';

const jsonOrNull = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

const INSERT = `insert into operators.audit_log (id, actor, actor_id, action, target, before, after, request_id, at)
  values (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, now())`;
const valuesOf = (id: string, r: AuditRecord) => [id, r.actor, r.actorId ?? null, r.action, r.target, jsonOrNull(r.before), jsonOrNull(r.after), r.requestId];

export async function recordAudit(tx: SqlRunner, r: AuditRecord): Promise<void> {
  await tx.query(INSERT, valuesOf(newId('audit'), r));
}

/**
 * An admin request's change to this service's data, in its transaction: under the id made from the
 * request's key when it has one (the kit's auditRowId), so a change run again under its key (its
 * first answer lost in a crash) keeps its one row.
 */
export async function recordAdminChange(tx: SqlRunner, by: DecisionAuthor, d: DecisionAudit): Promise<void> {
  const r: AuditRecord = { actor: by.actor, actorId: by.personId ?? null, requestId: by.requestId, ...d };
  await tx.query(`${INSERT} on conflict (id) do nothing`, valuesOf(auditRowId(by, d), r));
}

/** A row the deciding service made (its id and time made there): inserted once, however often it arrives. */
export async function recordAuditOnce(tx: SqlRunner, r: AuditRecorded): Promise<void> {
  await tx.query(
    `insert into operators.audit_log (id, actor, actor_id, action, target, before, after, request_id, at)
     values (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?::timestamptz) on conflict (id) do nothing`,
    [...valuesOf(r.id, r), r.at],
  );
}

export interface AuditFilter {
  target?: string;
  actor?: string;
  action?: string;
  limit?: number;
  /** The id of the last row of the page before: the rows after it in this order (Stripe's `starting_after`). */
  startingAfter?: string;
}

/**
 * Newest first, filtered by target, actor and action, `limit` at a time; `hasMore` says a next page
 * exists, asked with `startingAfter` the last row's id (an id that is no row of the log gives nothing).
 */
export async function listAudit(sql: SqlRunner, q: AuditFilter) {
  const filters = (['target', 'actor', 'action'] as const).filter((f) => q[f] !== undefined);
  const conditions = filters.map((f) => `${f} = ?`);
  if (q.startingAfter !== undefined) conditions.push('(at, id) < (select at, id from operators.audit_log where id = ?)');
  const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
  const limit = q.limit ?? 50;
  const rows = await sql.query<{
    id: string;
    actor: string;
    actor_id: string | null;
    action: string;
    target: string;
    before: unknown;
    after: unknown;
    request_id: string;
    at: string;
  }>(`select id, actor, actor_id, action, target, before, after, request_id, at from operators.audit_log ${where} order by at desc, id desc limit ?`, [
    ...filters.map((f) => q[f]),
    ...(q.startingAfter !== undefined ? [q.startingAfter] : []),
    limit + 1,
  ]);
  const data = rows.slice(0, limit).map((r) => ({
    id: r.id,
    actor: r.actor,
    actorId: r.actor_id,
    action: r.action,
    target: r.target,
    before: r.before,
    after: r.after,
    requestId: r.request_id,
    at: isoTime(r.at),
  }));
  return { data, hasMore: rows.length > limit };
}
