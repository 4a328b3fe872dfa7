// The refusals a registration meets before anything else, and a closed account's reopening (who holds
// its CPF now), read in the kit's SQL.
import type { SqlRunner } from '@bo/service-kit';

/**
 * Who holds the externalId in the brand, and (with `cpf`) the brand's player not closed holding the
 * CPF (a closed one does not count: a new registration is checked afresh). One statement of two index
 * lookups (an OR of the two made the planner walk the brand's players on a growing table), prepared
 * once per connection by the kit's `sql`.
 */
export async function holdersOf(
  sql: SqlRunner,
  brandId: string,
  externalId: string,
  cpf: string | null,
): Promise<{ external: string | null; cpf: string | null } | undefined> {
  const [held] = await sql.query<{ external: string | null; cpf: string | null }>(
    `select (select id from players.players where brand_id = ? and external_id = ?) as external,
            (select id from players.players where brand_id = ? and cpf = ? and status <> 'encerrado' limit 1) as cpf`,
    [brandId, externalId, brandId, cpf],
  );
  return held;
}

/**
 * The brand's other account that the partial unique index players_one_per_cpf counts for `cpf`
 * (registered under br-spa, not closed), if any: a closed such account may not reopen while one
 * does. `exceptId`: the account being reopened.
 */
export async function openCpfHolderOf(sql: SqlRunner, brandId: string, cpf: string, exceptId: string): Promise<string | null> {
  const [held] = await sql.query<{ id: string }>(
    `select id from players.players where brand_id = ? and cpf = ? and cpf_unique and status <> 'encerrado' and id <> ? limit 1`,
    [brandId, cpf, exceptId],
  );
  return held?.id ?? null;
}
