// The payments of fund transfers to FIES and FUNCAP (issue #60 item 6): one row per transfer and fund,
// `pending` until the rail paid it and the wallet posted it (then `paid` with the receipt and the
// ledger transaction), or `failed` when the rail refused it. Money records: never deleted (a trigger).
import { newId, type Environment, type FundPayout, type FundPayoutFund, type FundPayoutRequest, type FundPayoutStatus } from '@bo/contracts';
import { compareMoney, formatMoney, isoTime, type ListPosition, type SqlRunner } from '@bo/service-kit';

interface PayoutRow {
  id: string;
  transfer_id: string;
  fund: FundPayoutFund;
  operator_id: string;
  brand_id: string;
  environment: Environment;
  currency: string;
  amount: string;
  destination: string;
  status: FundPayoutStatus;
  receipt: string | null;
  failure_reason: string | null;
  requested_at: Date | string;
  paid_at: Date | string | null;
}
export type FundPayoutRow = PayoutRow;

export const toFundPayout = (r: PayoutRow): FundPayout => ({
  id: r.id,
  transferId: r.transfer_id,
  fund: r.fund,
  operatorId: r.operator_id,
  brandId: r.brand_id,
  environment: r.environment,
  currency: r.currency,
  amount: formatMoney(r.amount),
  destination: r.destination,
  status: r.status,
  receipt: r.receipt,
  failureReason: r.failure_reason,
  requestedAt: isoTime(r.requested_at),
  paidAt: isoTime(r.paid_at),
});

/**
 * The transfer's halves to pay, each to its fund's account (a half of 0.00, an odd cent's, needs no
 * payment): inserted once per transfer and fund, whoever asks and however often. All of the transfer's rows.
 */
export async function requestPayouts(sql: SqlRunner, r: FundPayoutRequest, destinations: Record<FundPayoutFund, string>, now: Date): Promise<PayoutRow[]> {
  for (const fund of ['fies', 'funcap'] as const) {
    if (compareMoney(r[fund], 0) <= 0) continue;
    await sql.query(
      `insert into payments.fund_payouts (id, transfer_id, fund, operator_id, brand_id, environment, currency, amount, destination, requested_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (transfer_id, fund) do nothing`,
      [newId('fundPayout'), r.transferId, fund, r.operatorId, r.brandId, r.environment, r.currency, r[fund], destinations[fund], now, now],
    );
  }
  return sql.query<PayoutRow>('select * from payments.fund_payouts where transfer_id = ? order by fund', [r.transferId]);
}

/** The next pending payout after `after`, locked for the caller's transaction (another replica's is skipped). */
export async function lockNextPending(tx: SqlRunner, after: string): Promise<PayoutRow | undefined> {
  const [row] = await tx.query<PayoutRow>(
    `select * from payments.fund_payouts where status = 'pending' and id > ? order by id limit 1 for update skip locked`,
    [after],
  );
  return row;
}

export async function markPaid(tx: SqlRunner, id: string, receipt: string, ledgerTransactionId: string, now: Date): Promise<void> {
  await tx.query(
    `update payments.fund_payouts set status = 'paid', receipt = ?, ledger_transaction_id = ?, paid_at = ?, updated_at = ? where id = ? and status = 'pending'`,
    [receipt, ledgerTransactionId, now, now, id],
  );
}

export async function markFailed(tx: SqlRunner, id: string, reason: string, now: Date): Promise<void> {
  await tx.query(`update payments.fund_payouts set status = 'failed', failure_reason = ?, updated_at = ? where id = ? and status = 'pending'`, [
    reason.slice(0, 500),
    now,
    id,
  ]);
}

export async function listPayouts(
  sql: SqlRunner,
  f: { status?: FundPayoutStatus; brandId?: string },
  limit: number,
  after?: ListPosition,
): Promise<PayoutRow[]> {
  return sql.query<PayoutRow>(
    `select * from payments.fund_payouts
      where (?::text is null or status = ?) and (?::text is null or brand_id = ?) and (requested_at, id) < (?::timestamptz, ?)
      order by requested_at desc, id desc limit ?`,
    [f.status ?? null, f.status ?? null, f.brandId ?? null, f.brandId ?? null, after?.at ?? 'infinity', after?.id ?? '', limit + 1],
  );
}
export const payoutPosition = (r: PayoutRow): ListPosition => ({ at: isoTime(r.requested_at), id: r.id });
