// The simulated fund payout rail's payments (providers/fund-payout-simulator.ts): rows of
// payments.simulated_fund_transfers keyed by the payout id, so the same order again answers the same
// receipt (one payment per payout, whoever asks).
import type { SqlRunner } from '@bo/service-kit';

/** The payout's receipt: its row written now, or the one an earlier order wrote (undefined: no row found). */
export async function simulatedTransferReceipt(
  sql: SqlRunner,
  order: { payoutId: string; fund: string; destination: string; amount: string; currency: string },
): Promise<string | undefined> {
  const [row] = await sql.query<{ receipt: string }>(
    `with i as (insert into payments.simulated_fund_transfers (payout_id, fund, destination, amount, currency, receipt, sent_at)
                values (?, ?, ?, ?, ?, 'SIM-' || replace(?, 'fpo_', ''), now()) on conflict (payout_id) do nothing returning receipt)
     select receipt from i union all select receipt from payments.simulated_fund_transfers where payout_id = ? and not exists (select 1 from i)`,
    [order.payoutId, order.fund, order.destination, order.amount, order.currency, order.payoutId, order.payoutId],
  );
  // A copy racing it committed after this statement's snapshot: its row, read again.
  return (
    row?.receipt ??
    (await sql.query<{ receipt: string }>('select receipt from payments.simulated_fund_transfers where payout_id = ?', [order.payoutId]))[0]?.receipt
  );
}
