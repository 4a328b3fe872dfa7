// A decision's audit rows as the deciding service wrote them into its outbox (service-kit
// audit-outbox.ts), for tests that look at the service alone (no operators service running).
import type { AuditRecorded } from '@bo/contracts';

interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** The `audit.recorded` rows of `schema`'s outbox about `target`, oldest first. */
export async function outboxAudits(sql: Queryable, schema: string, target: string): Promise<AuditRecorded[]> {
  const { rows } = await sql.query(`select payload from "${schema}".outbox where subject_type = 'audit.recorded' order by seq`);
  return rows.map((r) => (JSON.parse(r.payload as string) as { data: AuditRecorded }).data).filter((a) => a.target === target);
}
