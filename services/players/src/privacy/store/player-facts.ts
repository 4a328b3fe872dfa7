// What the privacy module reads of a player for retention: when the account was closed (its last
// `encerrado`, while it is closed) and when its newest connection datum was collected; and the
// players whose retention has ended, for the sweep.
import type { SqlRunner } from '@bo/service-kit';

export interface RetentionFacts {
  closedAt: Date | null;
  /** The newest connection datum (a terms acceptance's IP) still held, or null. */
  newestConnection: Date | null;
  /** The newest connection datum collected at or after `since` (still inside its months), or null. */
  youngestKeptConnection: Date | null;
}

export async function retentionFacts(sql: SqlRunner, playerId: string, since: Date): Promise<RetentionFacts> {
  const [row] = await sql.query<{ closed_at: Date | null; newest: Date | null; youngest: Date | null }>(
    `with p as (select id, status from players.players where id = ?),
          collected as (select accepted_at as at from players.terms_acceptances t, p where t.player_id = p.id and t.ip <> '')
     select (select max(h.at) from players.player_status_history h, p where h.player_id = p.id and h.status = 'encerrado' and p.status = 'encerrado') as closed_at,
            (select max(at) from collected) as newest,
            (select max(at) from collected where at >= ?) as youngest`,
    [playerId, since],
  );
  const date = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v));
  return { closedAt: date(row?.closed_at), newestConnection: date(row?.newest), youngestKeptConnection: date(row?.youngest) };
}

/** Closed players whose relationship duty ended before `closedBefore` and who are not anonymised yet. */
export async function playersPastRetention(sql: SqlRunner, closedBefore: Date, limit: number): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `select p.id from players.players p
      where p.status = 'encerrado' and p.anonymised_at is null
        and (select max(h.at) from players.player_status_history h where h.player_id = p.id and h.status = 'encerrado') < ?
      order by p.id limit ?`,
    [closedBefore, limit],
  );
  return rows.map((r) => r.id);
}

/** Players with a connection datum (a terms acceptance's IP) collected before `before` still held. */
export async function playersWithOldConnections(sql: SqlRunner, before: Date, limit: number): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `select distinct player_id as id from players.terms_acceptances where ip <> '' and accepted_at < ? order by player_id limit ?`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}

export async function markAnonymised(sql: SqlRunner, playerId: string, at: Date): Promise<void> {
  await sql.query('update players.players set anonymised_at = ? where id = ? and anonymised_at is null', [at, playerId]);
}
