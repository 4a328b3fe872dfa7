// Writes double-entry ledger transactions in ONE statement: the transactions, their entries and
// the new balances of the locked player accounts. Postings on a locked account carry its next
// sequence number and balance after; postings on a clearing account are appended with neither
// (their balance is derived, accounts.ts). The deferred trigger still refuses an unbalanced
// transaction at commit.
import { newId, type LedgerType } from '@bo/contracts';
import { Money, addMoney, formatMoney, onlyRow, type SqlRunner } from '@bo/service-kit';
import { uuidv7 } from 'uuidv7';
import type { LockedAccount } from './accounts.ts';

/** A posting on a player account the caller has locked (`account` is updated in place). */
export interface LockedPosting {
  account: LockedAccount;
  amount: string;
}
/** A posting appended to a clearing account, by id: no lock, no running balance. */
export interface AppendedPosting {
  clearingAccountId: string;
  amount: string;
}
export type Posting = LockedPosting | AppendedPosting;

export interface PostedEntry {
  id: string;
  accountId: string;
  amount: string;
  balanceAfter: string | null;
}
export interface PostedTransaction {
  id: string;
  entries: PostedEntry[];
}

export interface NewTransaction {
  /** `deposit:<id>` / `withdrawal:<id>` / `game-round:<id>:bet|win`: unique, so one source is posted at most once. */
  source: string;
  type: LedgerType;
  brandId: string;
  currency: string;
  referenceId: string;
  postings: Posting[];
}

const isLocked = (p: Posting): p is LockedPosting => 'account' in p;

export async function postTransaction(tx: SqlRunner, t: NewTransaction): Promise<PostedTransaction> {
  return onlyRow(await postTransactions(tx, [t]));
}

/** A further insert of the caller's that belongs to the same statement (a round naming its entries). */
export interface AlsoInsert {
  cte: string;
  params: unknown[];
}

/** Posts several transactions (a round's BET and WIN) in one statement, in order. */
export async function postTransactions(
  tx: SqlRunner,
  ts: NewTransaction[],
  alsoFor?: (posted: PostedTransaction[]) => AlsoInsert,
): Promise<PostedTransaction[]> {
  const txRows: unknown[] = [];
  const entryRows: unknown[] = [];
  const balances = new Map<string, LockedAccount>();
  const posted: PostedTransaction[] = [];
  for (const t of ts) {
    const sum = t.postings.reduce((acc, p) => acc.plus(p.amount), new Money(0));
    if (!sum.isZero()) throw new Error(`postings of ${t.source} sum to ${sum.toFixed(2)}, not zero`);
    const id = `ltx_${uuidv7().replaceAll('-', '')}`;
    txRows.push(id, t.source, t.type, t.brandId, t.currency, t.referenceId);
    const entries: PostedEntry[] = [];
    for (const p of t.postings) {
      const amount = formatMoney(p.amount);
      const entryId = newId('ledgerEntry');
      if (isLocked(p)) {
        const balanceAfter = addMoney(p.account.available, amount);
        p.account.available = balanceAfter;
        p.account.entryCount += 1;
        balances.set(p.account.id, p.account);
        entryRows.push(entryId, id, p.account.id, p.account.entryCount, t.type, amount, balanceAfter, t.currency, t.referenceId);
        entries.push({ id: entryId, accountId: p.account.id, amount, balanceAfter });
      } else {
        entryRows.push(entryId, id, p.clearingAccountId, null, t.type, amount, null, t.currency, t.referenceId);
        entries.push({ id: entryId, accountId: p.clearingAccountId, amount, balanceAfter: null });
      }
    }
    posted.push({ id, entries });
  }
  const also = alsoFor?.(posted);
  const accountRows = [...balances.values()].flatMap((a) => [a.id, a.available, a.entryCount]);
  const rows = (n: number, cols: string) => Array.from({ length: n }, () => `(${cols})`).join(', ');
  // created_at is taken once, after the caller's account locks, so one account's entries are
  // time-ordered like its balance.
  await tx.query(
    `with now as materialized (select date_trunc('milliseconds', clock_timestamp()) as at),
     t as (insert into wallet.ledger_transactions (id, source, type, brand_id, currency, reference_id, created_at)
       select v.*, now.at from (values ${rows(ts.length, '?::text, ?::text, ?::text, ?::text, ?::text, ?::text')}) v, now returning 1),
     e as (insert into wallet.ledger_entries (id, transaction_id, account_id, account_seq, type, amount, balance_after, currency, reference_id, created_at)
       select v.*, now.at from (values ${rows(entryRows.length / 9, '?::text, ?::text, ?::text, ?::bigint, ?::text, ?::numeric, ?::numeric, ?::text, ?::text')}) v, now returning 1)
     ${
       accountRows.length > 0
         ? `, bal as (update wallet.accounts a set available = v.available, entry_count = v.seq, updated_at = now()
       from (values ${rows(balances.size, '?::text, ?::numeric, ?::bigint')}) v(id, available, seq) where a.id = v.id returning 1)`
         : ''
     }
     ${also ? `, also as (${also.cte})` : ''}
     select 1`,
    [...txRows, ...entryRows, ...accountRows, ...(also?.params ?? [])],
  );
  return posted;
}

/** The entries a source already posted (the answer to a repeated command), or none. */
export async function findPostedEntries(tx: SqlRunner, source: string): Promise<{ id: string; accountId: string; amount: string }[]> {
  return tx.query<{ id: string; accountId: string; amount: string }>(
    `select e.id, e.account_id as "accountId", e.amount from wallet.ledger_entries e
     join wallet.ledger_transactions t on t.id = e.transaction_id where t.source = ?`,
    [source],
  );
}
