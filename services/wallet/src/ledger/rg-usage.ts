// A player's responsible-gaming usage as the wallet counts it (docs/responsible-gaming.md): what
// real-money rounds staked and lost net, and the time played, in wallet.rg_usage by UTC hour.
// Money usage is written by the round's own statement (game-round.ts); time by the activity of
// the game page (games/handlers/activity.ts). A period (calendar day, week Monday to Sunday,
// calendar month in the operator's time zone) is the range of hours it covers.
import type { LimitPeriod } from '@bo/contracts';
import { onlyRow, type SqlRunner } from '@bo/service-kit';

export interface RoundUsage {
  wagered: Record<LimitPeriod, string>;
  netLoss: Record<LimitPeriod, string>;
  seconds: Record<LimitPeriod, number>;
  resetsAt: Record<LimitPeriod, string>;
}

/** Statement parts run before the read, in the same statement (their writes are not seen by it). */
export interface FirstParts {
  ctes: string;
  params: unknown[];
}

/** The account's usage of the current day, week and month at `now` in `timeZone`, with each period's end. */
export async function periodUsage(sql: SqlRunner, accountId: string, timeZone: string, now: Date, first?: FirstParts): Promise<RoundUsage> {
  const sums = (column: string) =>
    (['day', 'week', 'month'] as const)
      .map((p) => `coalesce(sum(u.${column}) filter (where u.hour >= b.${p} and u.hour < b.${p}_end), 0) as ${column}_${p}`)
      .join(', ');
  const row = onlyRow(
    await sql.query<Record<string, string | number | Date>>(
      `with ${first ? `${first.ctes},` : ''} n as (select ?::timestamptz at time zone ? as l, ?::text as z),
       b as (select date_trunc('day', l) at time zone z as day, date_trunc('week', l) at time zone z as week, date_trunc('month', l) at time zone z as month,
                    (date_trunc('day', l) + interval '1 day') at time zone z as day_end,
                    (date_trunc('week', l) + interval '1 week') at time zone z as week_end,
                    (date_trunc('month', l) + interval '1 month') at time zone z as month_end from n)
       select ${sums('wagered')}, ${sums('net_loss')}, ${sums('seconds_played')}, b.day_end, b.week_end, b.month_end
       from b left join wallet.rg_usage u on u.account_id = ? and u.hour >= least(b.day, b.week, b.month)
       group by b.day_end, b.week_end, b.month_end`,
      [...(first?.params ?? []), now, timeZone, timeZone, accountId],
    ),
  );
  const per = <T>(f: (p: LimitPeriod) => T) => ({ day: f('day'), week: f('week'), month: f('month') });
  return {
    wagered: per((p) => String(row[`wagered_${p}`])),
    netLoss: per((p) => String(row[`net_loss_${p}`])),
    seconds: per((p) => Number(row[`seconds_played_${p}`])),
    resetsAt: per((p) => new Date(row[`${p}_end`] as Date).toISOString()),
  };
}

/**
 * verifyLedger's sibling check: every account's usage by hour recomputed from its real-money
 * rounds (stake, stake − payout); the hours where the two differ.
 */
export async function usageDrift(tx: SqlRunner): Promise<{ account_id: string; hour: Date; stored: string; computed: string }[]> {
  return tx.query(
    `with r as (select e.account_id, date_trunc('hour', g.created_at, 'UTC') as hour, sum(g.amount) as wagered, sum(g.amount - g.payout) as net_loss
                from wallet.game_rounds g join wallet.ledger_entries e on e.id = g.bet_entry_id group by 1, 2)
     select coalesce(u.account_id, r.account_id) as account_id, coalesce(u.hour, r.hour) as hour,
            coalesce(u.wagered, 0) || '/' || coalesce(u.net_loss, 0) as stored, coalesce(r.wagered, 0) || '/' || coalesce(r.net_loss, 0) as computed
     from (select * from wallet.rg_usage where wagered <> 0 or net_loss <> 0) u full join r on r.account_id = u.account_id and r.hour = u.hour
     where coalesce(u.wagered, 0) <> coalesce(r.wagered, 0) or coalesce(u.net_loss, 0) <> coalesce(r.net_loss, 0)`,
  );
}
