// A player's provider rounds and sports bets as the operator reads them (GET /players/{id}/rounds),
// newest first: one indexed read on (brand, player, opened_at desc, provider, round), paged after
// the last row's position.
import type { PlayerRound } from '@bo/contracts';
import { formatMoney, isoTime, type SqlRunner } from '@bo/service-kit';

export interface RoundPosition {
  /** The row's opened_at. */
  at: string;
  providerId: string;
  roundId: string;
}

interface Row extends Omit<PlayerRound, 'openedAt' | 'closedAt'> {
  openedAt: string | Date;
  closedAt: string | Date | null;
}

/** Up to `limit + 1` rounds (the extra one says there is a next page), newest first, after `after`. */
export async function playerRounds(sql: SqlRunner, brandId: string, playerId: string, limit: number, after?: RoundPosition): Promise<PlayerRound[]> {
  const rows = await sql.query<Row>(
    `select r.provider_id as "providerId", p.name as "providerName", r.game_id as "gameId", coalesce(g.game_code, '') as "gameCode",
            r.round_id as "roundId", r.kind, r.status, r.currency, r.staked::text as staked, r.won::text as won,
            r.corrected::text as corrected, r.slip, r.outcome, r.opened_at as "openedAt", r.closed_at as "closedAt"
     from wallet.provider_rounds r
     join wallet.providers p on p.id = r.provider_id
     left join wallet.games g on g.id = r.game_id
     where r.brand_id = ? and r.player_id = ?${after ? ' and (r.opened_at, r.provider_id, r.round_id) < (?::timestamptz, ?, ?)' : ''}
     order by r.opened_at desc, r.provider_id desc, r.round_id desc
     limit ?`,
    [brandId, playerId, ...(after ? [after.at, after.providerId, after.roundId] : []), limit + 1],
  );
  return rows.map((r) => ({
    ...r,
    staked: formatMoney(r.staked),
    won: formatMoney(r.won),
    corrected: formatMoney(r.corrected),
    openedAt: isoTime(r.openedAt),
    closedAt: r.closedAt === null ? null : isoTime(r.closedAt),
  }));
}
