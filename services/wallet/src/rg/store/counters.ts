// Responsible gaming's counters on the player's account row (docs/responsible-gaming.md, "How a
// round is checked"): the usage of the current day, week and month, each with the range of time
// it covers, and the player's last play activity. A round of a player with limits checks them in
// its own statement (games/store/game-round.ts), on the row its UPDATE locks: a round that waited
// for the lock is checked against the row as the rounds before it left it, and the check, the
// money and the usage commit together. wallet.rg_usage (usage.ts) stays the record: the counters are seeded
// from it whenever they are not of the current periods (a new day, a new time zone, or rounds
// played while the player had no limits, which leave them uncounted), and verifyLedger checks the
// two agree.
//
// Time played comes from the game pages' activity (rounds and heartbeats): each activity counts
// the seconds since the player's previous one, when that is at most PLAY_IDLE_SECONDS (an idle
// player stops counting), into the hour it happens in (wallet.rg_gap).
// The counters are columns of the ledger's account row (wallet.accounts.rg_*), written only here
// and by the round's statement with the parts built here.
import type { LimitPeriod } from '@bo/contracts';
import { Money, type SqlRunner } from '@bo/service-kit';
import type { RoundLimits, RoundUsage } from '../domain/round-limits.ts';
import { parseUsage, usageQuery } from './usage.ts';

const PERIODS: readonly LimitPeriod[] = ['day', 'week', 'month'];

/** A piece of SQL and its parameters, in the order of its `?`s (the ledger writer's `alsoSet`/`onlyIf`). */
interface SqlPart {
  text: string;
  params: unknown[];
}

/** A round played while the player has no limits leaves the counters uncounted: seeded afresh before they are used again. */
export const UNCOUNTED: SqlPart = { text: ', rg_day = null, rg_week = null, rg_month = null', params: [] };

/** The seconds an activity at `at` counts, on the account row being updated (its values before the update). */
const gap = (at: Date): SqlPart => ({ text: 'wallet.rg_gap(rg_last_activity_at, ?::timestamptz)', params: [at] });

/** `parts` joined, their texts by `sep` and their params in order. */
function join(parts: SqlPart[], sep = ''): SqlPart {
  return { text: parts.map((p) => p.text).join(sep), params: parts.flatMap((p) => p.params) };
}

/** The activity's own columns: the player's last activity moves on, and the seconds it counted. */
const activitySet = (at: Date): SqlPart =>
  join([
    { text: ', rg_last_activity_at = greatest(coalesce(rg_last_activity_at, ?::timestamptz), ?::timestamptz), rg_gap_seconds = ', params: [at, at] },
    gap(at),
  ]);

/**
 * A guarded round's parts of the player-row UPDATE: it sets the activity and adds the stake, the
 * net loss and the seconds to each period's counters; it holds only when the counters are of the
 * current periods and every limit holds with this round. `a` returns `rg_gap_seconds`.
 */
export function roundCounterParts(limits: RoundLimits, at: Date, stake: string, netLoss: string): { set: SqlPart; onlyIf: SqlPart; returns: string } {
  const set = join([
    activitySet(at),
    ...PERIODS.map((p) =>
      join([
        {
          text: `, rg_${p}_wagered = rg_${p}_wagered + ?::numeric, rg_${p}_net_loss = rg_${p}_net_loss + ?::numeric, rg_${p}_seconds = rg_${p}_seconds + `,
          params: [stake, netLoss],
        },
        gap(at),
      ]),
    ),
  ]);
  // A time limit is reached once its whole minutes are played: the round passes while the seconds are fewer.
  const onlyIf = join(
    [
      ...PERIODS.map((p) => ({ text: `and rg_${p} = wallet.rg_period('${p}', ?::timestamptz, ?::text)`, params: [at, limits.timeZone] })),
      ...PERIODS.flatMap((p) => [
        { text: `and rg_${p}_wagered + ?::numeric <= coalesce(?::numeric, 'Infinity')`, params: [stake, limits.wager[p]] },
        { text: `and rg_${p}_net_loss + ?::numeric <= coalesce(?::numeric, 'Infinity')`, params: [stake, limits.loss[p]] },
        join([{ text: `and rg_${p}_seconds + `, params: [] }, gap(at), { text: ' < coalesce(?::bigint * 60, 9223372036854775807)', params: [limits.time[p]] }]),
      ]),
    ],
    '\n                  ',
  );
  return { set, onlyIf, returns: ', rg_gap_seconds' };
}

