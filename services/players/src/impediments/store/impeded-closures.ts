// The players blocked after an impediment hit, for the SIGAP "status 10" report (issue #46 item 4,
// keyed as the SPA's FAQ item 22 has it since issue #60: the status is reported on D+1, the day after
// the block): the report of a day lists the players whose block (`restricted_at`) fell on the day
// before, with their closing when it has come (the status change `restrito` → `encerrado` in
// players.player_status_history, written by the players table's trigger) and the reasons of the
// player's last `impeded` answer (players.impediment_checks: after the hit nobody asks again).
import { sigapStatusOfImpediment, type Environment, type ImpededClosure } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

interface ClosureRow {
  id: string;
  external_id: string;
  cpf: string;
  environment: Environment;
  restricted_at: string | Date;
  closed_at: string | Date | null;
  reasons: string | null;
}

/**
 * The SIGAP status a closure is reported with: the code the compliance service's SIGAP files send for
 * the bettor (10 for a social-programme hit, 4 for the central self-exclusion, 6 for our registry).
 */
export function sigapStatusOf(reasons: readonly string[]): string | null {
  return sigapStatusOfImpediment(reasons);
}

/** A brand's players blocked after a hit in [blockedFrom, blockedTo) (the day before the report's), in the order they were blocked. */
export async function closuresOf(sql: SqlRunner, brandId: string, blockedFrom: string, blockedTo: string): Promise<ImpededClosure[]> {
  const rows = await sql.query<ClosureRow>(
    `select p.id, p.external_id, p.cpf, p.environment, p.restricted_at,
            (select h.at from players.player_status_history h
              where h.player_id = p.id and h.status = 'encerrado' and h.previous_status = 'restrito' order by h.at, h.id limit 1) as closed_at,
            (select c.reasons from players.impediment_checks c
              where c.cpf = p.cpf and c.player_id = p.id and c.outcome = 'impeded' order by c.at desc, c.id desc limit 1) as reasons
       from players.players p
      where p.brand_id = ? and p.restricted_at >= ?::timestamptz and p.restricted_at < ?::timestamptz
      order by p.restricted_at, p.id`,
    [brandId, blockedFrom, blockedTo],
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
      closedAt: r.closed_at === null ? null : isoTime(r.closed_at),
    };
  });
}
