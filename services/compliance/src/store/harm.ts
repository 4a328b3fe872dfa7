// The harm feed's statements (issue #68), in the kit's plain `sql`: count an event once into the
// player's day, read the player's days, keep the player's level and each change of it.
import type { HarmMarkerHit, HarmThresholds } from '@bo/contracts';
import { writeEvent, type SqlRunner } from '@bo/service-kit';
import type { HarmEvent } from '../harm/harm-events.ts';
import type { Assessment, changeOf } from '../harm/markers.ts';
import type { PlayerDay } from '../harm/player-day.ts';
import { followHarmCase } from './harm-cases.ts';
import type { PlayerRef } from './watch.ts';

const S = 'compliance';

/** An event to count, with the day it falls on in its operator's time zone. */
export interface HarmEventToCount {
  p: PlayerRef;
  e: HarmEvent;
  day: string;
}

/**
 * Takes the harm lock of every player of the batch (one player's counting and assessment at a time,
 * across replicas; in key order, so two batches never wait on each other), records each event once,
 * adds the new ones to their days (a deposit among `afterLoss` also as a deposit after a loss) and
 * marks their players for assessment (harm_pending: the latest day and event), in one statement.
 * Returns the events recorded now: a redelivery is not among them, and nothing is counted twice.
 */
export async function countHarmEvents(tx: SqlRunner, items: readonly HarmEventToCount[], afterLoss: ReadonlySet<string> = new Set()): Promise<Set<string>> {
  const col = <T>(f: (r: HarmEventToCount) => T) => items.map(f);
  const rows = await tx.query<{ event_id: string }>(
    `with locked as (
       select count(pg_advisory_xact_lock(k)) as n
         from (select distinct hashtextextended('harm/' || p, 0) as k from unnest(?::text[]) as l(p) order by 1 offset 0) keys),
     recorded as (
       insert into ${S}.harm_events (event_id, operator_id, brand_id, environment, player_id, kind, amount, method, day, occurred_at)
       select r.* from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::numeric[], ?::text[], ?::text[], ?::timestamptz[]) as r, locked
       on conflict (event_id) do nothing
       returning event_id, operator_id, brand_id, environment, player_id, kind, amount, method, day),
     counted as (
       insert into ${S}.harm_days (player_id, day, operator_id, brand_id, environment, deposits, deposit_sum, deposits_after_loss, failed_deposits,
                                   deposit_methods, withdrawals_cancelled, limits_raised, limits_removed, limits_reached)
       select player_id, day, min(operator_id), min(brand_id), min(environment),
              count(*) filter (where kind = 'deposit'), coalesce(sum(amount) filter (where kind = 'deposit'), 0),
              count(*) filter (where kind = 'deposit' and event_id = any(?::text[])),
              count(*) filter (where kind = 'failed_deposit'),
              coalesce(array_agg(distinct method order by method) filter (where method is not null), '{}'),
              count(*) filter (where kind = 'cancelled_withdrawal'),
              count(*) filter (where kind = 'limit_raised'), count(*) filter (where kind = 'limit_removed'), count(*) filter (where kind = 'limit_reached')
         from recorded group by player_id, day
       on conflict (player_id, day) do update set
         deposits = harm_days.deposits + excluded.deposits,
         deposit_sum = harm_days.deposit_sum + excluded.deposit_sum,
         deposits_after_loss = harm_days.deposits_after_loss + excluded.deposits_after_loss,
         failed_deposits = harm_days.failed_deposits + excluded.failed_deposits,
         -- A day's methods as a set: a method the day already had is not added again.
         deposit_methods = case when excluded.deposit_methods <@ harm_days.deposit_methods then harm_days.deposit_methods
           else array(select distinct m from unnest(harm_days.deposit_methods || excluded.deposit_methods) as u(m) order by m) end,
         withdrawals_cancelled = harm_days.withdrawals_cancelled + excluded.withdrawals_cancelled,
         limits_raised = harm_days.limits_raised + excluded.limits_raised,
         limits_removed = harm_days.limits_removed + excluded.limits_removed,
         limits_reached = harm_days.limits_reached + excluded.limits_reached),
     marked as (
       insert into ${S}.harm_pending (player_id, operator_id, brand_id, environment, day, event_id, counted_at)
       select distinct on (player_id) player_id, operator_id, brand_id, environment, day, event_id, now()
         from recorded order by player_id, day desc, event_id
       on conflict (player_id) do update set
         day = greatest(harm_pending.day, excluded.day), event_id = excluded.event_id, counted_at = excluded.counted_at)
     -- A data-modifying WITH runs once whether read or not: the days are counted, the players marked.
     select event_id from recorded`,
    [
      col((r) => r.p.playerId),
      col((r) => r.e.eventId),
      col((r) => r.p.operatorId),
      col((r) => r.p.brandId),
      col((r) => r.p.environment),
      col((r) => r.p.playerId),
      col((r) => r.e.kind),
      col((r) => r.e.amount),
      col((r) => r.e.method),
      col((r) => r.day),
      col((r) => r.e.at),
      [...afterLoss],
    ],
  );
  return new Set(rows.map((r) => r.event_id));
}

