// The sandbox's way to make a player show harm markers (issue #68 item 4): the days of a made-up
// history, under the operator's own thresholds, on which exactly the markers asked fire, so an
// operator's developer sees the read and the webhook of each before going live. A quiet baseline
// (a deposit and a few bets a week, before the recent window) gives the markers that compare the
// player with themselves a usual to escalate from; every marker asked then adds its pattern to the
// recent window, and the others stay under their thresholds. A new player (new_player_intensity) has
// no baseline: their history is the recent window alone, so the four markers that compare a player
// with their usual never show with it (refused by name). The assessment of these days is checked
// against the markers asked: thresholds under which one pattern would fire another (a floor of one
// deposit, say) make the request fail, never show something else.
import { BR_SPA_METHODS, type HarmMarker, type HarmThresholds } from '@bo/contracts';
import { Money } from '@bo/service-kit';
import { assessPlayer, type Assessment } from './markers.ts';
import { addDays, emptyDay, windowsOf, type PlayerDay } from './player-day.ts';

const Decimal = Money.clone({ DECIMAL_PLACES: 12 });

/** The baseline's stake, and the quiet recent one (below any stake factor: they are at least 1). */
const BASE_STAKE_CENTS = 100;
const QUIET_STAKE_CENTS = 50;
/** The baseline's weekly deposit. */
const BASE_DEPOSIT = '50.00';

/** The bets of one stake pattern, repeated: count, sum, sum of squares (cents). */
interface Bets {
  count: number;
  sumCents: bigint;
  squaresCents: bigint;
}

/**
 * `n - 1` bets of `s` cents and one of `n·s`: a coefficient of variation near √n / 2, the smallest `n`
 * (from 2 up) that reaches `v` with room to spare. One bet of `s` with no variation asked.
 */
function stakePattern(s: number, v: number | undefined): Bets {
  if (v === undefined) return { count: 1, sumCents: BigInt(s), squaresCents: BigInt(s * s) };
  // √n / 2 ≈ 1.1·v: start just under it (a loop from 2 would take thousands of steps for a large v).
  for (let n = Math.max(2, Math.floor((2.2 * v) ** 2) - 2); ; n++) {
    const sum = new Decimal(n - 1 + n);
    const squares = new Decimal(n - 1 + n * n);
    const mean = sum.div(n);
    const cv = squares.div(n).minus(mean.times(mean)).sqrt().div(mean);
    if (cv.gte(v * 1.1)) return { count: n, sumCents: BigInt(s) * BigInt(2 * n - 1), squaresCents: BigInt(s * s) * BigInt(n - 1 + n * n) };
  }
}

/** `n` payment methods: the br-spa ones first, then made-up names. */
const methodNames = (n: number) => Array.from({ length: n }, (_, i) => BR_SPA_METHODS[i] ?? `method_${i + 1}`);

const money = (cents: bigint) => new Money(cents.toString()).div(100).toFixed(2);
const squares = (cents2: bigint) => new Money(cents2.toString()).div(10_000).toFixed(4);
const ceilMoney = (v: InstanceType<typeof Decimal>) => v.decimalPlaces(2, Decimal.ROUND_CEIL);

