// The watch's rules, as plain functions over a player's money history (what the watch recorded)
// and the event being looked at: each returns a hit with its evidence, or nothing. Amounts are
// decimal strings, computed with the kit's Money (bignumber.js). A hit's facts hold every figure of its
// summary: the console writes the sentence from them in the reader's language (issue #70).
import type { AmlRule, AmlThresholds, RiskLevel, WalletLargestWin } from '@bo/contracts';
import { formatMoney, Money } from '@bo/service-kit';

export interface MoneyEvent {
  eventId: string;
  kind: 'deposit' | 'withdrawal';
  reference: string;
  amount: string;
  destination: string | null;
  at: Date;
}

export interface RuleHit {
  rule: AmlRule;
  summary: string;
  facts: Record<string, unknown>;
  /** The case's risk when not the rule's own (riskOfRule): an in-and-out of a player who is leaving is low. */
  risk?: RiskLevel;
}

/**
 * Why a player's cash-out is expected, at the withdrawal: the player self-excluded, paused, or was
 * restricted by an impediment hit (docs/aml.md, rule 1). Such a player may not deposit or play,
 * and taking the balance out is what the rules ask for, not a pass-through.
 */
export type Leaving = 'self_excluded' | 'paused' | 'impeded';
const LEAVING_WORDS: Record<Leaving, string> = {
  self_excluded: 'the player is self-excluded',
  paused: 'the player is paused',
  impeded: 'the player is restricted by an impediment',
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The risk a rule gives a case (issue #28): in and out and the payment-integrity rules are high. */
export function riskOfRule(rule: AmlRule): RiskLevel {
  return rule === 'in_and_out' || rule === 'shared_destination' || rule === 'payer_mismatch' || rule === 'pep' || rule === 'sanctions' ? 'high' : 'medium';
}

export function higherRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  const order: RiskLevel[] = ['low', 'medium', 'high'];
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
}

const brief = (e: MoneyEvent) => ({ id: e.eventId, type: e.kind, reference: e.reference, amount: e.amount, at: e.at.toISOString() });
const sum = (events: MoneyEvent[]) => formatMoney(events.reduce((acc, e) => acc.plus(e.amount), new Money(0)));
const within = (events: MoneyEvent[], kind: MoneyEvent['kind'], from: number, to: number) =>
  events.filter((e) => e.kind === kind && e.at.getTime() > from && e.at.getTime() <= to);

/**
 * Rule 3 for a win (issue #44): a withdrawal within the in-and-out window after a single win at or
 * over the threshold (our rounds' or a third-party provider's, as the wallet's stakes read says).
 */
export function largeWinOut(event: MoneyEvent, win: WalletLargestWin | null | undefined, t: AmlThresholds): RuleHit | undefined {
  if (event.kind !== 'withdrawal' || !win || new Money(win.amount).lt(t.highValue)) return undefined;
  return {
    rule: 'high_value',
    summary: `withdrawal of ${event.amount} within ${t.inAndOutHours} h of a win of ${win.amount} at or over ${t.highValue}`,
    facts: { threshold: t.highValue, win, hours: t.inAndOutHours, events: [brief(event)] },
  };
}

/** Rule 3: a single deposit or withdrawal at or over the threshold. */
export function highValue(event: MoneyEvent, t: AmlThresholds): RuleHit | undefined {
  if (new Money(event.amount).lt(t.highValue)) return undefined;
  return {
    rule: 'high_value',
    summary: `${event.kind} of ${event.amount} at or over ${t.highValue}`,
    facts: { threshold: t.highValue, events: [brief(event)] },
  };
}

const splitFloor = (t: AmlThresholds) => new Money(t.splitThreshold).times(100 - t.splitMarginPercent).div(100);
/** In rule 2's band: at or over the floor, under the reporting threshold. */
const inSplitBand = (e: MoneyEvent, t: AmlThresholds, floor = splitFloor(t)) => new Money(e.amount).gte(floor) && new Money(e.amount).lt(t.splitThreshold);

/** Rule 2: `splitCount` or more deposits within `splitHours`, each just under the reporting threshold. */
export function splitDeposits(event: MoneyEvent, history: MoneyEvent[], t: AmlThresholds): RuleHit | undefined {
  if (event.kind !== 'deposit') return undefined;
  const floor = splitFloor(t);
  const justUnder = (e: MoneyEvent) => inSplitBand(e, t, floor);
  if (!justUnder(event)) return undefined;
  const end = event.at.getTime();
  const near = within(history, 'deposit', end - t.splitHours * HOUR, end).filter(justUnder);
  if (near.length < t.splitCount) return undefined;
  return {
    rule: 'split_deposits',
    summary: `${near.length} deposits in ${t.splitHours} h each between ${formatMoney(floor)} and ${t.splitThreshold}, together ${sum(near)}`,
    facts: { threshold: t.splitThreshold, floor: formatMoney(floor), count: near.length, total: sum(near), hours: t.splitHours, events: near.map(brief) },
  };
}

/** Rule 1's default share of the window's deposits a cash-out may take and be partial (thresholds.ts). */
const PARTIAL_PERCENT_DEFAULT = 30;

/**
 * Rule 1: a withdrawal requested within `inAndOutHours` of deposits, with the stakes of that
 * window under `inAndOutStakePercent` of what was deposited in it. High, unless it is a partial
 * cash-out (issue #61): the window's withdrawals, this one included, take at most
 * `inAndOutPartialPercent` of its deposits. The watch runs under br-spa, whose deposits are credited
 * only from the player's own account and whose payouts go only to it (Portaria SPA/MF 615/2024 art. 3:
 * payments' payer and destination checks), so a partial cash-out moves part of the player's own money
 * back to the player's own account: medium, recorded for our team, holding no payout.
 */
export function inAndOut(event: MoneyEvent, history: MoneyEvent[], stakes: string, t: AmlThresholds, leaving?: Leaving): RuleHit | undefined {
  if (event.kind !== 'withdrawal') return undefined;
  const end = event.at.getTime();
  const from = end - t.inAndOutHours * HOUR;
  const deposits = within(history, 'deposit', from, end);
  if (deposits.length === 0) return undefined;
  const deposited = sum(deposits);
  const bar = new Money(deposited).times(t.inAndOutStakePercent).div(100);
  if (new Money(stakes).gte(bar)) return undefined;
  const summary = `withdrawal of ${event.amount} within ${t.inAndOutHours} h of deposits of ${deposited}, stakes ${stakes} (under ${t.inAndOutStakePercent}%)`;
  const facts = { deposited, stakes, stakePercentBar: t.inAndOutStakePercent, hours: t.inAndOutHours, events: [...deposits.map(brief), brief(event)] };
  const partialPercent = t.inAndOutPartialPercent ?? PARTIAL_PERCENT_DEFAULT;
  const withdrawals = within(history, 'withdrawal', from, end);
  const cashedOut = sum(withdrawals.some((w) => w.eventId === event.eventId) ? withdrawals : [...withdrawals, event]);
  const partial = new Money(cashedOut).lte(new Money(deposited).times(partialPercent).div(100));
  if (!leaving && partial) {
    return {
      rule: 'in_and_out',
      summary: `${summary}; a partial cash-out: ${cashedOut} out of ${deposited} (at most ${partialPercent}%), to and from the player's own account`,
      facts: { ...facts, cashedOut, partialPercentBar: partialPercent },
      risk: 'medium',
    };
  }
  if (!leaving) return { rule: 'in_and_out', summary, facts };
  // Recorded, low: a person leaving takes their balance out (the rules ask for it); a case of its own
  // for our team to see, holding no payout.
  return { rule: 'in_and_out', summary: `${summary}; expected: ${LEAVING_WORDS[leaving]}`, facts: { ...facts, leaving }, risk: 'low' };
}

/** What the velocity rule weighs, for one kind: its sums over the last 24 h and over the 30 days before them. */
export interface VelocityWindow {
  recent: string;
  before: string;
  beforeCount: number;
}

/** The 30 days' daily average when the last 24 h are far above it (rule 5's bar), else undefined. */
function velocityBar(w: VelocityWindow, t: AmlThresholds): string | undefined {
  // No pattern yet: nothing to be far above (a large first deposit is rule 3's).
  if (w.beforeCount === 0) return undefined;
  const dailyAverage = new Money(w.before).div(30);
  if (new Money(w.recent).lt(t.velocityMinAmount) || new Money(w.recent).lt(dailyAverage.times(t.velocityFactor))) return undefined;
  return formatMoney(dailyAverage);
}

/** Rule 5: the last 24 h of deposits (or withdrawals) far above the player's daily average of the 30 days before. */
export function velocity(event: MoneyEvent, history: MoneyEvent[], t: AmlThresholds): RuleHit | undefined {
  const end = event.at.getTime();
  const lastDay = within(history, event.kind, end - DAY, end);
  const before = within(history, event.kind, end - 31 * DAY, end - DAY);
  const recent = sum(lastDay);
  const dailyAverage = velocityBar({ recent, before: sum(before), beforeCount: before.length }, t);
  if (!dailyAverage) return undefined;
  return {
    rule: 'velocity',
    summary: `${event.kind}s of ${recent} in 24 h, ${t.velocityFactor}× or more the daily average of ${dailyAverage} over the 30 days before`,
    facts: { kind: event.kind, recent, dailyAverage, factor: t.velocityFactor, events: lastDay.map(brief) },
  };
}

/** Rule 4: a payout to a destination another player of the brand used. */
export function sharedDestination(event: MoneyEvent, others: Array<{ playerId: string; eventId: string; at: Date }>): RuleHit | undefined {
  if (event.kind !== 'withdrawal' || others.length === 0) return undefined;
  return {
    rule: 'shared_destination',
    summary: `payout destination already used by ${new Set(others.map((o) => o.playerId)).size} other player(s)`,
    facts: {
      destination: event.destination,
      otherPlayers: others.map((o) => ({ playerId: o.playerId, eventId: o.eventId, at: o.at.toISOString() })),
      events: [brief(event)],
    },
  };
}

/** Every rule of the money watch, for one new event. */
export function evaluateMoneyRules(input: {
  event: MoneyEvent;
  /** The player's recorded money events of the last 31 days, this one included. */
  history: MoneyEvent[];
  thresholds: AmlThresholds;
  /** What the player staked in the in-and-out window (withdrawals only). */
  stakes?: string;
  /** Why the withdrawal's player is leaving, if they are (withdrawals only). */
  leaving?: Leaving;
  /** The player's largest single win in the in-and-out window (withdrawals only). */
  largestWin?: WalletLargestWin | null;
  otherPlayersOfDestination: Array<{ playerId: string; eventId: string; at: Date }>;
}): RuleHit[] {
  const { event, history, thresholds: t } = input;
  const hits = [
    input.stakes !== undefined ? inAndOut(event, history, input.stakes, t, input.leaving) : undefined,
    splitDeposits(event, history, t),
    highValue(event, t) ?? largeWinOut(event, input.largestWin, t),
    sharedDestination(event, input.otherPlayersOfDestination),
    velocity(event, history, t),
  ];
  return hits.filter((h): h is RuleHit => h !== undefined);
}

/**
 * A deposit judged in order from its velocity window's sums, without the player's history (the
 * watch's common case, docs/aml.md): rule 3's hit or none. Undefined when a rule that reads the
 * history could hit (rule 2 for a deposit in its band, rule 5 over its bar): evaluateMoneyRules
 * then judges it on the history, so each rule's evidence is as it always was.
 */
export function depositRulesBySums(event: MoneyEvent, w: VelocityWindow, t: AmlThresholds): RuleHit[] | undefined {
  if (event.kind !== 'deposit' || inSplitBand(event, t) || velocityBar(w, t)) return undefined;
  const hit = highValue(event, t);
  return hit ? [hit] : [];
}
