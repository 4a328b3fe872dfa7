// Who of our team read which player's personal data (issue #69; LGPD art. 37 and 46): one row per
// player an admin answer carried personal data of (CPF, phone, address, sign-up IP), masked or
// revealed, and one per read a regulator made of anything. The gateway records them before it
// answers (fail closed: a read it cannot record is not answered); they sit beside the audit log,
// which records the changes, and compliance reads them (GET /admin/personal-data-reads).
import { newId } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

export interface ReadsToRecord {
  actor: string;
  actorId: string | null;
  role: string;
  operation: string;
  route: string;
  requestId: string;
  reads: { playerId: string | null; fields: string[]; revealed: string[] }[];
}

/** One insert, however many players the answer named: the read path pays one statement. */
export async function recordPersonalDataReads(sql: SqlRunner, r: ReadsToRecord): Promise<number> {
  const values: unknown[] = [];
  for (const read of r.reads) {
    values.push(newId('personalDataRead'), r.actor, r.actorId, r.role, read.playerId, read.fields, read.revealed, r.operation, r.route, r.requestId);
  }
  await sql.query(
    `insert into operators.personal_data_reads (id, actor, actor_id, role, player_id, fields, revealed, operation, route, request_id, at)
     values ${r.reads.map(() => '(?, ?, ?, ?, ?, ?::text[], ?::text[], ?, ?, ?, now())').join(', ')}`,
    values,
  );
  return r.reads.length;
}

export interface ReadsFilter {
  playerId?: string;
  actorId?: string;
  revealed?: boolean;
  limit?: number;
  startingAfter?: string;
}

/** Newest first, by player, by person, or only reveals; `startingAfter` the last row's id of the page before. */
export async function listPersonalDataReads(sql: SqlRunner, q: ReadsFilter) {
  const conditions: string[] = [];
  const args: unknown[] = [];
  if (q.playerId !== undefined) conditions.push('player_id = ?') && args.push(q.playerId);
  if (q.actorId !== undefined) conditions.push('actor_id = ?') && args.push(q.actorId);
  if (q.revealed === true) conditions.push('cardinality(revealed) > 0');
  if (q.startingAfter !== undefined) {
    conditions.push('(at, id) < (select at, id from operators.personal_data_reads where id = ?)');
    args.push(q.startingAfter);
  }
  const limit = q.limit ?? 50;
  const rows = await sql.query<{
    id: string;
    actor: string;
    actor_id: string | null;
    role: string;
    player_id: string | null;
    fields: string[];
    revealed: string[];
    operation: string;
    route: string;
    request_id: string;
    at: string;
  }>(
    `select id, actor, actor_id, role, player_id, fields, revealed, operation, route, request_id, at from operators.personal_data_reads
      ${conditions.length ? `where ${conditions.join(' and ')}` : ''} order by at desc, id desc limit ?`,
    [...args, limit + 1],
  );
  const data = rows.slice(0, limit).map((r) => ({
    id: r.id,
    actor: r.actor,
    actorId: r.actor_id,
    role: r.role,
    playerId: r.player_id,
    fields: r.fields,
    revealed: r.revealed,
    operation: r.operation,
    route: r.route,
    requestId: r.request_id,
    at: isoTime(r.at),
  }));
  return { data, hasMore: rows.length > limit };
}
