// A simulated population for the harm markers (issue #68 item 5): most players recreational (some
// of them high spenders, some who play at night), some whose play escalates towards a peak loss.
// Each player's days are generated from a seeded random stream, then assessed day by day with the
// real assessPlayer and the given thresholds: how many escalating players reach a level, how many
// days before their peak loss, and how many recreational players reach it wrongly. The shapes of
// escalation follow the markers studies cited in docs/player-protection.md; the figures are the
// simulation's, not a field study's.
import { BR_SPA_METHODS, type HarmLevel, type HarmMarker, type HarmThresholds } from '@bo/contracts';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { addDays, daysBetween, emptyDay, type PlayerDay } from './player-day.ts';
import { assessPlayer } from './markers.ts';

export interface SimulationOptions {
  seed: number;
  recreational: number;
  escalating: number;
  /** Players harmed from their first days (Braverman and Shaffer's first month): from streams of their own. */
  newcomers?: number;
  days: number;
}

export type SimulatedKind = 'recreational' | 'high_spender' | 'night_worker' | 'escalating' | 'newcomer';
type HarmedKind = 'escalating' | 'newcomer';
const isHarmed = (kind: SimulatedKind): kind is HarmedKind => kind === 'escalating' || kind === 'newcomer';

export interface SimulatedPlayer {
  id: string;
  kind: SimulatedKind;
  days: PlayerDay[];
  /** A harmed player's day of the largest 7-day net loss. */
  peakDay?: string;
}

/** A seeded stream (pure-rand's xoroshiro128+), so a run is the same every time. */
function randomStream(seed: number) {
  const rng = xoroshiro128plus(seed);
  const next = () => uniformFloat64(rng);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return {
    next,
    between: (lo: number, hi: number) => lo + (hi - lo) * next(),
    chance: (p: number) => next() < p,
    /** A log-normal draw around `median`. */
    logNormal: (median: number, sigma: number) => median * Math.exp(sigma * normal()),
    count: (mean: number) => {
      // Poisson by inversion: small means only.
      let k = 0;
      let p = Math.exp(-mean);
      let s = p;
      const u = next();
      while (u > s && k < 1000) {
        k++;
        p *= mean / k;
        s += p;
      }
      return k;
    },
  };
}
type Random = ReturnType<typeof randomStream>;

/** The population's first day (a Monday). */
export const SIMULATION_START = '2026-01-05';
const cents = (v: number) => (Math.round(v * 100) / 100).toFixed(2);

/** How a player behaves on a day: the knobs escalation turns. */
interface Habit {
  weeklyBudget: number;
  playDaysPerWeek: number;
  minutes: number;
  nightShare: number;
  stakeMean: number;
  stakeSpread: number;
  afterLossShare: number;
  cancelPerWeek: number;
  loosenPerMonth: number;
  failedShare: number;
  reachedPerWeek: number;
  /** The payment methods the player deposits through (a fraction: sometimes one more). */
  methods: number;
}

/**
 * The day's deposits' payment methods, each drawn from the player's own few. From a stream of its own
 * (`m`): the other draws, and so the other markers' figures, stay as they were before methods were drawn.
 */
function methodsOf(m: Random, deposits: number, h: Habit): string[] {
  const own = Math.min(BR_SPA_METHODS.length, Math.floor(h.methods) + (m.chance(h.methods % 1) ? 1 : 0));
  const used = new Set<string>();
  for (let i = 0; i < deposits; i++) used.add(BR_SPA_METHODS[Math.floor(m.next() * own)]!);
  return [...used].sort();
}

function dayOf(r: Random, m: Random, day: string, h: Habit): PlayerDay {
  const d = emptyDay(day);
  if (!r.chance(h.playDaysPerWeek / 7)) return d;
  const deposits = Math.max(1, r.count(1.2));
  const depositSum = Math.max(10, r.logNormal(h.weeklyBudget / h.playDaysPerWeek, 0.3));
  d.deposits = deposits;
  d.depositSum = cents(depositSum);
  for (let i = 0; i < deposits; i++) {
    if (r.chance(h.afterLossShare)) d.depositsAfterLoss++;
    if (r.chance(h.failedShare)) d.failedDeposits++;
  }
  d.depositMethods = methodsOf(m, deposits + d.failedDeposits, h);
  d.minutesPlayed = Math.max(5, Math.round(r.logNormal(h.minutes, 0.35)));
  d.nightMinutes = Math.round(d.minutesPlayed * Math.min(1, Math.max(0, h.nightShare + r.between(-0.15, 0.15))));
  d.realityChecksDismissed = Math.floor(d.minutesPlayed / 60);
  // Stakes: a log-normal spread around the habit's mean; the sum of squares is what the variability marker reads.
  const bets = Math.max(1, Math.round(d.minutesPlayed * r.between(0.5, 1.5)));
  let sum = 0;
  let squares = 0;
  const sigma = Math.sqrt(Math.log(1 + h.stakeSpread * h.stakeSpread));
  for (let i = 0; i < bets; i++) {
    const stake = Math.max(0.1, Math.round(h.stakeMean * Math.exp(sigma * (r.next() * 2 - 1) * 1.7 - (sigma * sigma) / 2) * 100) / 100);
    sum += stake;
    squares += stake * stake;
  }
  d.bets = bets;
  d.stakeSum = cents(sum);
  d.stakeSquares = cents(squares);
  // What comes back: a day's return to player around 92%, some days well up, some well down.
  d.winSum = cents(Math.max(0, sum * Math.min(2.5, Math.max(0, 0.92 + r.between(-0.35, 0.35)))));
  if (r.chance(h.cancelPerWeek / 7)) d.withdrawalsCancelled = 1;
  if (r.chance(h.loosenPerMonth / 30)) d.limitsRaised = 1;
  if (r.chance(h.reachedPerWeek / 7)) d.limitsReached = 1;
  return d;
}

