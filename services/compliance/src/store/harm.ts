// The harm feed's statements (issue #68), in the kit's plain `sql`: count an event once into the
// player's day, read the player's days, keep the player's level and each change of it.
import type { HarmMarkerHit } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import type { HarmEvent } from '../harm/harm-events.ts';
import type { Assessment, changeOf } from '../harm/markers.ts';
import type { PlayerDay } from '../harm/player-day.ts';
import type { PlayerRef } from './watch.ts';

const S = 'compliance';

/**
 * Takes the player's harm lock (one player's counting and assessment at a time, across replicas),
 * records the event once and adds it to its day, in one statement. False when it was recorded
 * already (a redelivery): nothing is counted twice.
 */
export async function countHarmEvent(tx: SqlRunner, p: PlayerRef, e: HarmEvent, day: string): Promise<boolean> {
  const deposit = e.kind === 'deposit';
  const [row] = await tx.query<{ n: number }>(
    `with locked as (select pg_advisory_xact_lock(hashtextextended('harm/' || ?::text, 0))),
     recorded as (
       insert into ${S}.harm_events (event_id, operator_id, brand_id, environment, player_id, kind, amount, day, occurred_at)
       select ?, ?, ?, ?, ?, ?, ?::numeric, ?, ?::timestamptz from locked
       on conflict (event_id) do nothing returning event_id),
     counted as (
       insert into ${S}.harm_days (player_id, day, operator_id, brand_id, environment, deposits, deposit_sum, failed_deposits, withdrawals_cancelled)
       select ?, ?, ?, ?, ?, ?::int, ?::numeric, ?::int, ?::int from recorded
       on conflict (player_id, day) do update set
         deposits = harm_days.deposits + excluded.deposits,
         deposit_sum = harm_days.deposit_sum + excluded.deposit_sum,
         failed_deposits = harm_days.failed_deposits + excluded.failed_deposits,
         withdrawals_cancelled = harm_days.withdrawals_cancelled + excluded.withdrawals_cancelled
       returning 1)
     select count(*)::int as n from counted`,
    [
      p.playerId,
      e.eventId,
      p.operatorId,
      p.brandId,
      p.environment,
      p.playerId,
      e.kind,
      e.amount,
      day,
      e.at,
      p.playerId,
      day,
      p.operatorId,
      p.brandId,
      p.environment,
      deposit ? 1 : 0,
      deposit ? e.amount : '0',
      e.kind === 'failed_deposit' ? 1 : 0,
      e.kind === 'cancelled_withdrawal' ? 1 : 0,
    ],
  );
  return row!.n === 1;
}

export interface StoredHarmLevel {
  level: Assessment['level'];
  markers: HarmMarkerHit[];
  assessedOn: string;
}

/**
 * What an assessment reads, in one statement: the player's days from `from` on, their first day
 * counted (the first day with us the markers know) and their kept level.
 */
export async function harmStateOf(
  tx: SqlRunner,
  playerId: string,
  from: string,
): Promise<{ days: PlayerDay[]; since: string | undefined; stored: StoredHarmLevel | undefined }> {
  const [row] = await tx.query<{ days: PlayerDay[] | null; since: string | null; stored: StoredHarmLevel | null }>(
    `select
       (select json_agg(d order by d.day) from (
          select day, deposits, deposit_sum::text as "depositSum", failed_deposits as "failedDeposits", deposits_after_loss as "depositsAfterLoss",
                 withdrawals_cancelled as "withdrawalsCancelled", bets, stake_sum::text as "stakeSum", stake_squares::text as "stakeSquares",
                 win_sum::text as "winSum", minutes_played as "minutesPlayed", night_minutes as "nightMinutes", limits_raised as "limitsRaised",
                 limits_removed as "limitsRemoved", limits_reached as "limitsReached", reality_checks_dismissed as "realityChecksDismissed"
            from ${S}.harm_days where player_id = ? and day >= ?) d) as days,
       (select min(day) from ${S}.harm_days where player_id = ?) as since,
       (select json_build_object('level', level, 'markers', markers, 'assessedOn', assessed_on) from ${S}.harm_levels where player_id = ?) as stored`,
    [playerId, from, playerId, playerId],
  );
  return { days: row?.days ?? [], since: row?.since ?? undefined, stored: row?.stored ?? undefined };
}

/**
 * Keeps the player's assessment (a player never above `none` has no row) and, when the level moved,
 * a history row with the markers that came and went.
 */
export async function saveHarmLevel(
  tx: SqlRunner,
  p: PlayerRef,
  a: Assessment,
  change: ReturnType<typeof changeOf>,
  cause: { eventId: string; at: Date },
  stored: StoredHarmLevel | undefined,
): Promise<void> {
  if (!stored && a.level === 'none') return;
  await tx.query(
    `insert into ${S}.harm_levels (player_id, operator_id, brand_id, environment, level, score, markers, assessed_on, updated_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, now())
     on conflict (player_id) do update set level = excluded.level, score = excluded.score, markers = excluded.markers,
       assessed_on = excluded.assessed_on, updated_at = excluded.updated_at`,
    [p.playerId, p.operatorId, p.brandId, p.environment, a.level, a.score, JSON.stringify(a.markers), a.asOf],
  );
  if (!change.levelChanged) return;
  await tx.query(
    `insert into ${S}.harm_level_history (player_id, from_level, to_level, added, removed, markers, event_id, at)
     values (?, ?, ?, ?::text[], ?::text[], ?::jsonb, ?, ?)`,
    [p.playerId, change.from, change.to, change.added, change.removed, JSON.stringify(a.markers), cause.eventId, cause.at],
  );
}
