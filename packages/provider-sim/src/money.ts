// Amounts as the API writes them ("12.30", "-5.00"), computed in integer cents (bigint): never floats.

export function toCents(s: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new Error(`not an amount: ${s}`);
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '0').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

export function fromCents(c: bigint): string {
  const sign = c < 0n ? '-' : '';
  const a = c < 0n ? -c : c;
  return `${sign}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/** stake × decimal odds ("2.35"), rounded down to the cent. */
export function payout(stake: string, odds: string): string {
  const [whole, frac = ''] = odds.split('.');
  const oddsTenThousandths = BigInt(whole!) * 10_000n + BigInt(frac.padEnd(4, '0'));
  return fromCents((toCents(stake) * oddsTenThousandths) / 10_000n);
}
