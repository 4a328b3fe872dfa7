// The limits a real-money round and a game session open are held to (docs/responsible-gaming.md):
// time played below each time limit; the period's stakes plus this stake within each wager limit;
// the period's net loss (stakes minus wins) plus this stake within each loss limit.
import { compareMoney, addMoney, formatMoney } from '@bo/service-kit';
import { limitsInForce, rgBlocked, type LimitPeriod, type LimitType, type RgRules } from '@bo/contracts';

/** A player's usage of the current day, week and month (store/usage.ts reads it), with each period's end. */
export interface RoundUsage {
  wagered: Record<LimitPeriod, string>;
  netLoss: Record<LimitPeriod, string>;
  seconds: Record<LimitPeriod, number>;
  resetsAt: Record<LimitPeriod, string>;
}

/** The limits a player's rounds are held to, per period (null: none), and the time zone of the periods. */
export interface RoundLimits {
  timeZone: string;
  wager: Record<LimitPeriod, string | null>;
  loss: Record<LimitPeriod, string | null>;
  /** Whole minutes. */
  time: Record<LimitPeriod, number | null>;
}

const ROUND_LIMITS: LimitType[] = ['wager', 'loss', 'time'];

/** Whether rounds of this player must read their usage under the account lock (and count their time). */
export function needsRoundGuard(rules: RgRules | undefined, now: Date): rules is RgRules {
  return !!rules && (rules.profile === 'br-spa' || ROUND_LIMITS.some((t) => limitsInForce(rules, t, now).length > 0));
}

/** The limits in force at `now`, per type and period, as a round's statement checks them (store/counters.ts). */
export function roundLimitsOf(rules: RgRules, now: Date): RoundLimits {
  const none = () => ({ day: null, week: null, month: null });
  const out: RoundLimits = { timeZone: rules.timeZone, wager: none(), loss: none(), time: none() };
  for (const l of limitsInForce(rules, 'wager', now)) out.wager[l.period] = formatMoney(l.value);
  for (const l of limitsInForce(rules, 'loss', now)) out.loss[l.period] = formatMoney(l.value);
  for (const l of limitsInForce(rules, 'time', now)) out.time[l.period] = Number(l.value);
  return out;
}

/** Whether the player has a time limit (a session open reads the time played). */
export function hasTimeLimit(rules: RgRules | undefined, now: Date): rules is RgRules {
  return limitsInForce(rules, 'time', now).length > 0;
}

/** 403 RG_BLOCKED time_limit once the period's time played reaches a time limit. */
export function checkTimeLimits(rules: RgRules, usage: RoundUsage, now: Date): void {
  for (const l of limitsInForce(rules, 'time', now)) {
    const minutes = Math.floor(usage.seconds[l.period] / 60);
    if (minutes >= Number(l.value)) {
      throw rgBlocked('time_limit', `The player reached the ${l.period} time limit.`, {
        period: l.period,
        limit: Number(l.value),
        resetsAt: usage.resetsAt[l.period],
      });
    }
  }
}

/** The stake limits: the period's stakes (wager) or net loss (loss) plus this stake within each limit. */
const STAKE_LIMITS = [
  { type: 'wager', reason: 'wager_limit', used: (u: RoundUsage) => u.wagered, verb: 'would pass' },
  { type: 'loss', reason: 'loss_limit', used: (u: RoundUsage) => u.netLoss, verb: 'could pass' },
] as const;

/** Time, wager and loss limits of a round staking `stake`. */
export function checkRoundLimits(rules: RgRules, usage: RoundUsage, stake: string, now: Date): void {
  checkTimeLimits(rules, usage, now);
  for (const s of STAKE_LIMITS) {
    for (const l of limitsInForce(rules, s.type, now)) {
      if (compareMoney(addMoney(s.used(usage)[l.period], stake), l.value) > 0) {
        throw rgBlocked(s.reason, `The stake ${s.verb} the player ${l.period} ${s.type} limit.`, {
          period: l.period,
          limit: formatMoney(l.value),
          resetsAt: usage.resetsAt[l.period],
        });
      }
    }
  }
}
