// The harm markers (issue #68), as plain functions over a player's days: each marker that fires
// comes with what it measured, what it was held to and, where it compares the player with
// themselves, the player's own baseline. A marker never fires on size alone: a player who always
// deposits R$ 5.000 a week is not escalating; one who went from R$ 300 to R$ 1.500 is. The floors
// keep a tiny or missing baseline (a new player) from making any increase look like escalation.
// docs/player-protection.md gives each marker, its default and its source.
import type { HarmLevel, HarmMarker, HarmMarkerHit, HarmThresholds } from '@bo/contracts';
import { formatMoney, Money } from '@bo/service-kit';
import { addDays, daysBetween, windowsOf, type PlayerDay } from './player-day.ts';

/** Means, spreads and ratios need more than money's two decimal places (a R$ 0,20 stake's variance). */
const Decimal = Money.clone({ DECIMAL_PLACES: 12 });
type Decimal = InstanceType<typeof Decimal>;

/**
 * A strong indicator weighs 2 (the UKGC's guidance and the markers studies name these first), any
 * other 1. A week's loss swings with luck far more than its deposits do (the simulation: it was
 * most of the recreational players' wrong flags at 2), so it weighs 1.
 */
export const MARKER_WEIGHTS: Record<HarmMarker, number> = {
  deposit_escalation: 2,
  deposit_frequency: 1,
  loss_escalation: 1,
  chasing: 2,
  night_play: 1,
  long_days: 1,
  cancelled_withdrawals: 2,
  limits_loosened: 1,
  limits_reached: 1,
  stake_escalation: 1,
  stake_variability: 1,
  failed_deposits: 1,
  payment_methods: 1,
  reality_checks_dismissed: 1,
  new_player_intensity: 2,
};

export interface Assessment {
  asOf: string;
  level: HarmLevel;
  /** The fired markers' added weights. */
  score: number;
  markers: HarmMarkerHit[];
  /** The deposits of the recent window (a harm case's amount: the queue's order within a level and score). */
  recentDeposits: string;
}

interface Totals {
  days: number;
  deposits: number;
  depositSum: Decimal;
  failedDeposits: number;
  /** The distinct payment methods of the window's deposits, credited or declined. */
  methods: Set<string>;
  depositsAfterLoss: number;
  withdrawalsCancelled: number;
  bets: number;
  stakeSum: Decimal;
  stakeSquares: Decimal;
  winSum: Decimal;
  minutesPlayed: number;
  nightMinutes: number;
  limitsLoosened: number;
  limitsReached: number;
  realityChecksDismissed: number;
  longDays: number;
  /** Days with at least one bet. */
  playDays: number;
}

function totalsOf(days: PlayerDay[], from: string, to: string, longDayMinutes: number): Totals {
  const t: Totals = {
    days: 0,
    deposits: 0,
    depositSum: new Decimal(0),
    failedDeposits: 0,
    methods: new Set(),
    depositsAfterLoss: 0,
    withdrawalsCancelled: 0,
    bets: 0,
    stakeSum: new Decimal(0),
    stakeSquares: new Decimal(0),
    winSum: new Decimal(0),
    minutesPlayed: 0,
    nightMinutes: 0,
    limitsLoosened: 0,
    limitsReached: 0,
    realityChecksDismissed: 0,
    longDays: 0,
    playDays: 0,
  };
  for (const d of days) {
    if (d.day < from || d.day > to) continue;
    t.days++;
    t.deposits += d.deposits;
    t.depositSum = t.depositSum.plus(d.depositSum);
    t.failedDeposits += d.failedDeposits;
    for (const m of d.depositMethods) t.methods.add(m);
    t.depositsAfterLoss += d.depositsAfterLoss;
    t.withdrawalsCancelled += d.withdrawalsCancelled;
    t.bets += d.bets;
    t.stakeSum = t.stakeSum.plus(d.stakeSum);
    t.stakeSquares = t.stakeSquares.plus(d.stakeSquares);
    t.winSum = t.winSum.plus(d.winSum);
    t.minutesPlayed += d.minutesPlayed;
    t.nightMinutes += d.nightMinutes;
    t.limitsLoosened += d.limitsRaised + d.limitsRemoved;
    t.limitsReached += d.limitsReached;
    t.realityChecksDismissed += d.realityChecksDismissed;
    if (d.minutesPlayed >= longDayMinutes) t.longDays++;
    if (d.bets > 0) t.playDays++;
  }
  return t;
}

