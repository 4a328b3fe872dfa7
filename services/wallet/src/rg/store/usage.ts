// A player's responsible-gaming usage as the wallet counts it (docs/responsible-gaming.md): what
// real-money rounds staked and lost net, and the time played, in wallet.rg_usage by UTC hour.
// Money usage is written by the round's own statement (games/store/game-round.ts); time by the
// activity of the game page (counters.ts, which also keeps the current periods' counters on the
// account row). A period (calendar day, week Monday to Sunday, calendar month in the operator's time
// zone) is the range of hours it covers (wallet.rg_period).
import type { LimitPeriod } from '@bo/contracts';
import { onlyRow, type SqlRunner } from '@bo/service-kit';
import type { RoundUsage } from '../domain/round-limits.ts';

/** Where usage is read from: real money's record, or demo play's (sandbox, demo-usage.ts). */
export type UsageTable = 'wallet.rg_usage' | 'wallet.rg_demo_usage';

/**
 * The account's usage of the periods holding `now` in `timeZone`, as a query: per period its range
 * (`day`, `week`, `month`, from wallet.rg_period), its end (`day_end` …) and its sums (`wagered_day`,
 * `net_loss_day`, `seconds_played_day` …).
 */
export function usageQuery(accountId: string, timeZone: string, now: Date, table: UsageTable = 'wallet.rg_usage'): { text: string; params: unknown[] } {
  const sums = (column: string) =>
    (['day', 'week', 'month'] as const).map((p) => `coalesce(sum(u.${column}) filter (where u.hour <@ b.${p}), 0) as ${column}_${p}`).join(', ');
  return {
    text: `select ${sums('wagered')}, ${sums('net_loss')}, ${sums('seconds_played')}, b.day, b.week, b.month,
                  upper(b.day) as day_end, upper(b.week) as week_end, upper(b.month) as month_end
           from (select wallet.rg_period('day', n.at, n.z) as day, wallet.rg_period('week', n.at, n.z) as week, wallet.rg_period('month', n.at, n.z) as month
                 from (select ?::timestamptz as at, ?::text as z) n) b
           left join ${table} u on u.account_id = ? and u.hour >= least(lower(b.day), lower(b.week), lower(b.month))
           group by b.day, b.week, b.month`,
    params: [now, timeZone, accountId],
  };
}

/** A row of usageQuery as usage. */
export function parseUsage(row: Record<string, unknown>): RoundUsage {
  const per = <T>(f: (p: LimitPeriod) => T) => ({ day: f('day'), week: f('week'), month: f('month') });
  return {
    wagered: per((p) => String(row[`wagered_${p}`])),
    netLoss: per((p) => String(row[`net_loss_${p}`])),
    seconds: per((p) => Number(row[`seconds_played_${p}`])),
    resetsAt: per((p) => new Date(row[`${p}_end`] as Date).toISOString()),
  };
}

/** The account's usage of the current day, week and month at `now` in `timeZone`, with each period's end (demo play's with `wallet.rg_demo_usage`). */
export async function periodUsage(sql: SqlRunner, accountId: string, timeZone: string, now: Date, table?: UsageTable): Promise<RoundUsage> {
  const q = usageQuery(accountId, timeZone, now, table);
  return parseUsage(onlyRow(await sql.query<Record<string, unknown>>(q.text, q.params)));
}

/** The ids of the player's accounts of the brand (one per currency), whose usage the players service asks for. */
export async function playerAccountIdsOf(sql: SqlRunner, brandId: string, playerId: string): Promise<string[]> {
  const rows = await sql.query<{ id: string }>("select id from wallet.accounts where kind = 'player' and brand_id = ? and player_id = ?", [brandId, playerId]);
  return rows.map((r) => r.id);
}

/**
 * verifyLedger's sibling check: every account's usage by hour recomputed from its real-money
 * rounds (stake, stake − payout, a bet and its stake squared) and its providers' transactions; the
 * hours where the two differ.
 */
export async function usageDrift(tx: SqlRunner): Promise<{ account_id: string; hour: Date; stored: string; computed: string }[]> {
  const stored = (t: string) =>
    `coalesce(${t}.wagered, 0) || '/' || coalesce(${t}.net_loss, 0) || '/' || coalesce(${t}.bets, 0) || '/' || coalesce(${t}.stake_squares, 0)`;
  return tx.query(
    `with m as (select e.account_id, date_trunc('hour', g.created_at, 'UTC') as hour, g.amount as wagered, g.amount - g.payout as net_loss
                  from wallet.game_rounds g join wallet.ledger_entries e on e.id = g.bet_entry_id
                  union all
                  -- A provider's bet stakes what it moved; its rollback takes the stake back; every move counts, negated, as net loss.
                  -- (a rollback counts in its bet's hour, where the bet counted).
                  select e.account_id, date_trunc('hour', coalesce(b.created_at, e.created_at), 'UTC'),
                         case p.kind when 'bet' then -p.moved when 'rollback' then -p.moved else 0 end, -p.moved
                  from wallet.provider_transactions p join wallet.ledger_entries e on e.id = p.entry_id
                  left join wallet.provider_transactions b on p.kind = 'rollback' and b.provider_id = p.provider_id and b.transaction_id = p.bet_transaction_id),
     -- A stake is a bet with its square; an undone stake (negative) takes both back.
     r as (select account_id, hour, sum(wagered) as wagered, sum(net_loss) as net_loss, sum(sign(wagered))::int as bets, sum(sign(wagered) * wagered * wagered) as stake_squares
             from m group by 1, 2)
     select coalesce(u.account_id, r.account_id) as account_id, coalesce(u.hour, r.hour) as hour, ${stored('u')} as stored, ${stored('r')} as computed
     from (select * from wallet.rg_usage where wagered <> 0 or net_loss <> 0 or bets <> 0) u full join r on r.account_id = u.account_id and r.hour = u.hour
     where coalesce(u.wagered, 0) <> coalesce(r.wagered, 0) or coalesce(u.net_loss, 0) <> coalesce(r.net_loss, 0)
        or coalesce(u.bets, 0) <> coalesce(r.bets, 0) or coalesce(u.stake_squares, 0) <> coalesce(r.stake_squares, 0)`,
  );
}
