// What players.state says under br-spa of a player's terms: the version to accept next, and from
// when, read in one statement of the kit's SQL (the caller's transaction's connection when it holds one).
import type { TermsDue } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import { termsDue } from '../domain/terms.ts';

/** What players.state says under br-spa: the version the player must accept next, and from when. One statement. */
export async function termsDueOf(sql: SqlRunner, player: { id: string; brandId: string }, now: Date): Promise<TermsDue | null> {
  const rows = await sql.query<{ id: string; version: string; published_at: Date; created_at: Date; accepted: boolean }>(
    `select v.id, v.version, v.published_at, v.created_at,
            exists (select 1 from players.terms_acceptances a where a.player_id = ? and a.version = v.version) as accepted
       from players.terms_versions v where v.brand_id = ?`,
    [player.id, player.brandId],
  );
  const versions = rows.map((r) => ({ id: r.id, version: r.version, publishedAt: new Date(r.published_at), createdAt: new Date(r.created_at) }));
  return termsDue(versions, new Set(rows.filter((r) => r.accepted).map((r) => r.version)), now);
}
