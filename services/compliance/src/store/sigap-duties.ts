// The operators' CNPJ the SIGAP files carry, and the brands' monthly SIGAP reports (issue #60 item 4):
// plain SQL. A monthly report's next version is numbered under an advisory lock of its brand and month.
import type { Sql, SqlRunner } from '@bo/service-kit';

export interface CnpjRow {
  operator_id: string;
  cnpj: string;
  reason: string;
  set_by: string;
  set_at: Date | string;
}

export async function operatorCnpj(sql: SqlRunner, operatorId: string | null): Promise<CnpjRow | undefined> {
  if (!operatorId) return undefined;
  const [row] = await sql.query<CnpjRow>('select * from compliance.operator_cnpjs where operator_id = ?', [operatorId]);
  return row;
}

/** Sets the operator's CNPJ; the row before (for the audit) and after, with `alongside` in the same transaction. */
export function setOperatorCnpj(
  sql: Sql,
  o: { operatorId: string; cnpj: string; reason: string; by: string; at: Date },
  alongside: (before: CnpjRow | undefined, after: CnpjRow, tx: SqlRunner) => Promise<void>,
): Promise<CnpjRow> {
  return sql.transaction(async (tx) => {
    const [before] = await tx.query<CnpjRow>('select * from compliance.operator_cnpjs where operator_id = ? for update', [o.operatorId]);
    const [after] = await tx.query<CnpjRow>(
      `insert into compliance.operator_cnpjs (operator_id, cnpj, reason, set_by, set_at) values (?, ?, ?, ?, ?)
         on conflict (operator_id) do update set cnpj = excluded.cnpj, reason = excluded.reason, set_by = excluded.set_by, set_at = excluded.set_at
       returning *`,
      [o.operatorId, o.cnpj, o.reason, o.by, o.at],
    );
    await alongside(before, after!, tx);
    return after!;
  });
}

export interface MonthlyRow {
  brand_id: string;
  month: string;
  version: number;
  operator_id: string;
  environment: string | null;
  content: string;
  checksum: string;
  made_by: string;
  made_at: Date | string;
}

export function monthlyReports(sql: SqlRunner, brandId: string, month: string): Promise<MonthlyRow[]> {
  return sql.query<MonthlyRow>('select * from compliance.sigap_monthly_reports where brand_id = ? and month = ? order by version desc', [brandId, month]);
}

/** Keeps the next version of the brand's month, its content made by `contentOf(version)`. */
export function keepMonthly(
  sql: Sql,
  o: { brandId: string; month: string; operatorId: string; environment: string | null; madeBy: string; madeAt: Date },
  contentOf: (version: number) => { content: string; checksum: string },
  alongside: (kept: MonthlyRow, tx: SqlRunner) => Promise<void>,
): Promise<MonthlyRow> {
  return sql.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`compliance.sigap_monthly:${o.brandId}:${o.month}`]);
    const [last] = await tx.query<{ v: number }>(
      'select coalesce(max(version), 0)::int as v from compliance.sigap_monthly_reports where brand_id = ? and month = ?',
      [o.brandId, o.month],
    );
    const version = (last?.v ?? 0) + 1;
    const { content, checksum } = contentOf(version);
    const [row] = await tx.query<MonthlyRow>(
      `insert into compliance.sigap_monthly_reports (brand_id, month, version, operator_id, environment, content, checksum, made_by, made_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
      [o.brandId, o.month, version, o.operatorId, o.environment, content, checksum, o.madeBy, o.madeAt],
    );
    await alongside(row!, tx);
    return row!;
  });
}
