// Lei 14.790/2023 (chapter VIII, the prizes: the article on unclaimed prizes, §1): unclaimed values
// go 50% to FIES and 50% to FUNCAP. IN SPA/MF 31/2025 sends the balance of an account closed for an
// impediment there after 180 days unclaimed. An odd cent cannot be halved: FIES gets the half rounded
// down, FUNCAP the rest, so the two always add up to the amount.
import { BigNumber } from 'bignumber.js';

export function fundSplit(amount: string): { fies: string; funcap: string } {
  const total = new BigNumber(amount);
  const fies = total.div(2).decimalPlaces(2, BigNumber.ROUND_DOWN);
  return { fies: fies.toFixed(2), funcap: total.minus(fies).toFixed(2) };
}

const DAY_MS = 86_400_000;
export const daysAfter = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);
