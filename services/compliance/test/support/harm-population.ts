// A simulated population played through the system (issue #68 item 5): the compliance service as it
// runs (its harm feed's consumers on the real JetStream events stream, its play pass, its assessments
// loop, its kept levels, cases and `player.risk_level_changed`, on real Postgres), with the players
// service answering the operator's profile. Each simulated day's deposits, declined deposits,
// cancelled withdrawals and limit events are published as the payments and players services' outbox
// relays publish them, dated on that day; its play is the wallet's hours of play, answered by a
// stand-in of the wallet's two harm reads; the service's clock is moved to the day's last hour so its
// play pass reads the day. After each day has been counted, read and assessed, the level each player
// is kept at is read from the service's own table.
//
// Why a stand-in for the wallet's reads: the wallet dates a round by the database's clock, so a
// population's months of play cannot be played through it in minutes; what it answers (hours of play,
// whether a deposit came after a loss) is what the stand-in answers, over the same NATS messages
// (harm-play.test.ts plays real rounds through the real wallet for the same reads).
import { brandMessages, COMPLIANCE_DEFAULTS, harmPlayMessages, type HarmLevel, type HarmPlayHour, type OperatorScope } from '@bo/contracts';
import { BaseConfigSchema, kitTables, Migration, Money, type ServiceDefinition, type Sql } from '@bo/service-kit';
import { setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import type { Stack } from '@bo/test-support';
import { endOfDay } from '../../src/domain/business-days.ts';
import { complianceService } from '../../src/service.ts';
import { addDays, type PlayerDay } from '../../src/harm/player-day.ts';
import type { SimulatedPlayer } from '../../src/harm/simulation.ts';
import { publishEvent, publishMoneyEvent } from './published-events.ts';

const HOUR_MS = 3_600_000;
/** The operator on the default compliance profile: São Paulo's zone (no change of clocks since 2019). */
const ZONE = COMPLIANCE_DEFAULTS.timeZone;

/** Each day's local midnight, found once (a population's hours ask for it hundreds of thousands of times). */
const midnights = new Map<string, number>();
/** The instant of `hour` o'clock (0–23) on `day` in the operator's zone. */
function localHour(day: string, hour: number): Date {
  let midnight = midnights.get(day);
  if (midnight === undefined) {
    midnight = endOfDay(addDays(day, -1), ZONE).getTime();
    midnights.set(day, midnight);
  }
  return new Date(midnight + hour * HOUR_MS);
}

/** Cents as text: a day's sum split over its deposits adds up to it exactly. */
function split(sum: string, n: number): string[] {
  const each = new Money(sum).times(100).dividedToIntegerBy(n).div(100);
  return Array.from({ length: n }, (_, i) => (i < n - 1 ? each : new Money(sum).minus(each.times(n - 1))).toFixed(2));
}

/**
 * A simulated day's play as the wallet counts it, by UTC hour: its night minutes in the hours from
 * local midnight, the rest from local noon, an hour at most per hour (the last one takes what is
 * left); the bets, stakes, wins and reality checks in the first hour played.
 */
export function hoursOfDay(brandId: string, playerId: string, d: PlayerDay): HarmPlayHour[] {
  if (d.minutesPlayed === 0 && d.bets === 0) return [];
  const spread = (minutes: number, from: number, hours: number) => {
    const out: Array<{ hour: number; minutes: number }> = [];
    for (let i = 0, left = minutes; left > 0; i++) {
      const m = i === hours - 1 ? left : Math.min(60, left);
      out.push({ hour: from + i, minutes: m });
      left -= m;
    }
    return out;
  };
  const slots = [...spread(d.nightMinutes, 0, 6), ...spread(d.minutesPlayed - d.nightMinutes, 12, 12)];
  if (slots.length === 0) slots.push({ hour: 12, minutes: 0 });
  return slots.map((s, i) => ({
    brandId,
    playerId,
    hour: localHour(d.day, s.hour).toISOString(),
    bets: i === 0 ? d.bets : 0,
    stakeSum: i === 0 ? d.stakeSum : '0.00',
    stakeSquares: i === 0 ? d.stakeSquares : '0',
    netLoss: i === 0 ? new Money(d.stakeSum).minus(d.winSum).toFixed(2) : '0.00',
    secondsPlayed: s.minutes * 60,
    realityChecks: i === 0 ? d.realityChecksDismissed : 0,
  }));
}

/** What the wallet would answer for the population's play: its hours and whether each deposit came after a loss. */
class SimulatedWalletPlay {
  /** Each hour's rows in the wallet's order (brand, player). */
  private readonly byHour = new Map<number, HarmPlayHour[]>();
  private sortedHours: number[] = [];
  private readonly afterLoss = new Set<string>();

  add(hours: HarmPlayHour[]): void {
    for (const h of hours) {
      const at = Date.parse(h.hour);
      const rows = this.byHour.get(at) ?? [];
      if (rows.length === 0) this.byHour.set(at, rows);
      rows.push(h);
    }
    for (const rows of this.byHour.values()) rows.sort((a, b) => a.brandId.localeCompare(b.brandId) || a.playerId.localeCompare(b.playerId));
    this.sortedHours = [...this.byHour.keys()].sort((a, b) => a - b);
  }

  depositAfterLoss(playerId: string, at: Date): void {
    this.afterLoss.add(`${playerId}@${at.toISOString()}`);
  }

  /** As wallet/src/rg/store/play-hours.ts pages them: (hour, brand, player) after `after`, within [from, to). */
  playHours(q: { fromHour: string; toHour?: string; after?: { hour: string; brandId: string; playerId: string }; limit: number }) {
    const from = Date.parse(q.fromHour);
    const to = q.toHour === undefined ? Number.POSITIVE_INFINITY : Date.parse(q.toHour);
    const out: HarmPlayHour[] = [];
    for (const at of this.sortedHours) {
      if (at < from || at >= to || out.length >= q.limit) continue;
      for (const h of this.byHour.get(at)!) {
        if (out.length >= q.limit) break;
        const a = q.after;
        if (a && (at < Date.parse(a.hour) || (at === Date.parse(a.hour) && `${h.brandId}\u0000${h.playerId}` <= `${a.brandId}\u0000${a.playerId}`))) continue;
        out.push(h);
      }
    }
    const last = q.toHour !== undefined && out.length < q.limit;
    const next = last ? this.sortedHours.find((at) => at >= to) : undefined;
    return { hours: out, ...(last ? { nextHour: next === undefined ? null : new Date(next).toISOString() } : {}) };
  }

  lossesBefore(deposits: ReadonlyArray<{ playerId: string; at: string }>): boolean[] {
    return deposits.map((d) => this.afterLoss.has(`${d.playerId}@${new Date(d.at).toISOString()}`));
  }
}

/** The kit's own tables in the stand-in's schema (its outbox relay and stored answers run as every service's do). */
class SimulatedWalletTables extends Migration {
  override async up() {
    for (const statement of Object.values(kitTables('simulated_wallet'))) this.addSql(statement);
  }
}

/** The stand-in wallet's harm reads, and the brand read the play pass asks the operators service. */
function simulatedWalletService(play: SimulatedWalletPlay, scope: OperatorScope): ServiceDefinition {
  return {
    name: 'simulated-wallet',
    schema: 'simulated_wallet',
    config: BaseConfigSchema,
    entities: [],
    migrations: [{ name: 'SimulatedWalletTables', class: SimulatedWalletTables }],
    handlers: () => ({
      [harmPlayMessages.playHours.subject]: async (req) => ({ body: play.playHours(req.body as Parameters<SimulatedWalletPlay['playHours']>[0]) }),
      [harmPlayMessages.lossesBefore.subject]: async (req) => ({
        body: { afterLoss: play.lossesBefore((req.body as { deposits: Array<{ playerId: string; at: string }> }).deposits) },
      }),
      [brandMessages.get.subject]: async (req) => {
        const { brandId } = req.body as { brandId: string };
        const ours = brandId === scope.brandId;
        const brand = {
          id: brandId,
          operatorId: scope.operatorId,
          operatorName: 'Simulated',
          name: 'Simulated',
          environment: scope.environment,
          currency: 'BRL',
        };
        return { body: { brand: ours ? brand : null } };
      },
    }),
  };
}

/** A day's money and limit events, dated in the day (deposits from 10:00, the rest in the evening). */
async function publishDay(stack: Stack, scope: OperatorScope, play: SimulatedWalletPlay, playerId: string, d: PlayerDay): Promise<number> {
  const publish = (kind: 'deposit' | 'failed_deposit' | 'cancelled_withdrawal', amount: string, at: Date, method?: string) =>
    publishMoneyEvent(stack.nc, stack.prefix, scope, { kind, playerId, amount, at, ...(method ? { method } : {}) });
  const methods = d.depositMethods.length > 0 ? d.depositMethods : ['pix'];
  const jobs: Promise<string>[] = [];
  let n = 0;
  split(d.depositSum, d.deposits).forEach((amount, i) => {
    const at = new Date(localHour(d.day, 10).getTime() + n * 60_000);
    // The first deposits of the day are the ones after a loss, as many as the day had.
    if (i < d.depositsAfterLoss) play.depositAfterLoss(playerId, at);
    jobs.push(publish('deposit', amount, at, methods[n++ % methods.length]));
  });
  for (let i = 0; i < d.failedDeposits; i++)
    jobs.push(publish('failed_deposit', '20.00', new Date(localHour(d.day, 10).getTime() + n * 60_000), methods[n++ % methods.length]));
  for (let i = 0; i < d.withdrawalsCancelled; i++) jobs.push(publish('cancelled_withdrawal', '50.00', localHour(d.day, 21)));
  const limitEvent = (type: string, data: Record<string, unknown>) =>
    publishEvent(stack.nc, stack.prefix, scope, type, { playerId, externalId: null, type: 'deposit', period: 'day', ...data }, localHour(d.day, 22));
  for (let i = 0; i < d.limitsRaised; i++)
    jobs.push(
      limitEvent('player.limits.changed', { previousValue: '100.00', value: '200.00', effectiveAt: localHour(d.day, 22).toISOString(), by: 'operator' }),
    );
  for (let i = 0; i < d.limitsRemoved; i++)
    jobs.push(limitEvent('player.limits.changed', { previousValue: '100.00', value: null, effectiveAt: localHour(d.day, 22).toISOString(), by: 'operator' }));
  for (let i = 0; i < d.limitsReached; i++)
    jobs.push(limitEvent('player.limit.reached', { value: '100.00', resetsAt: localHour(addDays(d.day, 1), 0).toISOString() }));
  await Promise.all(jobs);
  return jobs.length;
}

export interface PopulationThroughSystem {
  /** The days the service counted for each player (its harm_days, in the simulation's fields). */
  counted: Map<string, PlayerDay[]>;
  /** The level each player was kept at when each day had been counted, read and assessed (index: the day's number). */
  levels: Map<string, HarmLevel[]>;
  /** The events the service counted (one per deposit, declined deposit, cancelled withdrawal, limit event published). */
  events: number;
}

/**
 * Plays `players` day by day from `start` for `days` days through the compliance service, which it
 * starts in `stack` (beside the players service the caller started) with the harm feed on, short
 * intervals and `config`, its clock already on the first day (a play pass reads forward from the
 * last one: its first read must not be today's).
 */
export async function playPopulationThroughSystem(
  stack: Stack,
  sql: Sql,
  scope: OperatorScope,
  players: readonly SimulatedPlayer[],
  o: { start: string; days: number; config?: Record<string, unknown>; onDay?: (n: number, day: string) => void },
): Promise<PopulationThroughSystem> {
  const play = new SimulatedWalletPlay();
  play.add(players.flatMap((p) => p.days.flatMap((d) => hoursOfDay(scope.brandId, p.id, d))));
  await stack.start(simulatedWalletService(play, scope), o.config?.LOG_LEVEL === undefined ? {} : { LOG_LEVEL: o.config.LOG_LEVEL });
  const byDay = new Map<string, Array<{ playerId: string; d: PlayerDay }>>();
  for (const p of players) {
    for (const d of p.days) {
      const list = byDay.get(d.day) ?? [];
      if (list.length === 0) byDay.set(d.day, list);
      list.push({ playerId: p.id, d });
    }
  }
  const levels = new Map(players.map((p) => [p.id, [] as HarmLevel[]]));
  let published = 0;
  const count = async (q: string, params: unknown[] = []) => Number((await sql.query<{ n: string }>(q, params))[0]!.n);
  try {
    setRuleClockOffset(localHour(o.start, 0).getTime() - Date.now());
    await stack.start(complianceService, {
      HARM_FEED: true,
      HARM_FEED_WINDOW_MS: 20,
      HARM_ASSESS_INTERVAL_MS: 20,
      HARM_PLAY_INTERVAL_MS: 20,
      ...o.config,
    });
    for (let n = 0; n < o.days; n++) {
      const day = addDays(o.start, n);
      for (const { playerId, d } of byDay.get(day) ?? []) published += await publishDay(stack, scope, play, playerId, d);
      // The service's clock at the day's last hour: its play pass reads every hour of the day, none of the next.
      const lastHour = localHour(day, 23);
      setRuleClockOffset(lastHour.getTime() + 1000 - Date.now());
      await waitFor(async () => (await count('select count(*) as n from compliance.harm_events')) === published, {
        what: `day ${day}'s ${published} events counted`,
        intervalMs: 20,
      });
      await waitFor(
        async () =>
          (await count(`select count(*) as n from compliance.harm_play_read where read_from >= ?::timestamptz`, [new Date(lastHour.getTime() - HOUR_MS)])) ===
          1,
        {
          what: `a play pass begun in day ${day}'s last hour`,
          intervalMs: 20,
        },
      );
      await waitFor(async () => (await count('select count(*) as n from compliance.harm_pending')) === 0, {
        what: `day ${day}'s players assessed`,
        intervalMs: 20,
      });
      const kept = new Map(
        (await sql.query<{ player_id: string; level: HarmLevel }>('select player_id, level from compliance.harm_levels')).map((r) => [r.player_id, r.level]),
      );
      for (const [playerId, series] of levels) series.push(kept.get(playerId) ?? 'none');
      o.onDay?.(n, day);
    }
  } finally {
    setRuleClockOffset(0);
  }
  const counted = new Map<string, PlayerDay[]>(players.map((p) => [p.id, []]));
  const rows = await sql.query<PlayerDay & { player_id: string }>(
    `select player_id, day, deposits, deposit_sum::text as "depositSum", failed_deposits as "failedDeposits", deposit_methods as "depositMethods",
            deposits_after_loss as "depositsAfterLoss", withdrawals_cancelled as "withdrawalsCancelled", bets, stake_sum::text as "stakeSum",
            stake_squares::text as "stakeSquares", win_sum::text as "winSum", minutes_played as "minutesPlayed", night_minutes as "nightMinutes",
            limits_raised as "limitsRaised", limits_removed as "limitsRemoved", limits_reached as "limitsReached",
            reality_checks_dismissed as "realityChecksDismissed"
       from compliance.harm_days order by player_id, day`,
  );
  for (const { player_id, ...d } of rows) counted.get(player_id)?.push(d);
  return { counted, levels, events: published };
}

const LEVELS: readonly HarmLevel[] = ['none', 'low', 'medium', 'high'];

/** What the system found at `level` or above, as the simulation's figures count it (src/harm/simulation.ts): the level kept at a day's end. */
export function systemFigures(players: readonly SimulatedPlayer[], levels: Map<string, HarmLevel[]>, start: string, level: HarmLevel) {
  const f = {
    escalating: { of: 0, found: 0, leadDays: [] as number[] },
    newcomers: { of: 0, found: 0, leadDays: [] as number[] },
    recreational: { of: 0, flagged: 0 },
  };
  for (const p of players) {
    const n = (levels.get(p.id) ?? []).findIndex((l) => LEVELS.indexOf(l) >= LEVELS.indexOf(level));
    const day = n < 0 ? undefined : addDays(start, n);
    if (p.kind === 'escalating' || p.kind === 'newcomer') {
      const g = p.kind === 'escalating' ? f.escalating : f.newcomers;
      g.of++;
      if (day !== undefined && day <= p.peakDay!) {
        g.found++;
        g.leadDays.push(Math.round((Date.parse(p.peakDay!) - Date.parse(day)) / 86_400_000));
      }
    } else {
      f.recreational.of++;
      if (day !== undefined) f.recreational.flagged++;
    }
  }
  f.escalating.leadDays.sort((a, b) => a - b);
  f.newcomers.leadDays.sort((a, b) => a - b);
  return f;
}