export interface StoredHarmLevel {
  level: Assessment['level'];
  markers: HarmMarkerHit[];
  assessedOn: string;
}

/** A player counted since their last assessment: the latest day and event counted. */
export interface PendingHarmPlayer {
  p: PlayerRef;
  day: string;
  eventId: string;
  countedAt: Date;
}

/**
 * Takes up to `limit` players marked for assessment, longest waiting first, with their harm locks,
 * inside the caller's transaction: the marks are gone when it commits, and back if it fails. A player
 * whose lock is held (being counted, or taken by another replica) is left for the next pass: the lock
 * is tried, never waited for, so this never waits on a count that waits on it.
 */
export async function takePendingHarmPlayers(tx: SqlRunner, limit: number): Promise<PendingHarmPlayer[]> {
  const rows = await tx.query<{
    player_id: string;
    operator_id: string;
    brand_id: string;
    environment: PlayerRef['environment'];
    day: string;
    event_id: string;
    counted_at: Date;
  }>(
    `with got as materialized (
       select player_id from (select player_id from ${S}.harm_pending order by counted_at limit ?) c
        where pg_try_advisory_xact_lock(hashtextextended('harm/' || player_id, 0)))
     delete from ${S}.harm_pending where player_id in (select player_id from got) returning *`,
    [limit],
  );
  return rows.map((r) => ({
    p: { playerId: r.player_id, operatorId: r.operator_id, brandId: r.brand_id, environment: r.environment },
    day: r.day,
    eventId: r.event_id,
    countedAt: r.counted_at,
  }));
}

export interface HarmState {
  days: PlayerDay[];
  since: string | undefined;
  stored: StoredHarmLevel | undefined;
}

/**
 * What the assessments read, in one statement: each player's days from their `from` on, their first
 * day counted (the first day with us the markers know) and their kept level.
 */
export async function harmStatesOf(tx: SqlRunner, players: ReadonlyArray<{ playerId: string; from: string }>): Promise<Map<string, HarmState>> {
  const rows = await tx.query<{ player_id: string; days: PlayerDay[] | null; since: string | null; stored: StoredHarmLevel | null }>(
    `select q.player_id,
       (select json_agg(d order by d.day) from (
          select day, deposits, deposit_sum::text as "depositSum", failed_deposits as "failedDeposits", deposit_methods as "depositMethods",
                 deposits_after_loss as "depositsAfterLoss",
                 withdrawals_cancelled as "withdrawalsCancelled", bets, stake_sum::text as "stakeSum", stake_squares::text as "stakeSquares",
                 win_sum::text as "winSum", minutes_played as "minutesPlayed", night_minutes as "nightMinutes", limits_raised as "limitsRaised",
                 limits_removed as "limitsRemoved", limits_reached as "limitsReached", reality_checks_dismissed as "realityChecksDismissed"
            from ${S}.harm_days where player_id = q.player_id and day >= q.from_day) d) as days,
       (select min(day) from ${S}.harm_days where player_id = q.player_id) as since,
       (select json_build_object('level', level, 'markers', markers, 'assessedOn', assessed_on) from ${S}.harm_levels where player_id = q.player_id) as stored
     from unnest(?::text[], ?::text[]) as q(player_id, from_day)`,
    [players.map((p) => p.playerId), players.map((p) => p.from)],
  );
  return new Map(rows.map((r) => [r.player_id, { days: r.days ?? [], since: r.since ?? undefined, stored: r.stored ?? undefined }]));
}

/**
 * Keeps the player's assessment (a player never above `none` has no row) and, when the level moved,
 * a history row with the markers that came and went and the operator's `player.risk_level_changed`;
 * the player's harm case follows (harm-cases.ts). True when it wrote that event (the outbox relay is
 * woken after the commit).
 */
