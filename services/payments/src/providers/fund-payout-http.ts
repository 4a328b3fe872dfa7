// The real fund payout rail: the payment provider over HTTPS with the operator's PSP credential, the
// payout id as the transfer's idempotency key (a retry never pays twice), a timeout per attempt and
// retries on outages. THE PATH AND FIELDS ARE OURS, TO BE MATCHED TO THE CONTRACTED PROVIDER'S API
// (and to how the Treasury takes the funds' shares: a GRU collection or an account) before going live.
import type { FundPayoutAnswer, FundPayoutRail } from './fund-payout-rail.ts';

export interface FundPayoutHttpSettings {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  retries: number;
  fetch?: typeof fetch;
}

export function fundPayoutHttpRail(settings: FundPayoutHttpSettings): FundPayoutRail {
  const doFetch = settings.fetch ?? fetch;
  return {
    async send(order): Promise<FundPayoutAnswer> {
      let last = 'no attempt';
      for (let attempt = 0; attempt <= settings.retries; attempt++) {
        try {
          const res = await doFetch(new URL('/transfers', settings.baseUrl), {
            method: 'POST',
            headers: {
              authorization: `Bearer ${settings.token}`,
              'content-type': 'application/json',
              accept: 'application/json',
              'idempotency-key': order.payoutId,
            },
            body: JSON.stringify({
              destination: order.destination,
              amount: order.amount,
              currency: order.currency,
              purpose: `${order.fund}:${order.payoutId}`,
            }),
            signal: AbortSignal.timeout(settings.timeoutMs),
          });
          if (res.ok) {
            const receipt = ((await res.json()) as { receipt?: unknown } | null)?.receipt;
            if (typeof receipt === 'string' && receipt.length > 0) return { result: 'paid', receipt };
            last = 'an answer without a receipt';
            continue;
          }
          if (res.status >= 400 && res.status < 500) return { result: 'refused', reason: `HTTP ${res.status}` };
          last = `HTTP ${res.status}`;
        } catch (e) {
          last = e instanceof Error ? e.name : 'network error';
        }
      }
      return { result: 'unavailable', why: last };
    },
  };
}
