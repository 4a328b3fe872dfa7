// Read side of the ledger: a player's balances (and what a bet can stake) and entries.
import type { LedgerItem, Wallet } from '@bo/contracts';
import { formatMoney, subMoney, type ListPosition, type SqlRunner } from '@bo/service-kit';
import { playerAccountId } from '../domain/account-ids.ts';

export async function readWallet(sql: SqlRunner, brandId: string, playerId: string, currency: string): Promise<Wallet> {
  const rows = await sql.query<{ available: string; held: string }>('select available, held from wallet.accounts where id = ?', [
    playerAccountId(brandId, playerId, currency),
  ]);
  const available = rows[0]?.available ?? '0';
  const held = rows[0]?.held ?? '0';
  // `held` is the sum of the open holds (verifyLedger checks it), so this is available − open holds.
  return { playerId, currency, available: formatMoney(available), withdrawable: subMoney(available, held) };
}

/** What a player can stake now: `available − held` (0.00 without an account). */
export async function stakeableNow(sql: SqlRunner, brandId: string, playerId: string, currency: string): Promise<string> {
  const [row] = await sql.query<{ stakeable: string }>('select available - held as stakeable from wallet.accounts where id = ?', [
    playerAccountId(brandId, playerId, currency),
  ]);
  return formatMoney(row?.stakeable ?? '0');
}

interface EntryRow {
  id: string;
  type: string;
  amount: string;
  balance_after: string;
  currency: string;
  reference_id: string;
  created_at: Date | string;
}

/** Newest first, ties by id; `limit + 1` rows are read to know whether another page exists. */
export async function readEntries(
  sql: SqlRunner,
  brandId: string,
  playerId: string,
  limit: number,
  after?: ListPosition,
): Promise<{ items: LedgerItem[]; more: boolean }> {
  const params: unknown[] = [brandId, playerId];
  let where = '';
  if (after) {
    where = 'and (e.created_at, e.id) < (?::timestamptz, ?)';
    params.push(after.at, after.id);
  }
  params.push(limit + 1);
  const rows = await sql.query<EntryRow>(
    `select e.id, e.type, e.amount, e.balance_after, e.currency, e.reference_id, e.created_at
     from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id
     where a.kind = 'player' and a.brand_id = ? and a.player_id = ? ${where}
     order by e.created_at desc, e.id desc limit ?`,
    params,
  );
  const items = rows.slice(0, limit).map(
    (r): LedgerItem => ({
      id: r.id,
      type: r.type,
      amount: formatMoney(r.amount),
      balanceAfter: formatMoney(r.balance_after),
      currency: r.currency,
      referenceId: r.reference_id,
      createdAt: new Date(r.created_at).toISOString(),
    }),
  );
  return { items, more: rows.length > limit };
}
