// A player's day as the harm markers read it (issue #68): counts and sums kept per calendar day in
// the operator's time zone, so a marker over weeks reads a few dozen rows, never every round. The money
// and limit fields are fed by the events the services already produce (harm-feed.ts), the play fields
// by the wallet's hours of play (harm-play.ts), `depositsAfterLoss` by the wallet's answer for each
// deposit the feed counts; `realityChecksDismissed` is not fed yet (docs/player-protection.md, "What is left").
import type { HarmThresholds } from '@bo/contracts';

export interface PlayerDay {
  /** YYYY-MM-DD in the operator's time zone. */
  day: string;
  deposits: number;
  depositSum: string;
  /** Deposits declined or failed (never credited). */
  failedDeposits: number;
  /** The payment methods of the day's deposits, credited or declined (distinct, lower case, sorted). */
  depositMethods: string[];
  /** Deposits made within chasingMinutes of play that ended in a loss. */
  depositsAfterLoss: number;
  /** Withdrawals the player cancelled (the money went back to play). */
  withdrawalsCancelled: number;
  bets: number;
  stakeSum: string;
  /** The sum of each stake squared: with bets and stakeSum, the stakes' spread without keeping every stake. */
  stakeSquares: string;
  winSum: string;
  minutesPlayed: number;
  /** Minutes played between 00:00 and 06:00. */
  nightMinutes: number;
  limitsRaised: number;
  limitsRemoved: number;
  /** Bets or deposits refused by one of the player's own limits. */
  limitsReached: number;
  /** Reality checks acknowledged to play on. */
  realityChecksDismissed: number;
}

/** A day with nothing in it (the fields a day row starts from). */
export function emptyDay(day: string): PlayerDay {
  return {
    day,
    deposits: 0,
    depositSum: '0',
    failedDeposits: 0,
    depositMethods: [],
    depositsAfterLoss: 0,
    withdrawalsCancelled: 0,
    bets: 0,
    stakeSum: '0',
    stakeSquares: '0',
    winSum: '0',
    minutesPlayed: 0,
    nightMinutes: 0,
    limitsRaised: 0,
    limitsRemoved: 0,
    limitsReached: 0,
    realityChecksDismissed: 0,
  };
}

const DAY_MS = 86_400_000;

/** The calendar day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** How many calendar days from `from` to `to`, both counted. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The windows an assessment on `asOf` reads: recent (ending on asOf), the baseline before it, and the account window. */
export function windowsOf(asOf: string, t: Pick<HarmThresholds, 'recentDays' | 'baselineDays' | 'accountDays'>) {
  const recentFrom = addDays(asOf, 1 - t.recentDays);
  return {
    recent: { from: recentFrom, to: asOf },
    baseline: { from: addDays(recentFrom, -t.baselineDays), to: addDays(recentFrom, -1) },
    account: { from: addDays(asOf, 1 - t.accountDays), to: asOf },
  };
}

/** The days read by an assessment on `asOf`: from the earliest window's start. */
export function firstDayRead(asOf: string, t: Pick<HarmThresholds, 'recentDays' | 'baselineDays' | 'accountDays'>): string {
  const w = windowsOf(asOf, t);
  return w.baseline.from < w.account.from ? w.baseline.from : w.account.from;
}
