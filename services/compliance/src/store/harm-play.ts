// The harm play pass's statements (issue #68; src/harm/harm-play.ts), in the kit's plain `sql`: keep
// each hour of a player's play as the wallet counted it (set, never added: an hour read again counts
// nothing twice), bring the player's days to the sums of their hours, and mark the players whose days
// changed for assessment, as the harm feed marks the players it counted.
import type { SqlRunner } from '@bo/service-kit';
import type { PlayerRef } from './watch.ts';

const S = 'compliance';

/** An hour of a player's play, with its day and whether it is night in the operator's time zone. */
export interface PlayHourToKeep {
  p: PlayerRef;
  hour: string;
  day: string;
  night: boolean;
  bets: number;
  stakeSum: string;
  stakeSquares: string;
  netLoss: string;
  secondsPlayed: number;
  realityChecks: number;
}

/**
 * In the caller's transaction, under the harm lock of each player (in key order, as the feed takes
 * them): the hours kept where they changed, then each changed day's play columns set to the sums of
 * its hours (a day row made when the player had none), and those players marked for assessment with
 * the latest day changed. The players marked.
 */
export async function keepPlayHours(tx: SqlRunner, hours: readonly PlayHourToKeep[]): Promise<number> {
  if (hours.length === 0) return 0;
  const col = <T>(f: (h: PlayHourToKeep) => T) => hours.map(f);
  await tx.query(
    `select count(pg_advisory_xact_lock(k)) from (select distinct hashtextextended('harm/' || p, 0) as k from unnest(?::text[]) as l(p) order by 1 offset 0) keys`,
    [col((h) => h.p.playerId)],
  );
  const changed = await tx.query<{ player_id: string; day: string }>(
    `insert into ${S}.harm_play_hours as h (player_id, hour, operator_id, brand_id, environment, day, night, bets, stake_sum, stake_squares, net_loss,
                                           seconds_played, reality_checks)
     select * from unnest(?::text[], ?::timestamptz[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[], ?::int[], ?::numeric[], ?::numeric[], ?::numeric[],
                          ?::int[], ?::int[])
     on conflict (player_id, hour) do update set
       day = excluded.day, night = excluded.night, bets = excluded.bets, stake_sum = excluded.stake_sum, stake_squares = excluded.stake_squares,
       net_loss = excluded.net_loss, seconds_played = excluded.seconds_played, reality_checks = excluded.reality_checks
     where (h.day, h.night, h.bets, h.stake_sum, h.stake_squares, h.net_loss, h.seconds_played, h.reality_checks)
           is distinct from (excluded.day, excluded.night, excluded.bets, excluded.stake_sum, excluded.stake_squares, excluded.net_loss, excluded.seconds_played,
                             excluded.reality_checks)
     returning player_id, day`,
    [
      col((h) => h.p.playerId),
      col((h) => h.hour),
      col((h) => h.p.operatorId),
      col((h) => h.p.brandId),
      col((h) => h.p.environment),
      col((h) => h.day),
      col((h) => h.night),
      col((h) => h.bets),
      col((h) => h.stakeSum),
      col((h) => h.stakeSquares),
      col((h) => h.netLoss),
      col((h) => h.secondsPlayed),
      col((h) => h.realityChecks),
    ],
  );
  if (changed.length === 0) return 0;
  // A second statement: it sees the hours the first one kept.
  const marked = await tx.query<{ player_id: string }>(
    `with days as (select distinct player_id, day from unnest(?::text[], ?::text[]) as c(player_id, day)),
     sums as (
       select h.player_id, h.day, min(h.operator_id) as operator_id, min(h.brand_id) as brand_id, min(h.environment) as environment,
              sum(h.bets)::int as bets, sum(h.stake_sum) as stake_sum, sum(h.stake_squares) as stake_squares, sum(h.stake_sum - h.net_loss) as win_sum,
              (sum(h.seconds_played) / 60)::int as minutes_played, (coalesce(sum(h.seconds_played) filter (where h.night), 0) / 60)::int as night_minutes,
              sum(h.reality_checks)::int as reality_checks
         from ${S}.harm_play_hours h join days d on d.player_id = h.player_id and d.day = h.day
        group by h.player_id, h.day),
     kept as (
       insert into ${S}.harm_days (player_id, day, operator_id, brand_id, environment, bets, stake_sum, stake_squares, win_sum, minutes_played, night_minutes,
                                   reality_checks_dismissed)
       select player_id, day, operator_id, brand_id, environment, bets, stake_sum, stake_squares, win_sum, minutes_played, night_minutes, reality_checks from sums
       on conflict (player_id, day) do update set
         bets = excluded.bets, stake_sum = excluded.stake_sum, stake_squares = excluded.stake_squares, win_sum = excluded.win_sum,
         minutes_played = excluded.minutes_played, night_minutes = excluded.night_minutes, reality_checks_dismissed = excluded.reality_checks_dismissed
       returning player_id)
     insert into ${S}.harm_pending (player_id, operator_id, brand_id, environment, day, event_id, counted_at)
     select distinct on (player_id) player_id, operator_id, brand_id, environment, day, 'play:' || day, now()
       from sums where player_id in (select player_id from kept) order by player_id, day desc
     on conflict (player_id) do update set
       day = greatest(harm_pending.day, excluded.day), event_id = excluded.event_id, counted_at = excluded.counted_at
     returning player_id`,
    [changed.map((c) => c.player_id), changed.map((c) => c.day)],
  );
  return marked.length;
}

/** Where the next pass reads from (the hour before the last pass began); undefined before the first pass. */
export async function playReadFrom(sql: SqlRunner): Promise<Date | undefined> {
  const [row] = await sql.query<{ read_from: Date }>(`select read_from from ${S}.harm_play_read where id = 1`);
  return row ? new Date(row.read_from) : undefined;
}

/** A pass read everything up to now: the next one reads from `readFrom`. */
export async function passedPlayRead(sql: SqlRunner, readFrom: Date): Promise<void> {
  await sql.query(
    `insert into ${S}.harm_play_read (id, read_from, passed_at) values (1, ?, now())
     on conflict (id) do update set read_from = excluded.read_from, passed_at = excluded.passed_at`,
    [readFrom],
  );
}