const loss = (t: Totals) => maxOf(t.stakeSum.minus(t.winSum), new Decimal(0));
function maxOf(a: Decimal, b: Decimal): Decimal {
  return a.gte(b) ? a : b;
}
/**
 * The largest sum of `amountOf` over any `windowDays` consecutive days within [from, to]: the player's
 * worst window in their baseline. An escalation goes past it, not only past the baseline's mean: a
 * player who plays in bursts has weeks of three times their mean as part of their usual.
 */
function largestWindow(days: PlayerDay[], from: string, to: string, windowDays: number, amountOf: (d: PlayerDay) => Decimal): Decimal {
  const byDay = new Map<string, Decimal>();
  for (const d of days) if (d.day >= from && d.day <= to) byDay.set(d.day, amountOf(d));
  const span = daysBetween(from, to);
  let largest = new Decimal(0);
  let sum = new Decimal(0);
  for (let i = 0; i < span; i++) {
    sum = sum.plus(byDay.get(addDays(from, i)) ?? 0);
    if (i >= windowDays) sum = sum.minus(byDay.get(addDays(from, i - windowDays)) ?? 0);
    if (i >= windowDays - 1 && sum.gt(largest)) largest = sum;
  }
  return largest;
}
const meanStake = (t: Totals) => t.stakeSum.div(t.bets);
/** The stakes' coefficient of variation (sd / mean) from their count, sum and sum of squares. */
function variationOf(t: Totals): Decimal {
  const mean = meanStake(t);
  const variance = t.stakeSquares.div(t.bets).minus(mean.times(mean));
  return variance.lte(0) || mean.isZero() ? new Decimal(0) : variance.sqrt().div(mean);
}
const ratio = (v: Decimal) => v.decimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2);

/**
 * The player's markers and level on `asOf`, from their days (any order; days outside the windows are
 * ignored). `since` is the player's first day with us: a baseline reads only the days since then,
 * scaled to the recent window's length; with less than half a baseline window of history the
 * markers that compare the player with themselves stay silent.
 */
