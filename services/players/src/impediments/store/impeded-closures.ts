// The players closed after an impediment hit (issue #46 item 4): each closing is the status change
// `restrito` → `encerrado` of a player with `restricted_at` (players.player_status_history, written
// by the players table's trigger), and its reasons are those of the player's last `impeded` answer
// (players.impediment_checks: after the hit nobody asks the registry about the player again).
import { SIGAP_STATUS_SOCIAL_PROGRAMS, type Environment, type ImpededClosure } from '@bo/contracts';
import { isoTime, onlyRow, type SqlRunner } from '@bo/service-kit';

interface ClosureRow {
  id: string;
  external_id: string;
  cpf: string;
  environment: Environment;
  restricted_at: string | Date;
  closed_at: string | Date;
  reasons: string | null;
}

/** The SIGAP status a closure is reported with: 10 for a social-programme hit (the SPA's FAQ, item 22); none known for the others. */
export function sigapStatusOf(reasons: readonly string[]): string | null {
  return reasons.includes('social_program') ? SIGAP_STATUS_SOCIAL_PROGRAMS : null;
}

/** A brand's closures after a hit in [from, to), in the order they happened. */
export async function closuresOf(sql: SqlRunner, brandId: string, from: string, to: string): Promise<ImpededClosure[]> {
  const rows = await sql.query<ClosureRow>(
    `select p.id, p.external_id, p.cpf, p.environment, p.restricted_at, h.at as closed_at,
            (select c.reasons from players.impediment_checks c
              where c.cpf = p.cpf and c.player_id = p.id and c.outcome = 'impeded' order by c.at desc, c.id desc limit 1) as reasons
       from players.player_status_history h join players.players p on p.id = h.player_id
      where h.at >= ?::timestamptz and h.at < ?::timestamptz and h.status = 'encerrado' and h.previous_status = 'restrito'
        and p.brand_id = ? and p.restricted_at is not null
      order by h.at, h.id`,
    [from, to, brandId],
  );
  return rows.map((r) => {
    const reasons = r.reasons ? r.reasons.split(',') : [];
    return {
      playerId: r.id,
      externalId: r.external_id,
      cpf: r.cpf,
      environment: r.environment,
      reasons,
      sigapStatus: sigapStatusOf(reasons),
      restrictedAt: isoTime(r.restricted_at),
      closedAt: isoTime(r.closed_at),
    };
  });
}

/** The bounds of a calendar day in a time zone (Postgres' zone rules, as the limits' periods). */
export async function dayBounds(sql: SqlRunner, date: string, timeZone: string): Promise<{ from: string; to: string }> {
  const row = onlyRow(
    await sql.query<{ from: string | Date; to: string | Date }>(
      `select (?::date)::timestamp at time zone ? as "from", (?::date + 1)::timestamp at time zone ? as "to"`,
      [date, timeZone, date, timeZone],
    ),
  );
  return { from: isoTime(row.from), to: isoTime(row.to) };
}

/** The operator of a brand, as its players say (none: the brand has no player, so no closure either). */
export async function operatorOfBrand(sql: SqlRunner, brandId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ operator_id: string }>('select operator_id from players.players where brand_id = ? limit 1', [brandId]);
  return row?.operator_id;
}