function habitOf(r: Random, m: Random, kind: SimulatedKind): Habit {
  const spender = kind === 'high_spender';
  const weeklyBudget = spender ? r.logNormal(4000, 0.4) : r.logNormal(150, 0.8);
  const playDaysPerWeek = r.between(1, spender ? 6 : 4.5);
  const minutes = r.between(25, spender ? 150 : 100);
  const betsPerWeek = playDaysPerWeek * minutes;
  return {
    weeklyBudget,
    playDaysPerWeek,
    minutes,
    nightShare: kind === 'night_worker' ? r.between(0.5, 0.8) : r.between(0, 0.25),
    // A stake such that a week's expected loss (8% of stakes) is about the week's deposits.
    stakeMean: Math.max(0.2, weeklyBudget / (betsPerWeek * 0.08)),
    stakeSpread: r.between(0.3, 1),
    afterLossShare: r.between(0, 0.1),
    cancelPerWeek: r.between(0, 0.1),
    loosenPerMonth: r.between(0, 0.3),
    failedShare: r.between(0, 0.05),
    reachedPerWeek: r.between(0, 0.2),
    // Most pay one way; a fifth keep a second (a card beside PIX).
    methods: m.chance(0.2) ? 2 : 1,
  };
}

/** An escalating player's habit at progress p (0 at onset, 1 at the peak): the markers studies' shape. */
function escalated(h: Habit, p: number, severity: number): Habit {
  const grow = 1 + (severity - 1) * p * p;
  return {
    weeklyBudget: h.weeklyBudget * grow,
    playDaysPerWeek: Math.min(7, h.playDaysPerWeek + (7 - h.playDaysPerWeek) * p),
    minutes: h.minutes * (1 + 2 * p),
    nightShare: Math.min(0.9, h.nightShare + 0.5 * p),
    stakeMean: h.stakeMean * (1 + (severity / 2) * p),
    stakeSpread: h.stakeSpread + 2.5 * p,
    afterLossShare: Math.min(0.8, h.afterLossShare + 0.6 * p),
    cancelPerWeek: Math.min(3, h.cancelPerWeek + 1.5 * p),
    loosenPerMonth: h.loosenPerMonth + 3 * p,
    failedShare: Math.min(0.5, h.failedShare + 0.3 * p),
    reachedPerWeek: h.reachedPerWeek + 3 * p,
    // Declined, they try another card or account.
    methods: h.methods + 2 * p,
  };
}

/** A 7-day net loss, in plain numbers: it only picks the simulated peak day, it is never money of ours. */
const weekLoss = (days: PlayerDay[], i: number) => days.slice(Math.max(0, i - 6), i + 1).reduce((s, d) => s + Number(d.stakeSum) - Number(d.winSum), 0);

/** The population: recreational players (a tenth high spenders, a tenth night workers) and escalating ones. */
export function simulatePopulation(o: SimulationOptions): SimulatedPlayer[] {
  const r = randomStream(o.seed);
  const m = randomStream(o.seed + 1_000_003);
  const players: SimulatedPlayer[] = [];
  for (let i = 0; i < o.recreational + o.escalating; i++) {
    const kind: SimulatedKind = i >= o.recreational ? 'escalating' : i % 10 === 0 ? 'high_spender' : i % 10 === 1 ? 'night_worker' : 'recreational';
    const habit = habitOf(r, m, kind);
    const onset = Math.floor(r.between(35, Math.max(36, o.days - 45)));
    const length = Math.floor(r.between(14, 42));
    const severity = r.between(4, 12);
    const days: PlayerDay[] = [];
    for (let n = 0; n < o.days; n++) {
      const day = addDays(SIMULATION_START, n);
      if (kind !== 'escalating' || n < onset) days.push(dayOf(r, m, day, habit));
      else if (n <= onset + length) days.push(dayOf(r, m, day, escalated(habit, (n - onset) / length, severity)));
      // After the peak the player stops (closes the account or self-excludes): no more days.
    }
    players.push(harmedOrNot({ id: `sim_${i}`, kind, days }));
  }
  // Newcomers: recreational habits that escalate from their first week, over two to four weeks. Their own
  // streams: the players above are the same with or without them.
  const nr = randomStream(o.seed + 2_000_003);
  const nm = randomStream(o.seed + 3_000_005);
  for (let j = 0; j < (o.newcomers ?? 0); j++) {
    const habit = habitOf(nr, nm, 'recreational');
    const onset = Math.floor(nr.between(0, 7));
    const length = Math.floor(nr.between(14, 28));
    const severity = nr.between(4, 12);
    const days: PlayerDay[] = [];
    for (let n = 0; n <= Math.min(o.days - 1, onset + length); n++) {
      const day = addDays(SIMULATION_START, n);
      days.push(dayOf(nr, nm, day, n < onset ? habit : escalated(habit, (n - onset) / length, severity)));
    }
    players.push(harmedOrNot({ id: `sim_new_${j}`, kind: 'newcomer', days }));
  }
  return players;
}

