// The port of the rail that pays a fund transfer's half to FIES or FUNCAP (issue #60 item 6): the
// simulator (no network: fund-payout-simulator.ts) or the payment provider (fund-payout-http.ts). The
// rail is idempotent on the payout id: the same order sent again (after a crash, by another replica)
// answers the first payment's receipt, never pays twice.
import type { Environment, FundPayoutFund } from '@bo/contracts';

export interface FundPayoutOrder {
  payoutId: string;
  fund: FundPayoutFund;
  destination: string;
  amount: string;
  currency: string;
  operatorId: string;
  environment: Environment;
}

export type FundPayoutAnswer =
  | { result: 'paid'; receipt: string }
  /** The rail will not pay it (a wrong account, a refused transfer): our finance team acts. */
  | { result: 'refused'; reason: string }
  /** No answer (an outage, a timeout): asked again later with the same id. */
  | { result: 'unavailable'; why: string };

export interface FundPayoutRail {
  send(order: FundPayoutOrder): Promise<FundPayoutAnswer>;
}
