// Brands as our team picks them (issue #61): each with its operator's name, narrowed by what a
// name contains, an operator or an environment; and one brand by id, for the services that make
// something for a brand only once it is one of ours (a regulator file). Kit SQL only.
import type { Brand, Environment } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

interface BrandRow {
  id: string;
  operator_id: string;
  operator_name: string;
  name: string;
  environment: Environment;
  currency: string;
}

const SELECT = `select b.id, b.operator_id, o.name operator_name, b.name, b.environment, b.currency
  from operators.brands b join operators.operators o on o.id = b.operator_id`;

const brandOf = (r: BrandRow): Brand => ({
  id: r.id,
  operatorId: r.operator_id,
  operatorName: r.operator_name,
  name: r.name,
  environment: r.environment,
  currency: r.currency,
});

/** Every brand matching the filter, by operator name then environment (production first), at most 500. */
export async function listBrands(sql: SqlRunner, f: { q?: string; operatorId?: string; environment?: Environment }): Promise<Brand[]> {
  const like = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await sql.query<BrandRow>(
    `${SELECT}
     where (?::text is null or o.name ilike ? or b.name ilike ? or b.id = ? or o.id = ?)
       and (?::text is null or b.operator_id = ?) and (?::text is null or b.environment = ?)
     order by lower(o.name), o.id, b.environment = 'sandbox', b.id limit 500`,
    [like, like, like, f.q ?? null, f.q ?? null, f.operatorId ?? null, f.operatorId ?? null, f.environment ?? null, f.environment ?? null],
  );
  return rows.map(brandOf);
}

/** One brand by its id; undefined when there is none. */
export async function brandById(sql: SqlRunner, id: string): Promise<Brand | undefined> {
  const rows = await sql.query<BrandRow>(`${SELECT} where b.id = ?`, [id]);
  return rows[0] ? brandOf(rows[0]) : undefined;
}
