// The background roll-up of the append-only clearing accounts (docs/money.md, "Hot accounts"):
// adds the entries written since the last roll-up to the clearing accounts' stored balances, in
// one statement. "Since" is by the writing transaction's id: every transaction below the
// snapshot's xmin has finished, so each committed entry is added exactly once, whatever order
// transactions commit in. Replicas take turns on the watermark row (skip locked).
import { onlyRow, startLoop, type BackgroundTask, type ServiceDeps, type SqlRunner } from '@bo/service-kit';

/** Rolls up what is final; returns how many clearing accounts moved. */
export async function rollUpClearing(sql: SqlRunner): Promise<number> {
  const { accounts } = onlyRow(
    await sql.query<{ accounts: number }>(
      `with w as (select through_xid from wallet.clearing_rollup for update skip locked),
     s as (select pg_snapshot_xmin(pg_current_snapshot()) as upto),
     d as (select e.account_id, sum(e.amount) as delta from wallet.ledger_entries e, w, s
           where e.account_seq is null and e.posted_xid >= w.through_xid and e.posted_xid < s.upto group by e.account_id),
     u as (update wallet.accounts a set available = a.available + d.delta, updated_at = now() from d where a.id = d.account_id returning 1),
     m as (update wallet.clearing_rollup r set through_xid = s.upto, rolled_at = now() from w, s where s.upto > w.through_xid returning 1)
     select (select count(*) from u)::int as accounts, (select count(*) from m)::int as moved`,
    ),
  );
  return accounts;
}

export function startClearingRollup(deps: Pick<ServiceDeps, 'sql' | 'log'>, intervalMs = 1000): BackgroundTask {
  const loop = startLoop({
    name: 'clearing roll-up',
    intervalMs,
    log: deps.log,
    startNow: false,
    run: async () => {
      await rollUpClearing(deps.sql);
    },
  });
  return { name: 'clearing roll-up', stop: loop.stop, problem: loop.problem };
}