/**
 * A money move after its bet (a provider's win, a rollback, a correction) on the player-row UPDATE:
 * the deltas are added to each period's counters that hold `at`; counters of other periods are left
 * as they are (they are seeded afresh before a round uses them). No limit is checked: money owed to
 * a player is always paid.
 */
export function creditCounterParts(at: Date, wageredDelta: string, netLossDelta: string): SqlPart {
  return join(
    PERIODS.map((p) => ({
      text: `, rg_${p}_wagered = case when rg_${p} @> ?::timestamptz then rg_${p}_wagered + ?::numeric else rg_${p}_wagered end, rg_${p}_net_loss = case when rg_${p} @> ?::timestamptz then rg_${p}_net_loss + ?::numeric else rg_${p}_net_loss end`,
      params: [at, wageredDelta, at, netLossDelta],
    })),
  );
}

/**
 * The CTE that adds a money move to the player's usage of its hour (wallet.rg_usage), in the
 * posting's own statement so usage and money commit together; `a` is the updated account row.
 * `seconds`: the SQL of the seconds the move counts (`a.rg_gap_seconds` for a counted activity, `0`).
 */
export function usageUpsert(name: string, at: Date, wagered: string, netLoss: string, seconds: 'a.rg_gap_seconds' | '0', a = 'a'): SqlPart {
  // A stake is a bet (a win or a correction stakes nothing): counted with its square, for the harm days' spread of stakes.
  const bets = new Money(wagered).gt(0) ? 1 : 0;
  return {
    text: `${name} as (insert into wallet.rg_usage (account_id, hour, wagered, net_loss, seconds_played, bets, stake_squares)
           select a.id, date_trunc('hour', ?::timestamptz, 'UTC'), ?::numeric, ?::numeric, ${seconds}, ${bets}, ?::numeric from ${a}
           on conflict (account_id, hour) do update
             set wagered = wallet.rg_usage.wagered + excluded.wagered, net_loss = wallet.rg_usage.net_loss + excluded.net_loss,
                 seconds_played = wallet.rg_usage.seconds_played + excluded.seconds_played,
                 bets = wallet.rg_usage.bets + excluded.bets, stake_squares = wallet.rg_usage.stake_squares + excluded.stake_squares
           returning 1)`,
    params: [at, wagered, netLoss, bets ? squared(wagered) : '0'],
  };
}

/** A stake squared, exactly (NUMERIC in the statement: no float). */
const squared = (amount: string) => new Money(amount).times(amount).toFixed();

/**
 * The CTE that takes an undone stake back out of the usage of the hour it was added to (a
 * provider's rollback, at its bet's time): an UPDATE, since that hour's row holds the stake (an
 * insert of a negative stake would fail the row's check before it met the row). `onlyIf`: a
 * condition of the statement's (SQL) the undo also needs (a provider's rollback: that it took its bet).
 */
export function usageUndo(name: string, at: Date, wagered: string, netLoss: string, onlyIf?: string): SqlPart {
  // An undone stake (wagered < 0) takes its bet and its square back out with it.
  const undone = new Money(wagered).lt(0);
  return {
    text: `${name} as (update wallet.rg_usage u set wagered = u.wagered + ?::numeric, net_loss = u.net_loss + ?::numeric,
             bets = greatest(u.bets - ${undone ? 1 : 0}, 0), stake_squares = greatest(u.stake_squares - ?::numeric, 0)
           from a where u.account_id = a.id and u.hour = date_trunc('hour', ?::timestamptz, 'UTC')${onlyIf ? ` and ${onlyIf}` : ''}
           returning 1)`,
    params: [wagered, netLoss, undone ? squared(wagered) : '0', at],
  };
}

