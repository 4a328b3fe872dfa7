// Formats the contract needs beyond plain JSON Schema, registered once with TypeBox so the
// gateway's validator reports them like any other issue.
import { FormatRegistry } from '@sinclair/typebox';

export function normaliseCpf(value: string): string {
  return value.replace(/[.\-\s]/g, '');
}

/**
 * A random valid CPF (digits only) for sandbox players: under br-spa a CPF registers once per
 * brand, so a journey run again needs a new one (`npm run -s api -- cpf`; the SDK's generateCpf).
 */
export function generateCpf(): string {
  const digits = Array.from(globalThis.crypto.getRandomValues(new Uint32Array(9)), (n) => n % 10);
  if (digits.every((d) => d === digits[0])) digits[8] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

/** CPF with real check digits; accepts `123.456.789-09` or `12345678909`. */
export function isValidCpf(value: string): boolean {
  if (!/^(\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})$/.test(value)) return false;
  const d = normaliseCpf(value);
  if (/^(\d)\1{10}$/.test(d)) return false;
  const digit = (len: number): number => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return digit(9) === Number(d[9]) && digit(10) === Number(d[10]);
}

/** A real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** True when someone born on `birthDate` has had an 18th birthday on or before `today` (UTC). */
export function isAdult(birthDate: string, today: Date = new Date()): boolean {
  if (!isCalendarDate(birthDate)) return false;
  // isCalendarDate checked the shape YYYY-MM-DD.
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  const ty = today.getUTCFullYear(),
    tm = today.getUTCMonth() + 1,
    td = today.getUTCDate();
  const age = ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
  return age >= 18;
}

// Pragmatic e-mail check (what most payment APIs accept): one @, no spaces, a dotted domain.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value) && !value.includes('..');
}

export function isIsoDateTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** How a request amount is written (docs/decisions.md): no leading zero, at most 2 decimals. */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]{1,2})?$';
/** The largest amount a request may carry (docs/decisions.md). */
export const MAX_AMOUNT = '1000000.00';
const AMOUNT = new RegExp(AMOUNT_PATTERN);
/** An amount as whole cents: exact (BigInt), never a float. */
function cents(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(`${whole}${fraction.padEnd(2, '0')}`);
}

/**
 * The largest win a provider may pay (issue #66 item 5): 13 digits before the point. A bet keeps
 * MAX_AMOUNT; a prize (a jackpot, a live table's multiplier) pays more. Our money columns are
 * numeric(20,2), 18 digits before the point: a balance, a round, a day's totals and the clearing
 * account's sums hold a hundred thousand of the largest wins (docs/providers.md, "How large a win").
 */
export const MAX_WIN_AMOUNT = '9999999999999.99';

/** Written as a request amount and at most MAX_AMOUNT, 0 included (the bounds an admin sets). */
function isAmountUpToMax(value: string): boolean {
  return value.length <= MAX_AMOUNT.length && AMOUNT.test(value) && cents(value) <= cents(MAX_AMOUNT);
}

/** A provider's win: written as a request amount, 0 up to MAX_WIN_AMOUNT. */
function isWinAmount(value: string): boolean {
  return value.length <= MAX_WIN_AMOUNT.length && AMOUNT.test(value) && cents(value) <= cents(MAX_WIN_AMOUNT);
}

/** A prize with no round to settle (a jackpot win, a promotional credit): 0.01 up to MAX_WIN_AMOUNT. */
function isPrizeAmount(value: string): boolean {
  return isWinAmount(value) && cents(value) > 0n;
}

/** A signed correction: a prize's range either way (a win resettled), never 0 (nor "-0"). */
function isSignedWinAmount(value: string): boolean {
  return isPrizeAmount(value.startsWith('-') ? value.slice(1) : value);
}

/** A stake: 0.01 up to MAX_AMOUNT (a provider's bet; docs/providers.md). */
function isStakeAmount(value: string): boolean {
  return isAmountUpToMax(value) && cents(value) > 0n;
}

// The published forms of these formats (openapi.ts): exact patterns of the same ranges, so a
// provider's own validator refuses what we refuse (checked against the functions above by
// packages/contracts/test/provider-amounts.test.ts).
const STAKE = '(0\\.(0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,5}(\\.[0-9]{1,2})?|1000000(\\.00?)?)';
/** 0.01 to 1000000.00, at most 2 decimals, no leading zero. */
export const STAKE_AMOUNT_PATTERN = `^${STAKE}$`;
/** 0 to 1000000.00, at most 2 decimals, no leading zero. */
export const AMOUNT_UP_TO_MAX_PATTERN = `^(0(\\.00?)?|${STAKE})$`;
// A prize: 0.01 up to MAX_WIN_AMOUNT, 13 digits before the point at most.
const PRIZE = '(0\\.(0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,12}(\\.[0-9]{1,2})?)';
/** 0.01 to 9999999999999.99 (MAX_WIN_AMOUNT), at most 2 decimals, no leading zero. */
export const PRIZE_AMOUNT_PATTERN = `^${PRIZE}$`;
/** 0 to MAX_WIN_AMOUNT (a win: 0 settles a lost round). */
export const WIN_AMOUNT_PATTERN = `^(0(\\.00?)?|${PRIZE})$`;
/** Either sign of a prize's range: 0 and -0 never. */
export const SIGNED_WIN_AMOUNT_PATTERN = `^-?${PRIZE}$`;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** An IPv4 or IPv6 address as the bettor's device reached the operator (no port, no zone). */
function isIpAddress(value: string): boolean {
  if (value.length > 45) return false;
  if (IPV4.test(value)) return true;
  if (!/^[0-9A-Fa-f:.]+$/.test(value) || !value.includes(':')) return false;
  // The WHATWG URL parser implements RFC 4291's textual forms, embedded IPv4 included.
  try {
    new URL(`http://[${value}]/`);
    return true;
  } catch {
    return false;
  }
}

let registered = false;
export function registerFormats(): void {
  if (registered) return;
  registered = true;
  FormatRegistry.Set('cpf', isValidCpf);
  FormatRegistry.Set('calendar-date', isCalendarDate);
  FormatRegistry.Set('adult-birth-date', (v) => isAdult(v));
  FormatRegistry.Set('email', isEmail);
  FormatRegistry.Set('date-time', isIsoDateTime);
  FormatRegistry.Set('amount-up-to-max', isAmountUpToMax);
  FormatRegistry.Set('stake-amount', isStakeAmount);
  FormatRegistry.Set('win-amount', isWinAmount);
  FormatRegistry.Set('prize-amount', isPrizeAmount);
  FormatRegistry.Set('signed-win-amount', isSignedWinAmount);
  FormatRegistry.Set('ip-address', isIpAddress);
  FormatRegistry.Set('uri', (v) => {
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  });
}
registerFormats();
