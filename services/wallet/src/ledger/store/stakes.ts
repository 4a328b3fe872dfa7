// wallet.stakes (the AML watch's "in and out with little play" rule, services/compliance): what a
// player staked in a time window, the sum of their BET entries as a positive amount: our own
// rounds' and third-party providers' bets alike (both post BET). A provider bet rolled back
// (its ROLLBACK entry) was no play: it is taken off. One range read on the entries' (account,
// time) index; no event per round is needed for it.
import type { WalletLargestWin, WalletStakesRequest } from '@bo/contracts';
import { formatMoney, isoTime, onlyRow, type SqlRunner } from '@bo/service-kit';

export async function stakesInWindow(sql: SqlRunner, q: WalletStakesRequest): Promise<string> {
  const row = onlyRow(
    await sql.query<{ stakes: string }>(
      `select greatest(coalesce(-sum(e.amount), 0), 0)::text as stakes from wallet.ledger_entries e
       where e.account_id in (select a.id from wallet.accounts a where a.kind = 'player' and a.brand_id = ? and a.player_id = ?)
         and e.type in ('BET', 'ROLLBACK') and e.created_at > ? and e.created_at <= ?`,
      [q.brandId, q.playerId, q.from, q.to],
    ),
  );
  return formatMoney(row.stakes);
}

/**
 * The player's largest single win in the window (a WIN entry: our rounds' payouts and third-party
 * providers' wins alike), for the watch's "large win cashed out" check (docs/aml.md); null without one.
 */
export async function largestWinInWindow(sql: SqlRunner, q: WalletStakesRequest): Promise<WalletLargestWin | null> {
  const [row] = await sql.query<{ amount: string; reference_id: string; created_at: string | Date }>(
    `select e.amount::text as amount, e.reference_id, e.created_at from wallet.ledger_entries e
     where e.account_id in (select a.id from wallet.accounts a where a.kind = 'player' and a.brand_id = ? and a.player_id = ?)
       and e.type = 'WIN' and e.created_at > ? and e.created_at <= ?
     order by e.amount desc, e.created_at limit 1`,
    [q.brandId, q.playerId, q.from, q.to],
  );
  return row ? { amount: formatMoney(row.amount), referenceId: row.reference_id, at: isoTime(row.created_at) } : null;
}
