// A player's open provider bets (issue #46 item 4): what the closing of an account after an
// impediment hit refunds. The player's open rounds (their index by brand and player), and in each
// the bets neither rolled back nor a placeholder of a bet never received.
import type { Environment } from '@bo/contracts';
import { formatMoney, isoTime, type SqlRunner } from '@bo/service-kit';

export interface OpenBet {
  providerId: string;
  environment: Environment;
  roundId: string;
  roundKind: 'casino' | 'sports';
  /** Wins already credited in the round (a partial win): the closing refunds its bets all the same (issue #60). */
  roundWins: number;
  brandId: string;
  currency: string;
  betTransactionId: string;
  /** What the bet moved on the player (negative). */
  moved: string;
  placedAt: string;
}

export async function openBetsOf(sql: SqlRunner, brandId: string, playerId: string): Promise<OpenBet[]> {
  const rows = await sql.query<OpenBet>(
    `select r.provider_id as "providerId", r.environment, r.round_id as "roundId", r.kind as "roundKind", r.wins as "roundWins",
            r.brand_id as "brandId", r.currency, t.transaction_id as "betTransactionId", t.moved::text as moved, t.created_at as "placedAt"
       from wallet.provider_rounds r
       join wallet.provider_transactions t on t.provider_id = r.provider_id and t.round_id = r.round_id
      where r.brand_id = ? and r.player_id = ? and r.status = 'open'
        and t.kind = 'bet' and t.player_id = r.player_id and t.rolled_back_by is null and not t.never_received and t.moved < 0
      order by r.opened_at, r.provider_id, r.round_id, t.created_at`,
    [brandId, playerId],
  );
  return rows.map((r) => ({ ...r, moved: formatMoney(r.moved), placedAt: isoTime(r.placedAt) }));
}
