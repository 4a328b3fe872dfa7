// A player's debt to a provider (store/debt-migrations.ts): read with a credit's round
// (store/reads.ts, findRound), to know what of the credit repays it; listed for our team. Written only by the postings' statements (store/postings.ts).
import { formatMoney, isoTime, type SqlRunner } from '@bo/service-kit';

export interface DebtKey {
  providerId: string;
  brandId: string;
  playerId: string;
  currency: string;
}

/** Players who owe the provider something, the longest-standing first. */
export async function debtsOwed(sql: SqlRunner, providerId: string) {
  const rows = await sql.query<DebtKey & { owed: string; incurred: string; repaid: string; updatedAt: Date }>(
    `select provider_id as "providerId", brand_id as "brandId", player_id as "playerId", currency,
            owed::text, incurred::text, repaid::text, updated_at as "updatedAt"
     from wallet.provider_debts where provider_id = ? and owed > 0 order by updated_at, player_id limit 500`,
    [providerId],
  );
  return rows.map((r) => ({
    ...r,
    owed: formatMoney(r.owed),
    incurred: formatMoney(r.incurred),
    repaid: formatMoney(r.repaid),
    updatedAt: isoTime(r.updatedAt),
  }));
}