export function assessPlayer(days: PlayerDay[], asOf: string, t: HarmThresholds, since?: string): Assessment {
  const w = windowsOf(asOf, t);
  const recent = totalsOf(days, w.recent.from, w.recent.to, t.longDayMinutes);
  const baseline = totalsOf(days, w.baseline.from, w.baseline.to, t.longDayMinutes);
  const account = totalsOf(days, w.account.from, w.account.to, t.longDayMinutes);
  const first = since ?? days.reduce<string | undefined>((min, d) => (min === undefined || d.day < min ? d.day : min), undefined) ?? asOf;
  const baselineFrom = first > w.baseline.from ? first : w.baseline.from;
  const baselineLength = baselineFrom > w.baseline.to ? 0 : daysBetween(baselineFrom, w.baseline.to);
  /**
   * The escalation markers compare the player with themselves: they need half a baseline window of
   * history at least (a player new to us has no usual to escalate from, and a few days of it are noise).
   */
  const hasBaseline = baselineLength * 2 >= t.baselineDays;
  /** A baseline sum as it would be over the recent window. */
  const scaled = (v: Decimal | number) => new Decimal(v).times(t.recentDays).div(baselineLength);

  const hits: HarmMarkerHit[] = [];
  const fire = (marker: HarmMarker, from: string, summary: string, value: string, threshold: string, base?: string) =>
    hits.push({ marker, weight: MARKER_WEIGHTS[marker], value, threshold, ...(base === undefined ? {} : { baseline: base }), from, to: asOf, summary });
  const recentDays = `the last ${t.recentDays} days`;

  if (hasBaseline) {
    const base = scaled(baseline.depositSum);
    const largest = largestWindow(days, baselineFrom, w.baseline.to, t.recentDays, (d) => new Decimal(d.depositSum));
    const bar = maxOf(maxOf(base, new Decimal(t.depositFloor)).times(t.depositFactor), largest);
    if (recent.depositSum.gt(bar)) {
      fire(
        'deposit_escalation',
        w.recent.from,
        `deposits of ${formatMoney(recent.depositSum)} in ${recentDays}: ${t.depositFactor}× or more the player's usual ${formatMoney(base)} (floor ${t.depositFloor}), and more than their largest ${t.recentDays} days before (${formatMoney(largest)})`,
        formatMoney(recent.depositSum),
        formatMoney(bar),
        formatMoney(base),
      );
    }
  }
  if (hasBaseline) {
    const base = scaled(baseline.deposits);
    const bar = maxOf(base, new Decimal(t.depositCountFloor)).times(t.depositCountFactor);
    if (recent.deposits > 0 && bar.lte(recent.deposits)) {
      fire(
        'deposit_frequency',
        w.recent.from,
        `${recent.deposits} deposits in ${recentDays}, ${t.depositCountFactor}× or more the player's usual ${base.toFixed(1)} (floor ${t.depositCountFloor})`,
        String(recent.deposits),
        bar.toFixed(1),
        base.toFixed(1),
      );
    }
  }
  if (hasBaseline) {
    const base = scaled(loss(baseline));
    const largest = largestWindow(days, baselineFrom, w.baseline.to, t.recentDays, (d) => new Decimal(d.stakeSum).minus(d.winSum));
    const bar = maxOf(maxOf(base, new Decimal(t.lossFloor)).times(t.lossFactor), largest);
    const lost = loss(recent);
    if (lost.gt(bar)) {
      fire(
        'loss_escalation',
        w.recent.from,
        `a net loss of ${formatMoney(lost)} in ${recentDays}: ${t.lossFactor}× or more the player's usual ${formatMoney(base)} (floor ${t.lossFloor}), and more than their largest ${t.recentDays} days before (${formatMoney(largest)})`,
        formatMoney(lost),
        formatMoney(bar),
        formatMoney(base),
      );
    }
  }
  if (recent.depositsAfterLoss >= t.chasingDeposits) {
    fire(
      'chasing',
      w.recent.from,
      `${recent.depositsAfterLoss} deposits within ${t.chasingMinutes} min of play that ended in a loss, in ${recentDays}`,
      String(recent.depositsAfterLoss),
      String(t.chasingDeposits),
    );
  }
  if (recent.nightMinutes >= t.nightMinutes && recent.nightMinutes * 100 >= t.nightPercent * recent.minutesPlayed) {
    const percent = Math.floor((recent.nightMinutes * 100) / recent.minutesPlayed);
    fire(
      'night_play',
      w.recent.from,
      `${recent.nightMinutes} of ${recent.minutesPlayed} minutes played between 00:00 and 06:00 (${percent}%) in ${recentDays}`,
      String(percent),
      String(t.nightPercent),
    );
  }
  if (recent.longDays >= t.longDays) {
    fire(
      'long_days',
      w.recent.from,
      `${recent.longDays} days of ${t.longDayMinutes} minutes of play or more in ${recentDays}`,
      String(recent.longDays),
      String(t.longDays),
    );
  }
  if (account.withdrawalsCancelled >= t.cancelledWithdrawals) {
    fire(
      'cancelled_withdrawals',
      w.account.from,
      `${account.withdrawalsCancelled} withdrawals cancelled by the player in the last ${t.accountDays} days`,
      String(account.withdrawalsCancelled),
      String(t.cancelledWithdrawals),
    );
  }
  if (account.limitsLoosened >= t.limitsLoosened) {
    fire(
      'limits_loosened',
      w.account.from,
      `${account.limitsLoosened} limits raised or removed in the last ${t.accountDays} days`,
      String(account.limitsLoosened),
      String(t.limitsLoosened),
    );
  }
  if (recent.limitsReached >= t.limitsReached) {
    fire(
      'limits_reached',
      w.recent.from,
      `${recent.limitsReached} refusals by the player's own limits in ${recentDays}`,
      String(recent.limitsReached),
      String(t.limitsReached),
    );
  }
  if (hasBaseline && recent.bets >= t.minBets && baseline.bets >= t.minBets) {
    const now = meanStake(recent);
    const before = meanStake(baseline);
    if (now.gte(before.times(t.stakeFactor))) {
      fire(
        'stake_escalation',
        w.recent.from,
        `a mean stake of ${formatMoney(now)} in ${recentDays}, ${t.stakeFactor}× or more the player's usual ${formatMoney(before)}`,
        formatMoney(now),
        formatMoney(before.times(t.stakeFactor)),
        formatMoney(before),
      );
    }
  }
  if (recent.bets >= t.minBets) {
    const variation = variationOf(recent);
    if (variation.gte(t.stakeVariation)) {
      fire(
        'stake_variability',
        w.recent.from,
        `stakes varying ${ratio(variation)} times their mean (${recent.bets} bets) in ${recentDays}`,
        ratio(variation),
        String(t.stakeVariation),
      );
    }
  }
  if (recent.failedDeposits >= t.failedDeposits) {
    fire(
      'failed_deposits',
      w.recent.from,
      `${recent.failedDeposits} deposits declined or failed in ${recentDays}`,
      String(recent.failedDeposits),
      String(t.failedDeposits),
    );
  }
  if (recent.methods.size >= t.paymentMethods) {
    const methods = [...recent.methods].sort();
    fire(
      'payment_methods',
      w.recent.from,
      `deposits through ${methods.length} payment methods (${methods.join(', ')}) in ${recentDays}`,
      String(methods.length),
      String(t.paymentMethods),
    );
  }
  if (recent.realityChecksDismissed >= t.realityChecksDismissed) {
    fire(
      'reality_checks_dismissed',
      w.recent.from,
      `${recent.realityChecksDismissed} reality checks acknowledged to play on in ${recentDays}`,
      String(recent.realityChecksDismissed),
      String(t.realityChecksDismissed),
    );
  }

  const newcomer = newPlayerIntensity(days, first, asOf, t, hasBaseline);
  if (newcomer) fire('new_player_intensity', first, newcomer.summary, newcomer.value, newcomer.threshold);

  const score = hits.reduce((s, h) => s + h.weight, 0);
  return { asOf, level: levelOf(score, t), score, markers: hits, recentDeposits: recent.depositSum.toFixed(2) };
}

