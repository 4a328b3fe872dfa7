// Money is a decimal string everywhere; arithmetic goes through bignumber.js, never a JS number.
import { BigNumber } from 'bignumber.js';

const Money = BigNumber.clone({ DECIMAL_PLACES: 2, ROUNDING_MODE: BigNumber.ROUND_HALF_EVEN });
export { Money };

/** Canonical 2-decimal string ("10" → "10.00", "-3.5" → "-3.50"). */
export function formatMoney(value: BigNumber.Value): string {
  return new Money(value).toFixed(2);
}

export function addMoney(...values: BigNumber.Value[]): string {
  return formatMoney(values.reduce<BigNumber>((acc, v) => acc.plus(v), new Money(0)));
}

export function subMoney(a: BigNumber.Value, b: BigNumber.Value): string {
  return formatMoney(new Money(a).minus(b));
}

export function compareMoney(a: BigNumber.Value, b: BigNumber.Value): number {
  return new Money(a).comparedTo(b) ?? 0;
}

export function isPositiveWithin(value: string, max: string): boolean {
  const v = new Money(value);
  return v.isFinite() && v.gt(0) && v.lte(max);
}
