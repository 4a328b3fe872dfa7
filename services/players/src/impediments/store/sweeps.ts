// The sweep's statements in the kit's SQL: its rows (players.impediment_sweeps), the batch of
// players it asks next, and a clean answer's date on the player.
import type { Environment } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

export interface SweepCandidate {
  id: string;
  operatorId: string;
  brandId: string;
  environment: Environment;
  cpf: string;
}

/** The sweep under way first, else the newest. */
export async function newestSweep(sql: SqlRunner): Promise<{ id: string; startedAt: Date; finishedAt: Date | null } | undefined> {
  return (
    await sql.query<{ id: string; startedAt: Date; finishedAt: Date | null }>(
      'select id, started_at as "startedAt", finished_at as "finishedAt" from players.impediment_sweeps order by (finished_at is null) desc, started_at desc limit 1',
    )
  )[0];
}

/** At most one open sweep: two replicas starting one at once insert one row. */
export async function startSweep(sql: SqlRunner, now: Date): Promise<void> {
  await sql.query(
    `insert into players.impediment_sweeps (id, started_at, cursor, checked, hits, unavailable, finished_at)
     values (?, ?, null, 0, 0, 0, null) on conflict do nothing`,
    [`sweep_${now.toISOString()}`, now],
  );
}

/** The next players of br-spa operators after `cursor`, not closed or restricted, not checked today (their operator's day). */
export async function sweepCandidates(sql: SqlRunner, cursor: string, now: Date, limit: number): Promise<SweepCandidate[]> {
  return sql.query<SweepCandidate>(
    `select p.id, p.operator_id as "operatorId", p.brand_id as "brandId", p.environment, p.cpf
       from players.players p join players.operator_compliance c on c.operator_id = p.operator_id and c.profile = 'br-spa'
      where p.id > ? and p.status <> 'encerrado' and p.restricted_at is null
        and (p.impediment_checked_at is null
             or (p.impediment_checked_at at time zone c.time_zone)::date <> (?::timestamptz at time zone c.time_zone)::date)
      order by p.id limit ?`,
    [cursor, now, limit],
  );
}

/** A clean answer dates the player's last successful check. */
export async function markChecked(sql: SqlRunner, playerId: string, now: Date): Promise<void> {
  await sql.query('update players.players set impediment_checked_at = ? where id = ?', [now, playerId]);
}