/**
 * Counts a reality check the player acknowledged to play on in the hour's usage (the harm markers'
 * `reality_checks_dismissed`, issue #68); nothing without an account.
 */
export async function recordRealityCheck(sql: SqlRunner, accountId: string, at: Date): Promise<void> {
  await sql.query(
    `insert into wallet.rg_usage (account_id, hour, reality_checks)
     select id, date_trunc('hour', ?::timestamptz, 'UTC'), 1 from wallet.accounts where id = ?
     on conflict (account_id, hour) do update set reality_checks = wallet.rg_usage.reality_checks + 1`,
    [at, accountId],
  );
}

/**
 * Counts the player's activity at `at` (a heartbeat, or a round before its checks): one statement
 * that locks the account row, moves the last activity on and adds the seconds to wallet.rg_usage
 * and to the counters whose period holds `at`. The seconds counted; undefined without an account.
 */
export async function recordActivity(sql: SqlRunner, accountId: string, at: Date): Promise<number | undefined> {
  const counters = PERIODS.map((p) =>
    join([
      { text: `, rg_${p}_seconds = case when rg_${p} @> ?::timestamptz then rg_${p}_seconds + `, params: [at] },
      gap(at),
      { text: ` else rg_${p}_seconds end`, params: [] },
    ]),
  );
  const set = join([activitySet(at), ...counters]);
  const [row] = await sql.query<{ seconds: number }>(
    `with a as (update wallet.accounts set updated_at = updated_at${set.text} where id = ? returning id, rg_gap_seconds),
     u as (insert into wallet.rg_usage (account_id, hour, seconds_played)
           select id, date_trunc('hour', ?::timestamptz, 'UTC'), rg_gap_seconds from a where rg_gap_seconds > 0
           on conflict (account_id, hour) do update set seconds_played = wallet.rg_usage.seconds_played + excluded.seconds_played
           returning 1)
     select rg_gap_seconds as seconds from a`,
    [...set.params, accountId, at],
  );
  return row?.seconds;
}

/**
 * Seeds the account's counters with its usage of the periods holding `now` (as wallet.rg_usage
 * has it, this transaction's writes included) and returns that usage. The caller holds the row.
 */
export async function seedCounters(tx: SqlRunner, accountId: string, timeZone: string, now: Date): Promise<RoundUsage> {
  const usage = usageQuery(accountId, timeZone, now);
  const set = PERIODS.map(
    (p) => `rg_${p} = s.${p}, rg_${p}_wagered = s.wagered_${p}, rg_${p}_net_loss = s.net_loss_${p}, rg_${p}_seconds = s.seconds_played_${p}`,
  );
  const [row] = await tx.query<Record<string, unknown>>(`update wallet.accounts set ${set.join(', ')} from (${usage.text}) s where id = ? returning s.*`, [
    ...usage.params,
    accountId,
  ]);
  if (!row) throw new Error(`no account ${accountId}`);
  return parseUsage(row);
}

/** verifyLedger's check of the counters: each counted period's counters against wallet.rg_usage over its range; the ones that differ. */
export async function counterDrift(tx: SqlRunner): Promise<{ account_id: string; period: string; stored: string; computed: string }[]> {
  const periods = PERIODS.map((p) => `('${p}', a.rg_${p}, a.rg_${p}_wagered, a.rg_${p}_net_loss, a.rg_${p}_seconds)`).join(', ');
  return tx.query(
    `select a.id as account_id, p.period, p.wagered || '/' || p.net_loss || '/' || p.seconds as stored, c.wagered || '/' || c.net_loss || '/' || c.seconds as computed
     from wallet.accounts a
     cross join lateral (values ${periods}) p(period, range, wagered, net_loss, seconds)
     cross join lateral (select coalesce(sum(u.wagered), 0) as wagered, coalesce(sum(u.net_loss), 0) as net_loss, coalesce(sum(u.seconds_played), 0) as seconds
                         from wallet.rg_usage u where u.account_id = a.id and u.hour <@ p.range) c
     where a.kind = 'player' and p.range is not null
       and (p.wagered, p.net_loss, p.seconds) is distinct from (c.wagered, c.net_loss, c.seconds)`,
  );
}
