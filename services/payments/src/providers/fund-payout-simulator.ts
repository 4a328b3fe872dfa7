// The simulated fund payout rail: no network. Each payout it pays is a row of
// payments.simulated_fund_transfers keyed by the payout id (store/simulated-fund-transfers.ts: the same
// order again answers the same receipt, one payment per payout, whoever asks); told to be down or to
// refuse by tests (`control`).
import type { SqlRunner } from '@bo/service-kit';
import { simulatedTransferReceipt } from '../store/simulated-fund-transfers.ts';
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
      const receipt = await simulatedTransferReceipt(sql, order);
      return receipt ? { result: 'paid', receipt } : { result: 'unavailable', why: 'simulator lost the row' };
    },
    control(mode) {
      if (mode.down !== undefined) down = mode.down;
      if (mode.refuse !== undefined) refuse = mode.refuse;
    },
  };
}
