// The simulated fund payout rail: no network. Each payout it pays is a row of
// payments.simulated_fund_transfers keyed by the payout id (so the same order again answers the same
// receipt: one payment per payout, whoever asks); told to be down or to refuse by tests (`control`).
import type { SqlRunner } from '@bo/service-kit';
import type { FundPayoutRail } from './fund-payout-rail.ts';

export interface FundPayoutSimulator extends FundPayoutRail {
  control(mode: { down?: boolean; refuse?: string | null }): void;
}

export function fundPayoutSimulator(sql: SqlRunner): FundPayoutSimulator {
  let down = false;
  let refuse: string | null = null;
  return {
    async send(order) {
      if (down) return { result: 'unavailable', why: 'simulator down' };
      if (refuse) return { result: 'refused', reason: refuse };
      const [row] = await sql.query<{ receipt: string }>(
        `with i as (insert into payments.simulated_fund_transfers (payout_id, fund, destination, amount, currency, receipt, sent_at)
                    values (?, ?, ?, ?, ?, 'SIM-' || replace(?, 'fpo_', ''), now()) on conflict (payout_id) do nothing returning receipt)
         select receipt from i union all select receipt from payments.simulated_fund_transfers where payout_id = ? and not exists (select 1 from i)`,
        [order.payoutId, order.fund, order.destination, order.amount, order.currency, order.payoutId, order.payoutId],
      );
      // A copy racing it committed after this statement's snapshot: its row, read again.
      const receipt =
        row?.receipt ??
        (await sql.query<{ receipt: string }>('select receipt from payments.simulated_fund_transfers where payout_id = ?', [order.payoutId]))[0]?.receipt;
      return receipt ? { result: 'paid', receipt } : { result: 'unavailable', why: 'simulator lost the row' };
    },
    control(mode) {
      if (mode.down !== undefined) down = mode.down;
      if (mode.refuse !== undefined) refuse = mode.refuse;
    },
  };
}
