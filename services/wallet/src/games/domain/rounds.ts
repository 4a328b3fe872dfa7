// The rules of the built-in games: plain functions over plain data. The random source is passed
// in (crypto in the service, a fixed sequence in unit tests), so every outcome is decided here,
// server-side, and never by the page. Money is computed with bignumber.js and paid rounded down.
import { randomInt } from 'node:crypto';
import { BigNumber } from 'bignumber.js';
import { AppError, type GameKind, type PlayRoundInput, type ValidationIssue } from '@bo/contracts';

export type BuiltInKind = Exclude<GameKind, 'external'>;
export const BUILT_IN_KINDS: readonly BuiltInKind[] = ['crash', 'dice', 'roulette', 'slots'];

export const BET_LIMITS = { minBet: '0.10', maxBet: '1000.00' } as const;

/** A real round refused for its stake: more than `available − held`; `details.balance` is what could be staked. */
export function insufficientFunds(stakeable: string): AppError {
  return new AppError('INSUFFICIENT_FUNDS', 'The bet is larger than the withdrawable balance.', { balance: stakeable });
}

export interface Rng {
  int(minInclusive: number, maxExclusive: number): number;
}
export const cryptoRng: Rng = { int: (min, max) => randomInt(min, max) };

export interface RoundDecision {
  payout: string;
  win: boolean;
  outcome: Record<string, unknown>;
}

const cents = (v: BigNumber.Value): string => new BigNumber(v).decimalPlaces(2, BigNumber.ROUND_DOWN).toFixed(2);

/** Kind-specific checks after the schema: bet limits and the game's own choice. */
export function checkRoundInput(kind: BuiltInKind, input: PlayRoundInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const amount = new BigNumber(input.amount);
  if (!amount.isFinite() || amount.lt(BET_LIMITS.minBet) || amount.gt(BET_LIMITS.maxBet)) {
    issues.push({ path: '/amount', message: `must be between ${BET_LIMITS.minBet} and ${BET_LIMITS.maxBet}` });
  }
  if (kind === 'crash') {
    const t = input.target === undefined ? undefined : new BigNumber(input.target);
    if (!t?.isFinite() || t.lt('1.01') || t.gt('100')) issues.push({ path: '/target', message: 'cash-out multiplier between 1.01 and 100.00 required' });
  } else if (kind === 'dice') {
    if (input.target === undefined || !/^[0-9]{1,2}$/.test(input.target) || Number(input.target) < 2 || Number(input.target) > 96) {
      issues.push({ path: '/target', message: 'roll-under number between 2 and 96 required' });
    }
  } else if (kind === 'roulette') {
    if (input.pick === undefined) issues.push({ path: '/pick', message: 'one of red, black, odd, even, low, high required' });
  }
  return issues;
}

export function decideRound(kind: BuiltInKind, input: PlayRoundInput, rng: Rng = cryptoRng): RoundDecision {
  switch (kind) {
    case 'crash':
      return decideCrash(input.amount, input.target!, rng);
    case 'dice':
      return decideDice(input.amount, Number(input.target), rng);
    case 'roulette':
      return decideRoulette(input.amount, input.pick!, rng);
    case 'slots':
      return decideSlots(input.amount, rng);
  }
}

const TWO_32 = 2 ** 32;

/** Crash: the multiplier climbs until it crashes; the bet wins if it reaches the cash-out target. 3% edge. */
export function decideCrash(amount: string, target: string, rng: Rng): RoundDecision {
  const u = rng.int(0, TWO_32);
  let point = new BigNumber(97)
    .times(TWO_32)
    .div(new BigNumber(TWO_32 - u).times(100))
    .decimalPlaces(2, BigNumber.ROUND_DOWN);
  if (point.lt(1)) point = new BigNumber(1);
  if (point.gt(10_000)) point = new BigNumber(10_000);
  const win = point.gte(target);
  const t = new BigNumber(target).toFixed(2);
  return { win, payout: win ? cents(new BigNumber(amount).times(t)) : '0.00', outcome: { crashPoint: point.toFixed(2), target: t } };
}

/** Dice: roll 1–100; wins below the target; pays 99/(target−1) (1% edge). */
export function decideDice(amount: string, target: number, rng: Rng): RoundDecision {
  const roll = rng.int(1, 101);
  const multiplier = new BigNumber(99).div(target - 1).decimalPlaces(4, BigNumber.ROUND_DOWN);
  const win = roll < target;
  return { win, payout: win ? cents(new BigNumber(amount).times(multiplier)) : '0.00', outcome: { roll, target, multiplier: multiplier.toFixed(4) } };
}

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);

/** European roulette, even-money bets; 0 loses them all. */
export function decideRoulette(amount: string, pick: NonNullable<PlayRoundInput['pick']>, rng: Rng): RoundDecision {
  const n = rng.int(0, 37);
  const color = n === 0 ? 'green' : RED.has(n) ? 'red' : 'black';
  const win =
    n !== 0 &&
    ((pick === 'red' && color === 'red') ||
      (pick === 'black' && color === 'black') ||
      (pick === 'odd' && n % 2 === 1) ||
      (pick === 'even' && n % 2 === 0) ||
      (pick === 'low' && n <= 18) ||
      (pick === 'high' && n >= 19));
  return { win, payout: win ? cents(new BigNumber(amount).times(2)) : '0.00', outcome: { number: n, color, pick } };
}

/** Reel strip weights (out of 21) and three-of-a-kind multipliers; two cherries pay 1.5×. RTP ≈ 97.9%. */
export const SLOT_SYMBOLS = [
  { symbol: 'cherry', weight: 6, three: '8' },
  { symbol: 'lemon', weight: 5, three: '10' },
  { symbol: 'orange', weight: 4, three: '20' },
  { symbol: 'grape', weight: 3, three: '40' },
  { symbol: 'bell', weight: 2, three: '100' },
  { symbol: 'seven', weight: 1, three: '500' },
] as const;
const SLOT_WEIGHT = SLOT_SYMBOLS.reduce((s, x) => s + x.weight, 0);

function spinReel(rng: Rng): (typeof SLOT_SYMBOLS)[number] {
  let r = rng.int(0, SLOT_WEIGHT);
  for (const s of SLOT_SYMBOLS) {
    if (r < s.weight) return s;
    r -= s.weight;
  }
  throw new Error('unreachable: reel weights');
}

export function decideSlots(amount: string, rng: Rng): RoundDecision {
  const reels = [spinReel(rng), spinReel(rng), spinReel(rng)] as const;
  const cherries = reels.filter((s) => s.symbol === 'cherry').length;
  let multiplier = '0';
  if (reels[0].symbol === reels[1].symbol && reels[1].symbol === reels[2].symbol) multiplier = reels[0].three;
  else if (cherries === 2) multiplier = '1.5';
  const payout = cents(new BigNumber(amount).times(multiplier));
  return { win: new BigNumber(payout).gt(0), payout, outcome: { reels: reels.map((s) => s.symbol), multiplier } };
}

/** The refusal of a session that is over: neutral words for one ended before its time (never why), else expired. */
export function sessionOver(endedAt: Date | string | null | undefined): AppError {
  return new AppError(endedAt ? 'GAME_SESSION_ENDED' : 'LAUNCH_TOKEN_EXPIRED');
}