/**
 * A player new to us who is intense from the start (Braverman and Shaffer's first month: frequent and
 * intensive betting with an increasing wager size): before the escalation markers can compare them with
 * their usual, at least a recent window with us, play on most of their days, deposits a week of what
 * would be an escalation from the floor, and a later half's mean stake well above the earlier half's.
 */
function newPlayerIntensity(days: PlayerDay[], first: string, asOf: string, t: HarmThresholds, hasBaseline: boolean) {
  const withUs = first > asOf ? 0 : daysBetween(first, asOf);
  if (hasBaseline || withUs < t.recentDays) return undefined;
  const middle = addDays(first, Math.floor(withUs / 2));
  const all = totalsOf(days, first, asOf, t.longDayMinutes);
  const early = totalsOf(days, first, addDays(middle, -1), t.longDayMinutes);
  const late = totalsOf(days, middle, asOf, t.longDayMinutes);
  const weekly = all.depositSum.times(t.recentDays).div(withUs);
  const bar = new Decimal(t.depositFloor).times(t.depositFactor);
  const halfBets = Math.ceil(t.minBets / 2);
  if (all.playDays * 100 < t.newPlayerPlayPercent * withUs || weekly.lt(bar) || early.bets < halfBets || late.bets < halfBets) return undefined;
  if (meanStake(early).isZero()) return undefined;
  const rise = meanStake(late).div(meanStake(early));
  if (rise.lt(t.newPlayerStakeRise)) return undefined;
  return {
    value: ratio(rise),
    threshold: String(t.newPlayerStakeRise),
    summary: `with us for ${withUs} days: played on ${all.playDays} of them, deposits of ${formatMoney(weekly)} a ${t.recentDays}-day window on average (${formatMoney(bar)} or more), the mean stake up from ${formatMoney(meanStake(early))} to ${formatMoney(meanStake(late))} (${ratio(rise)}×, ${t.newPlayerStakeRise}× or more)`,
  };
}

export function levelOf(score: number, t: Pick<HarmThresholds, 'levelAt'>): HarmLevel {
  if (score >= t.levelAt.high) return 'high';
  if (score >= t.levelAt.medium) return 'medium';
  if (score >= t.levelAt.low) return 'low';
  return 'none';
}

/** What changed between two assessments of a player: the level, and the markers that came and went. */
export function changeOf(before: Pick<Assessment, 'level' | 'markers'> | undefined, after: Assessment) {
  const had = new Set((before?.markers ?? []).map((m) => m.marker));
  const has = new Set(after.markers.map((m) => m.marker));
  return {
    from: before?.level ?? ('none' as HarmLevel),
    to: after.level,
    levelChanged: (before?.level ?? 'none') !== after.level,
    added: [...has].filter((m) => !had.has(m)),
    removed: [...had].filter((m) => !has.has(m)),
  };
}
