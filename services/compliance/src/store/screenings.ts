// The players screening knows (compliance.screened_players: who to screen again when a list changes,
// and what the last screening found), and the screening simulator's match of a CPF against its lists
// (compliance.screening_simulator_entries, edited through screening-entries.ts). Kit SQL only.
import type { Environment, ScreeningList } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import type { ScreeningCaller, ScreeningHit, ScreeningSubject } from '../screening/port.ts';
import type { PlayerRef } from './watch.ts';

export interface ScreenedPlayerRow {
  player_id: string;
  operator_id: string;
  brand_id: string;
  environment: Environment;
  cpf: string;
  name: string;
  birth_date: string | null;
  last_hits: ScreeningList[];
}

/** Whether the player was screened before. */
export async function isScreened(sql: SqlRunner, playerId: string): Promise<boolean> {
  const known = await sql.query('select 1 from compliance.screened_players where player_id = ?', [playerId]);
  return known.length > 0;
}

/**
 * Records a screening of the player with the lists it found them on (`firstTime`: only if they were
 * never screened; else the last hits and time are updated). False when nothing was recorded (screened before).
 */
export async function recordScreening(tx: SqlRunner, p: PlayerRef, subject: ScreeningSubject, lists: ScreeningList[], firstTime: boolean): Promise<boolean> {
  const recorded = await tx.query(
    `insert into compliance.screened_players (player_id, operator_id, brand_id, environment, cpf, name, birth_date, last_hits, screened_at)
     values (?, ?, ?, ?, ?, ?, ?, ?::text[], now())
     on conflict (player_id) do ${firstTime ? 'nothing' : 'update set last_hits = excluded.last_hits, screened_at = excluded.screened_at'} returning 1`,
    [p.playerId, p.operatorId, p.brandId, p.environment, subject.cpf, subject.name, subject.birthDate, lists],
  );
  return recorded.length > 0;
}

/**
 * A batch of the known players after `after` in id order (`only`: the sandbox players of one operator
 * with one CPF).
 */
export function screenedPlayersAfter(sql: SqlRunner, after: string, only?: { operatorId: string; cpf: string }): Promise<ScreenedPlayerRow[]> {
  const scope = only ? ` and operator_id = ? and environment = 'sandbox' and cpf = ?` : '';
  return sql.query<ScreenedPlayerRow>(
    `select player_id, operator_id, brand_id, environment, cpf, name, birth_date, last_hits from compliance.screened_players
      where player_id > ?${scope} order by player_id limit 200`,
    only ? [after, only.operatorId, only.cpf] : [after],
  );
}

/** The simulator's entries matching the CPF: our team's, and the caller's own sandbox entries for a sandbox player. */
export async function simulatorMatches(sql: SqlRunner, subject: ScreeningSubject, caller: ScreeningCaller): Promise<ScreeningHit[]> {
  const rows = await sql.query<{ id: string; list: ScreeningHit['list']; detail: string }>(
    `select id, list, detail from compliance.screening_simulator_entries
      where cpf = ? and (operator_id is null or (operator_id = ? and ? = 'sandbox')) order by created_at, id`,
    [subject.cpf, caller.operatorId, caller.environment],
  );
  return rows.map((r) => ({ list: r.list, detail: r.detail, reference: r.id }));
}