export async function saveHarmLevel(
  tx: SqlRunner,
  p: PlayerRef,
  a: Assessment,
  change: ReturnType<typeof changeOf>,
  cause: { eventId: string; at: Date },
  stored: StoredHarmLevel | undefined,
): Promise<boolean> {
  if (!stored && a.level === 'none') return false;
  await tx.query(
    `insert into ${S}.harm_levels (player_id, operator_id, brand_id, environment, level, score, markers, assessed_on, updated_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, now())
     on conflict (player_id) do update set level = excluded.level, score = excluded.score, markers = excluded.markers,
       assessed_on = excluded.assessed_on, updated_at = excluded.updated_at`,
    [p.playerId, p.operatorId, p.brandId, p.environment, a.level, a.score, JSON.stringify(a.markers), a.asOf],
  );
  let changeId: string | undefined;
  if (change.levelChanged) {
    const [history] = await tx.query<{ id: string }>(
      `insert into ${S}.harm_level_history (player_id, from_level, to_level, added, removed, markers, event_id, at)
       values (?, ?, ?, ?::text[], ?::text[], ?::jsonb, ?, ?) returning id::text`,
      [p.playerId, change.from, change.to, change.added, change.removed, JSON.stringify(a.markers), cause.eventId, cause.at],
    );
    changeId = history?.id;
    await writeEvent(tx, S, p, 'player.risk_level_changed', {
      playerId: p.playerId,
      previousLevel: change.from,
      level: change.to,
      score: a.score,
      markers: a.markers,
      added: change.added,
      removed: change.removed,
      assessedOn: a.asOf,
    });
  }
  // Our team's case follows the assessment; a move to high opens one (issue #68 item 3).
  await followHarmCase(tx, p, a, changeId);
  return change.levelChanged;
}

/** A player's kept level (none: never assessed above `none`), in the environment asked. */
export async function harmLevelOf(
  sql: SqlRunner,
  playerId: string,
  environment: PlayerRef['environment'],
): Promise<{ level: Assessment['level']; score: number; markers: HarmMarkerHit[]; assessedOn: string; updatedAt: Date } | undefined> {
  const [row] = await sql.query<{ level: Assessment['level']; score: number; markers: HarmMarkerHit[]; assessed_on: string; updated_at: Date }>(
    `select level, score, markers, assessed_on, updated_at from ${S}.harm_levels where player_id = ? and environment = ?`,
    [playerId, environment],
  );
  return row && { level: row.level, score: row.score, markers: row.markers, assessedOn: row.assessed_on, updatedAt: row.updated_at };
}

/**
 * The sandbox's made-up history of a player (sandbox-markers.ts), in the caller's transaction: under
 * the player's harm lock (waited for: a sandbox call, never the money's path), the player's days
 * replaced by `days` and their mark for assessment dropped (the caller assesses them now).
 */
export async function replaceSandboxHarmDays(tx: SqlRunner, p: PlayerRef, days: readonly PlayerDay[]): Promise<void> {
  if (p.environment !== 'sandbox') throw new Error('made-up harm days are for sandbox players only');
  await tx.query(`select pg_advisory_xact_lock(hashtextextended('harm/' || ?::text, 0))`, [p.playerId]);
  await tx.query(`delete from ${S}.harm_days where player_id = ? and environment = 'sandbox'`, [p.playerId]);
  await tx.query(`delete from ${S}.harm_pending where player_id = ?`, [p.playerId]);
  await tx.query(
    `insert into ${S}.harm_days (player_id, operator_id, brand_id, environment, day, deposits, deposit_sum, failed_deposits, deposit_methods,
       deposits_after_loss, withdrawals_cancelled, bets, stake_sum, stake_squares, win_sum, minutes_played, night_minutes, limits_raised,
       limits_removed, limits_reached, reality_checks_dismissed)
     select ?, ?, ?, ?, d.day, d.deposits, d."depositSum", d."failedDeposits", d."depositMethods", d."depositsAfterLoss", d."withdrawalsCancelled",
            d.bets, d."stakeSum", d."stakeSquares", d."winSum", d."minutesPlayed", d."nightMinutes", d."limitsRaised", d."limitsRemoved",
            d."limitsReached", d."realityChecksDismissed"
       from json_to_recordset(?::json) as d(day text, deposits int, "depositSum" numeric, "failedDeposits" int, "depositMethods" text[], "depositsAfterLoss" int,
            "withdrawalsCancelled" int, bets int, "stakeSum" numeric, "stakeSquares" numeric, "winSum" numeric, "minutesPlayed" int, "nightMinutes" int,
            "limitsRaised" int, "limitsRemoved" int, "limitsReached" int, "realityChecksDismissed" int)`,
    [p.playerId, p.operatorId, p.brandId, p.environment, JSON.stringify(days)],
  );
}

/** The stored thresholds of those of `operatorIds` our team set (the others: none, the defaults). */
export async function storedHarmThresholds(tx: SqlRunner, operatorIds: readonly string[]): Promise<Map<string, Partial<HarmThresholds>>> {
  const rows = await tx.query<{ operator_id: string; thresholds: Partial<HarmThresholds> }>(
    `select operator_id, thresholds from ${S}.harm_thresholds where operator_id = any(?::text[])`,
    [[...new Set(operatorIds)]],
  );
  return new Map(rows.map((r) => [r.operator_id, r.thresholds]));
}