/** A harmed player with the day of their largest week's loss. */
function harmedOrNot(player: SimulatedPlayer): SimulatedPlayer {
  if (!isHarmed(player.kind)) return player;
  let peak = 0;
  for (let n = 1; n < player.days.length; n++) if (weekLoss(player.days, n) > weekLoss(player.days, peak)) peak = n;
  return { ...player, peakDay: player.days[peak]!.day };
}

/** Harmed players of one kind: how many, how many reached the level on or before their peak loss day, and how early. */
export interface Found {
  of: number;
  found: number;
  /** Days between reaching the level and the peak loss, for each player found (sorted). */
  leadDays: number[];
}

export interface DetectionFigures {
  level: HarmLevel;
  escalating: number;
  /** Escalating players who reached the level on or before their peak loss day. */
  found: number;
  /** Days between reaching the level and the peak loss, for each player found (sorted). */
  leadDays: number[];
  /** The newcomers harmed from their first days, apart. */
  newcomers: Found;
  recreational: number;
  /** Recreational players (any kind) who reached the level on any day. */
  flagged: number;
  flaggedByKind: Record<Exclude<SimulatedKind, HarmedKind>, { of: number; flagged: number }>;
  /** How often each marker fired on the day an escalating player (or a newcomer) reached the level: what finding them rests on. */
  markerDays: Partial<Record<HarmMarker, number>>;
  /** The same for the recreational players flagged: what the wrong flags rest on. */
  wrongMarkerDays: Partial<Record<HarmMarker, number>>;
}

const LEVEL_ORDER: HarmLevel[] = ['none', 'low', 'medium', 'high'];

/**
 * Each player assessed on each day from the start of their history, once for all `levels`: for each
 * level, the first day at or over it counts.
 */
export function detectionFigures<L extends HarmLevel>(players: SimulatedPlayer[], t: HarmThresholds, levels: readonly L[]): Record<L, DetectionFigures> {
  const empty = (level: HarmLevel): DetectionFigures => ({
    level,
    escalating: 0,
    found: 0,
    leadDays: [],
    newcomers: { of: 0, found: 0, leadDays: [] },
    recreational: 0,
    flagged: 0,
    flaggedByKind: { recreational: { of: 0, flagged: 0 }, high_spender: { of: 0, flagged: 0 }, night_worker: { of: 0, flagged: 0 } },
    markerDays: {},
    wrongMarkerDays: {},
  });
  const out = Object.fromEntries(levels.map((level) => [level, empty(level)])) as Record<L, DetectionFigures>;
  for (const p of players) {
    const since = p.days[0]?.day;
    const reached = new Map<L, string>();
    for (const d of p.days) {
      if (reached.size === levels.length) break;
      const a = assessPlayer(p.days, d.day, t, since);
      for (const level of levels) {
        if (reached.has(level) || LEVEL_ORDER.indexOf(a.level) < LEVEL_ORDER.indexOf(level)) continue;
        reached.set(level, d.day);
        const tally = isHarmed(p.kind) ? out[level].markerDays : out[level].wrongMarkerDays;
        for (const m of a.markers) tally[m.marker] = (tally[m.marker] ?? 0) + 1;
      }
    }
    for (const level of levels) {
      const f = out[level];
      const day = reached.get(level);
      if (p.kind === 'newcomer') {
        f.newcomers.of++;
        if (day !== undefined && day <= p.peakDay!) {
          f.newcomers.found++;
          f.newcomers.leadDays.push(daysBetween(day, p.peakDay!) - 1);
        }
      } else if (p.kind === 'escalating') {
        f.escalating++;
        if (day !== undefined && day <= p.peakDay!) {
          f.found++;
          f.leadDays.push(daysBetween(day, p.peakDay!) - 1);
        }
      } else {
        f.recreational++;
        f.flaggedByKind[p.kind].of++;
        if (day !== undefined) {
          f.flagged++;
          f.flaggedByKind[p.kind].flagged++;
        }
      }
    }
  }
  for (const level of levels) {
    out[level].leadDays.sort((a, b) => a - b);
    out[level].newcomers.leadDays.sort((a, b) => a - b);
  }
  return out;
}

export const median = (xs: number[]) => (xs.length === 0 ? 0 : xs.length % 2 ? xs[(xs.length - 1) / 2]! : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2);
