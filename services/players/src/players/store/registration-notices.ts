// The br-spa players whose registration announcement is due (issue #60 item 1): what their row lacks
// (fields, and a loss or a time limit in force, as contracts' limitInForce reads a limit) differs from
// what was last announced (`registration_announced`), or they were announced incomplete and are not any
// more. Read in batches by player id; each is then announced on its locked row (handlers/registration-notices.ts).
import type { SqlRunner } from '@bo/service-kit';

const limitInForce = (type: string) =>
  `exists (select 1 from players.rg_limits l where l.player_id = p.id and l.type = '${type}' and not (l.pending_removal and l.pending_effective_at <= ?::timestamptz))`;

export async function playersToAnnounce(sql: SqlRunner, now: Date, after: string, limit: number): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `with m as (
       select p.id, p.registration_announced as announced,
              to_jsonb(array_remove(array[
                case when p.phone is null or p.phone = '' then 'phone' end,
                case when p.gender is null then 'gender' end,
                case when p.signup_ip is null then 'signupIp' end,
                case when p.address is null then 'address' end,
                case when not ${limitInForce('loss')} then 'loss' end,
                case when not ${limitInForce('time')} then 'time' end], null)) as missing
         from players.players p join players.operator_compliance c on c.operator_id = p.operator_id and c.profile = 'br-spa'
        where p.status <> 'encerrado' and p.id > ?)
     select id from m
      where (missing <> '[]'::jsonb and (announced is null or announced <> missing)) or (missing = '[]'::jsonb and announced is not null)
      order by id limit ?`,
    [now, now, after, limit],
  );
  return rows.map((r) => r.id);
}
