// The sandbox's next day of one player in the kit's SQL: what the rules read of the player's past
// made a day older (the last impediment check, the time of a hit, its limits' pending changes).
import type { SqlRunner } from '@bo/service-kit';

export async function makeDayOlder(sql: SqlRunner, playerId: string, brandId: string): Promise<void> {
  await sql.query(
    `with p as (update players.players set impediment_checked_at = impediment_checked_at - interval '1 day', restricted_at = restricted_at - interval '1 day'
                where id = ? and brand_id = ? and environment = 'sandbox' returning id)
     update players.rg_limits set pending_effective_at = pending_effective_at - interval '1 day'
      where player_id in (select id from p) and pending_effective_at is not null`,
    [playerId, brandId],
  );
}