/** The made-up days on which `markers` fire on `asOf` under `t` (an empty set: a quiet player). */
export function sandboxHarmDays(markers: ReadonlySet<HarmMarker>, asOf: string, t: HarmThresholds): PlayerDay[] {
  const w = windowsOf(asOf, t);
  const asked = (m: HarmMarker) => markers.has(m);

  // The baseline: one row per recent-window length from its first day (any window of that length
  // holds one: the largest week is one row), its bets enough for the stake markers.
  // A new player (new_player_intensity) has no baseline: their history is the recent window alone.
  const newcomer = asked('new_player_intensity');
  const rows = newcomer ? 0 : Math.max(1, Math.floor(t.baselineDays / t.recentDays));
  const betsPerRow = Math.ceil(t.minBets / rows);
  const baseline: PlayerDay[] = Array.from({ length: rows }, (_, i) => ({
    ...emptyDay(addDays(w.baseline.from, i * t.recentDays)),
    deposits: 1,
    depositSum: BASE_DEPOSIT,
    depositMethods: ['pix'],
    bets: betsPerRow,
    stakeSum: money(BigInt(betsPerRow * BASE_STAKE_CENTS)),
    stakeSquares: squares(BigInt(betsPerRow * BASE_STAKE_CENTS * BASE_STAKE_CENTS)),
    // No loss: the baseline's loss is 0, the loss marker's bar its floor.
    winSum: money(BigInt(betsPerRow * BASE_STAKE_CENTS)),
    minutesPlayed: Math.min(30, t.longDayMinutes - 1),
  }));
  // A baseline sum as it would be over the recent window (the baseline starts on its window's first day).
  const scaled = (v: number | string) => new Decimal(v).times(t.recentDays).div(t.baselineDays);

  const today: PlayerDay = emptyDay(asOf);
  const recent: PlayerDay[] = [today];

  // Deposits: chasing's are small deposits after a loss; frequency's add small ones up to its bar;
  // escalation's is one past its bar.
  if (asked('chasing')) {
    today.deposits += t.chasingDeposits;
    today.depositsAfterLoss = t.chasingDeposits;
  }
  if (asked('deposit_frequency')) {
    const bar = Decimal.max(scaled(rows), t.depositCountFloor).times(t.depositCountFactor);
    today.deposits = Math.max(today.deposits, bar.integerValue(Decimal.ROUND_CEIL).toNumber());
  }
  // Several payment methods: a deposit through each (the quiet player pays by PIX alone).
  const methods = asked('payment_methods') ? methodNames(t.paymentMethods) : ['pix'];
  if (asked('payment_methods')) today.deposits = Math.max(today.deposits, methods.length);
  let depositSum = new Decimal(today.deposits);
  if (asked('deposit_escalation')) {
    const bar = Decimal.max(Decimal.max(scaled(new Decimal(BASE_DEPOSIT).times(rows).toString()), t.depositFloor).times(t.depositFactor), BASE_DEPOSIT);
    today.deposits += 1;
    depositSum = Decimal.max(ceilMoney(bar).plus(1), depositSum.plus(1));
  }
  today.depositSum = depositSum.toFixed(2);

  if (asked('failed_deposits')) today.failedDeposits = t.failedDeposits;
  if (today.deposits + today.failedDeposits > 0) today.depositMethods = methods;
  if (asked('cancelled_withdrawals')) today.withdrawalsCancelled = t.cancelledWithdrawals;
  if (asked('limits_loosened')) today.limitsRaised = t.limitsLoosened;
  if (asked('limits_reached')) today.limitsReached = t.limitsReached;
  if (asked('reality_checks_dismissed')) today.realityChecksDismissed = t.realityChecksDismissed;

  // Bets, when a stake or loss marker is asked: a pattern of the mean and spread asked, repeated to
  // the bets a stake marker needs and the stakes a loss needs.
  if (asked('stake_escalation') || asked('stake_variability') || asked('loss_escalation')) {
    // A newcomer's today is in their later half: its pattern at their raised stake keeps the rise.
    const stake = asked('stake_escalation') ? Math.ceil(t.stakeFactor * BASE_STAKE_CENTS * 1.2) : newcomer ? newcomerStake(t) : QUIET_STAKE_CENTS;
    const pattern = stakePattern(stake, asked('stake_variability') ? t.stakeVariation : undefined);
    let copies = Math.ceil(t.minBets / pattern.count);
    // A newcomer's steady bets beside it would flatten the spread: the pattern twenty times their number.
    if (newcomer) copies = Math.max(copies, Math.ceil((20 * newcomerBetsPerDay(t) * t.recentDays) / pattern.count));
    let lossCents = 0n;
    if (asked('loss_escalation')) {
      const bar = new Decimal(t.lossFloor).times(t.lossFactor);
      lossCents = BigInt(ceilMoney(bar).plus(1).times(100).toFixed(0));
      copies = Math.max(copies, Number((lossCents + pattern.sumCents - 1n) / pattern.sumCents));
    }
    const n = BigInt(copies);
    today.bets = pattern.count * copies;
    today.stakeSum = money(pattern.sumCents * n);
    today.stakeSquares = squares(pattern.squaresCents * n);
    today.winSum = money(pattern.sumCents * n - lossCents);
  }

  // Time: long days of play on the recent window's last days; night play as every minute played
  // between 00:00 and 06:00, spread over days kept under a long day unless long days are asked.
  const dayOf = (i: number): PlayerDay => {
    while (recent.length <= i) recent.push(emptyDay(addDays(asOf, -recent.length)));
    return recent[i]!;
  };
  const quietMinutes = Math.min(30, t.longDayMinutes - 1);
  today.minutesPlayed = quietMinutes;
  // A newcomer intense from the start: every day of the window played, a deposit a day that adds up to
  // the escalation's bar from the floor, the later half's stakes past the rise.
  if (newcomer) {
    const middle = addDays(w.recent.from, Math.floor(t.recentDays / 2));
    const bar = new Decimal(t.depositFloor).times(t.depositFactor);
    const perDay = ceilMoney(bar.div(t.recentDays)).plus(1);
    const betsADay = newcomerBetsPerDay(t);
    for (let i = 0; i < t.recentDays; i++) {
      const d = dayOf(i);
      const stake = d.day < middle ? BASE_STAKE_CENTS : newcomerStake(t);
      d.deposits += 1;
      d.depositSum = new Decimal(d.depositSum).plus(perDay).toFixed(2);
      if (d.depositMethods.length === 0) d.depositMethods = ['pix'];
      d.bets += betsADay;
      d.stakeSum = new Decimal(d.stakeSum).plus(money(BigInt(betsADay * stake))).toFixed(2);
      d.stakeSquares = new Decimal(d.stakeSquares).plus(squares(BigInt(betsADay * stake * stake))).toFixed(4);
      d.winSum = new Decimal(d.winSum).plus(money(BigInt(betsADay * stake))).toFixed(2);
      d.minutesPlayed = Math.max(d.minutesPlayed, quietMinutes);
    }
  }
  if (asked('long_days')) for (let i = 0; i < Math.min(t.longDays, t.recentDays); i++) dayOf(i).minutesPlayed = t.longDayMinutes;
  if (asked('night_play')) {
    let left = t.nightMinutes - recent.reduce((s, d) => s + d.minutesPlayed, 0);
    const cap = asked('long_days') ? 1440 : Math.max(1, t.longDayMinutes - 1);
    for (let i = 0; left > 0 && i < t.recentDays; i++) {
      const d = dayOf(i);
      const more = Math.min(left, Math.max(0, cap - d.minutesPlayed));
      d.minutesPlayed += more;
      left -= more;
    }
    for (const d of recent) d.nightMinutes = d.minutesPlayed;
  }
  return [...baseline, ...recent].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** A newcomer's bets a day: each half of the window (the earlier has the fewer days) minBets / 2 at least. */
const newcomerBetsPerDay = (t: HarmThresholds) => Math.ceil(Math.ceil(t.minBets / 2) / Math.max(1, Math.floor(t.recentDays / 2)));

/** A newcomer's later stake: past the rise with room to spare (cents). */
const newcomerStake = (t: HarmThresholds) => Math.ceil(t.newPlayerStakeRise * BASE_STAKE_CENTS * 1.2);

/** The markers that compare a player with their usual: a new player, who has none, never shows them. */
const NEEDS_A_USUAL: readonly HarmMarker[] = ['deposit_escalation', 'deposit_frequency', 'loss_escalation', 'stake_escalation'];

/** Why `markers` cannot show together whatever the thresholds (a new player's with a usual's), if they cannot. */
export function impossibleTogether(markers: ReadonlySet<HarmMarker>): string | undefined {
  const usual = NEEDS_A_USUAL.filter((m) => markers.has(m));
  if (!markers.has('new_player_intensity') || usual.length === 0) return undefined;
  return `new_player_intensity is a player's before they have a usual to compare with, and ${usual.join(', ')} compare${usual.length === 1 ? 's' : ''} a player with theirs: never together`;
}

/** The markers asked that did not fire, and those that fired unasked. */
function mismatchOf(markers: ReadonlySet<HarmMarker>, a: Assessment): { missing: HarmMarker[]; extra: HarmMarker[] } {
  const fired = new Set(a.markers.map((m) => m.marker));
  return { missing: [...markers].filter((m) => !fired.has(m)), extra: [...fired].filter((m) => !markers.has(m)) };
}

/** The made-up days and their assessment on `asOf` (as the assessments loop would make it from the stored days). */
export function sandboxHarmAssessment(markers: ReadonlySet<HarmMarker>, asOf: string, t: HarmThresholds) {
  const days = sandboxHarmDays(markers, asOf, t);
  const assessment = assessPlayer(days, asOf, t, days[0]!.day);
  return { days, assessment, ...mismatchOf(markers, assessment) };
}
