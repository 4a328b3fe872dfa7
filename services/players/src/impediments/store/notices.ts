// The one-day notice after a hit (issue #60 item 6; IN SPA/MF 31/2025 as reported: the bettor is told
// within a day of the block): the players blocked longer ago than that with no `impediment_notice`
// reported at or after the block. Counted when scraped: blocked players are few (players_restricted).
import { onlyRow, type SqlRunner } from '@bo/service-kit';

export async function noticesOverdue(sql: SqlRunner, dueBefore: Date): Promise<{ sandbox: number; production: number }> {
  const row = onlyRow(
    await sql.query<{ sandbox: string; production: string }>(
      `select count(*) filter (where p.environment = 'sandbox') as sandbox, count(*) filter (where p.environment = 'production') as production
         from players.players p
        where p.restricted_at is not null and p.restricted_at < ?::timestamptz
          and not exists (select 1 from players.communications c
                           where c.player_id = p.id and c.kind = 'impediment_notice' and c.sent_at >= p.restricted_at)`,
      [dueBefore],
    ),
  );
  return { sandbox: Number(row.sandbox), production: Number(row.production) };
}
