// The harm markers' thresholds (issue #68): our team's defaults, to be overridden per operator with
// a reason. docs/player-protection.md gives each default, its source, and the simulation's figures
// for this set (npm run -w @bo/compliance harm:simulate).
import type { HarmThresholds } from '@bo/contracts';

export const DEFAULT_HARM_THRESHOLDS: HarmThresholds = {
  recentDays: 7,
  baselineDays: 56,
  accountDays: 30,
  depositFactor: 3,
  depositFloor: '300.00',
  depositCountFactor: 3,
  depositCountFloor: 3,
  lossFactor: 3,
  lossFloor: '300.00',
  chasingDeposits: 3,
  chasingMinutes: 30,
  nightPercent: 50,
  nightMinutes: 180,
  longDays: 3,
  longDayMinutes: 240,
  cancelledWithdrawals: 2,
  limitsLoosened: 2,
  limitsReached: 3,
  stakeFactor: 2,
  stakeVariation: 2,
  minBets: 30,
  failedDeposits: 3,
  paymentMethods: 3,
  realityChecksDismissed: 14,
  newPlayerPlayPercent: 50,
  newPlayerStakeRise: 1.5,
  levelAt: { low: 1, medium: 3, high: 5 },
};

/** An operator's stored thresholds over the defaults (a setting added later keeps its default). */
export function harmThresholdsOf(stored: Partial<HarmThresholds> | undefined): HarmThresholds {
  return { ...DEFAULT_HARM_THRESHOLDS, ...(stored ?? {}), levelAt: { ...DEFAULT_HARM_THRESHOLDS.levelAt, ...(stored?.levelAt ?? {}) } };
}
