// The brands this service knows, from the events it has watched (compliance.watched_money: money
// events; compliance.screened_players: screened players): which there are, and a brand's operator and
// environment as the events said. Kit SQL only.
import type { Environment } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

/** Every brand seen, in id order. */
export async function knownBrands(sql: SqlRunner): Promise<string[]> {
  const rows = await sql.query<{ brand_id: string }>(
    'select brand_id from compliance.watched_money union select brand_id from compliance.screened_players order by brand_id',
  );
  return rows.map((r) => r.brand_id);
}

/** The operator of a brand, as the watched events said; undefined when none was seen. */
export async function operatorOfBrand(sql: SqlRunner, brandId: string): Promise<string | undefined> {
  const rows = await sql.query<{ operator_id: string }>(
    `(select operator_id from compliance.watched_money where brand_id = ? limit 1)
     union all (select operator_id from compliance.screened_players where brand_id = ? limit 1) limit 1`,
    [brandId, brandId],
  );
  return rows[0]?.operator_id;
}

/** The brand's environment as the watched events said (null: never seen). */
export async function brandEnvironment(sql: SqlRunner, brandId: string): Promise<Environment | null> {
  const rows = await sql.query<{ environment: Environment }>(
    `(select environment from compliance.watched_money where brand_id = ? limit 1)
     union all (select environment from compliance.screened_players where brand_id = ? limit 1) limit 1`,
    [brandId, brandId],
  );
  return rows[0]?.environment ?? null;
}
