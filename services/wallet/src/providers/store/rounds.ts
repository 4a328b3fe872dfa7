// A player's provider rounds and sports bets as the operator reads them (GET /players/{id}/rounds),
// newest first: one indexed read on (brand, player, opened_at desc, provider, round), paged after
// the last row's position; a sports bet with its latest data update (store/bet-updates.ts), one
// probe of its updates' key each.
import type { PlayerRound } from '@bo/contracts';
import { formatMoney, isoTime, type SqlRunner } from '@bo/service-kit';

export interface RoundPosition {
  /** The row's opened_at. */
  at: string;
  providerId: string;
  roundId: string;
}

interface Row extends Omit<PlayerRound, 'openedAt' | 'closedAt' | 'update'> {
  openedAt: string | Date;
  closedAt: string | Date | null;
  updateStatus: string | null;
  updateSlip: NonNullable<PlayerRound['update']>['slip'];
  updateVersion: string | null;
  updates: string | null;
  updateAt: string | Date | null;
}

/** Up to `limit + 1` rounds (the extra one says there is a next page), newest first, after `after`. */
export async function playerRounds(sql: SqlRunner, brandId: string, playerId: string, limit: number, after?: RoundPosition): Promise<PlayerRound[]> {
  const rows = await sql.query<Row>(
    `select r.provider_id as "providerId", p.name as "providerName", r.game_id as "gameId", coalesce(g.game_code, '') as "gameCode",
            r.round_id as "roundId", r.kind, r.status, r.currency, r.staked::text as staked, r.won::text as won,
            r.corrected::text as corrected, r.slip, r.outcome, r.opened_at as "openedAt", r.closed_at as "closedAt",
            u.status as "updateStatus", u.slip as "updateSlip", u.version::text as "updateVersion", u.updates::text as updates, u.received_at as "updateAt"
     from wallet.provider_rounds r
     join wallet.providers p on p.id = r.provider_id
     left join wallet.games g on g.id = r.game_id
     left join lateral (
       select b.status, b.slip, b.version, b.received_at, count(*) over () as updates
       from wallet.provider_bet_updates b where b.provider_id = r.provider_id and b.round_id = r.round_id
       order by b.version desc nulls last, b.id desc limit 1
     ) u on r.kind = 'sports'
     where r.brand_id = ? and r.player_id = ?${after ? ' and (r.opened_at, r.provider_id, r.round_id) < (?::timestamptz, ?, ?)' : ''}
     order by r.opened_at desc, r.provider_id desc, r.round_id desc
     limit ?`,
    [brandId, playerId, ...(after ? [after.at, after.providerId, after.roundId] : []), limit + 1],
  );
  return rows.map(({ updateStatus, updateSlip, updateVersion, updates, updateAt, ...r }) => ({
    ...r,
    staked: formatMoney(r.staked),
    won: formatMoney(r.won),
    corrected: formatMoney(r.corrected),
    openedAt: isoTime(r.openedAt),
    closedAt: r.closedAt === null ? null : isoTime(r.closedAt),
    update:
      updates === null || updateAt === null
        ? null
        : {
            status: updateStatus,
            slip: updateSlip,
            version: updateVersion === null ? null : Number(updateVersion),
            updates: Number(updates),
            receivedAt: isoTime(updateAt),
          },
  }));
}
