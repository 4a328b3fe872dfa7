// wallet.regulator.providerMoves (the daily regulator file, services/compliance): a brand's provider
// transactions over [from, to), line by line: each bet, win (0.00: a lost round or bet), rollback
// and correction, and what the provider funded (issue #59 item 1): a free bet (moved 0.00, its stake
// in `fundedStake`), a win of its round and free rounds' winnings (`free_bet_win`: FREE_BET_WIN), a
// promotional credit (PROMO_CREDIT) and a jackpot win (JACKPOT_WIN), with the provider, its game code, the round and, for a sports bet, its slip and
// outcome. A transaction's time is its ledger entries' (the same statement writes both, at the
// same instant), so the lines fall on the same day as the ledger part's sums they add up to.
// The placeholder bet kept for a rollback of a bet never received is not a line: no bet was made
// (its rollback is, with 0.00). Paged by time and id on (brand_id, created_at, id). A casino line names
// the game's certificate valid at its time (issue #59 item 5: the game register), or null.
import type { ProviderMovesPosition, RegulatorProviderTransaction } from '@bo/contracts';
import { formatMoney, isoTime, type SqlRunner } from '@bo/service-kit';

interface Row extends Omit<RegulatorProviderTransaction, 'at' | 'moved' | 'fundedStake'> {
  moved: string;
  fundedStake: string | null;
  at: string | Date;
}

export async function providerMovesOfDay(
  sql: SqlRunner,
  q: { brandId: string; from: string; to: string; after?: ProviderMovesPosition; limit: number },
): Promise<{ data: RegulatorProviderTransaction[]; next: ProviderMovesPosition | null }> {
  const after = q.after ?? { at: '-infinity', id: '' };
  const rows = await sql.query<Row>(
    `select t.id, t.provider_id as "providerId", p.name as "providerName", t.transaction_id as "transactionId",
            case when (t.kind = 'win' and r.funding = 'provider') or (t.kind = 'promo_credit' and t.promotion_type = 'free_round_winnings')
                 then 'free_bet_win' else t.kind end as kind,
            t.player_id as "playerId", t.currency, coalesce(g.game_code, '') as "gameCode", t.round_id as "roundId",
            coalesce(r.kind, case when p.kind = 'sportsbook' then 'sports' else 'casino' end) as "roundKind",
            t.bet_transaction_id as "betTransactionId", t.moved::text as moved,
            case when t.kind = 'free_bet' then (-t.requested)::text end as "fundedStake", t.entry_id as "entryId",
            r.slip, case when t.kind = 'win' then r.outcome end as outcome, t.created_at as at,
            case when c.certificate_number is null then null
                 else jsonb_build_object('laboratory', c.laboratory, 'certificateNumber', c.certificate_number, 'version', c.version,
                                         'certifiedRtp', c.certified_rtp::text, 'regulatorReference', c.regulator_reference) end as certificate
     from wallet.provider_transactions t
     join wallet.providers p on p.id = t.provider_id
     left join wallet.provider_rounds r on r.provider_id = t.provider_id and r.round_id = t.round_id
     left join wallet.games g on g.id = r.game_id
     left join lateral (select c.laboratory, c.certificate_number, c.version, c.certified_rtp, c.regulator_reference from wallet.game_certificates c
                        where r.kind = 'casino' and c.game_id = r.game_id and c.valid_from <= t.created_at and c.valid_to > t.created_at
                        order by c.valid_to desc limit 1) c on true
     where t.brand_id = ? and t.created_at >= ?::timestamptz and t.created_at < ?::timestamptz and not t.never_received
       and (t.created_at, t.id) > (?::timestamptz, ?)
     order by t.created_at, t.id
     limit ?`,
    [q.brandId, q.from, q.to, after.at, after.id, q.limit],
  );
  const data = rows.map(
    (r): RegulatorProviderTransaction => ({
      ...r,
      moved: formatMoney(r.moved),
      fundedStake: r.fundedStake === null ? null : formatMoney(r.fundedStake),
      at: isoTime(r.at),
    }),
  );
  const last = data.at(-1);
  return { data, next: rows.length === q.limit && last ? { at: last.at, id: last.id } : null };
}
