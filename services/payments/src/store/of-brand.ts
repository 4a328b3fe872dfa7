// The tenant check of a row found by its primary key. Written `(brand_id = ?) is true` so it is a
// filter on that row, never an index condition: a brand whose rows are not in the planner's
// statistics yet (a new brand, a table analysed before it) is estimated at one row, and the
// planner would then walk a brand-leading index (unique (brand_id, external_reference)) with the
// id as a filter, reading every row of the brand (seen: ~600 pages per confirm).
import type { SqlRunner } from '@bo/service-kit';

export const OF_BRAND = '(brand_id = ?) is true';

/**
 * The row `id` of `table` (of the brand; of any brand when `brandId` is undefined), `lock`ed when
 * asked (`for update`, or `for update skip locked` for a reconciler that passes over a busy row).
 */
export async function rowById<R>(
  sql: SqlRunner,
  table: string,
  columns: string,
  id: string,
  brandId: string | undefined,
  lock: '' | ' for update' | ' for update skip locked' = '',
): Promise<R | undefined> {
  const rows = await sql.query(`select ${columns} from ${table} where id = ? ${brandId ? `and ${OF_BRAND}` : ''}${lock}`, brandId ? [id, brandId] : [id]);
  return rows[0] as R | undefined;
}
