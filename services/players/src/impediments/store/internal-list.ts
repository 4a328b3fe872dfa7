// Our internal impediments list as the rules and our team's changes read it in SQL (the kit's):
// which CPFs are on it, a put's lock, the players a put restricts, and a removal.
import type { InternalImpedimentCategory } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

/** An entry of the list as a removal returns it. */
interface ListEntry {
  cpf: string;
  category: InternalImpedimentCategory;
  note: string;
  addedBy: string;
  addedAt: Date;
}

/**
 * The CPFs (11 digits) of `cpfs` on the internal list. `sql` is the caller's connection: the
 * transaction's own when one is open (never a second pool connection while it holds one).
 */
export async function listedCpfs(sql: SqlRunner, cpfs: string[]): Promise<Set<string>> {
  if (cpfs.length === 0) return new Set();
  const rows = await sql.query<{ cpf: string }>('select cpf from players.internal_impediments where cpf = any(?::text[])', [cpfs]);
  return new Set(rows.map((r) => r.cpf));
}

/** Two puts of one CPF at once: the second waits here (until the first's transaction ends). */
export async function lockCpfEntry(sql: SqlRunner, cpf: string): Promise<void> {
  await sql.query('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`players.internal_impediment:${cpf}`]);
}

/**
 * As an SPA hit would: the production players of br-spa operators with this CPF, not yet
 * restricted or closed (sandbox brands never consult the internal list).
 */
export async function playersToRestrict(sql: SqlRunner, cpf: string): Promise<Array<{ id: string; operatorId: string; brandId: string }>> {
  return sql.query<{ id: string; operatorId: string; brandId: string }>(
    `select p.id, p.operator_id as "operatorId", p.brand_id as "brandId"
       from players.players p join players.operator_compliance c on c.operator_id = p.operator_id and c.profile = 'br-spa'
      where p.cpf = ? and p.environment = 'production' and p.status <> 'encerrado' and p.restricted_at is null
      order by p.id`,
    [cpf],
  );
}

/** One statement: of two removals at once, one removes and the other finds nothing. The entry as it was. */
export async function removeEntry(sql: SqlRunner, cpf: string): Promise<ListEntry | undefined> {
  const [row] = await sql.query<ListEntry>(
    'delete from players.internal_impediments where cpf = ? returning cpf, category, note, added_by as "addedBy", added_at as "addedAt"',
    [cpf],
  );
  return row;
}
