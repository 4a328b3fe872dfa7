// The admin audit log: who did what, when, before and after; written in the transaction of the
// change it records (or, for an admin operation another service served, when the gateway sends it).
import { isoTime, type SqlRunner } from '@bo/service-kit';
import { newId, type AuditRecord } from '@bo/contracts';

const jsonOrNull = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export async function recordAudit(tx: SqlRunner, r: AuditRecord): Promise<void> {
  await tx.query(
    `insert into operators.audit_log (id, actor, action, target, before, after, request_id, at) values (?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, now())`,
    [newId('audit'), r.actor, r.action, r.target, jsonOrNull(r.before), jsonOrNull(r.after), r.requestId],
  );
}

export interface AuditFilter {
  target?: string;
  actor?: string;
  action?: string;
  limit?: number;
}

/** Newest first, filtered by target, actor and action. */
export async function listAudit(sql: SqlRunner, q: AuditFilter) {
  const filters = (['target', 'actor', 'action'] as const).filter((f) => q[f] !== undefined);
  const where = filters.length ? `where ${filters.map((f) => `${f} = ?`).join(' and ')}` : '';
  const rows = await sql.query<{ id: string; actor: string; action: string; target: string; before: unknown; after: unknown; request_id: string; at: string }>(
    `select id, actor, action, target, before, after, request_id, at from operators.audit_log ${where} order by at desc, id desc limit ?`,
    [...filters.map((f) => q[f]), q.limit ?? 50],
  );
  return rows.map((r) => ({
    id: r.id,
    actor: r.actor,
    action: r.action,
    target: r.target,
    before: r.before,
    after: r.after,
    requestId: r.request_id,
    at: isoTime(r.at),
  }));
}
