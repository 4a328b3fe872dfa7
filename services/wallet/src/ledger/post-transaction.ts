// Writes one double-entry ledger transaction: postings on locked accounts that sum to zero,
// each entry with its balance after and its place in the account's sequence.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, type LedgerType } from '@bo/contracts';
import { Money, addMoney, formatMoney } from '@bo/service-kit';
import { uuidv7 } from 'uuidv7';
import type { LockedAccount } from './accounts.ts';

export interface Posting { account: LockedAccount; amount: string }

export interface PostedTransaction { id: string; entries: { id: string; accountId: string; amount: string; balanceAfter: string }[] }

export interface NewTransaction {
  /** `deposit:<id>` / `withdrawal:<id>` / `game-round:<id>:bet|win`: unique, so one source is posted at most once. */
  source: string;
  type: LedgerType;
  brandId: string;
  currency: string;
  referenceId: string;
  postings: Posting[];
}

export async function postTransaction(tx: EntityManager, t: NewTransaction): Promise<PostedTransaction> {
  const sum = t.postings.reduce((acc, p) => acc.plus(p.amount), new Money(0));
  if (!sum.isZero()) throw new Error(`postings of ${t.source} sum to ${sum.toFixed(2)}, not zero`);
  // Taken after the account locks, so one account's entries are time-ordered like its balance.
  const [{ at }] = await tx.execute<{ at: Date }[]>(`select date_trunc('milliseconds', clock_timestamp()) as at`);
  const id = `ltx_${uuidv7().replaceAll('-', '')}`;
  await tx.execute(
    'insert into wallet.ledger_transactions (id, source, type, brand_id, currency, reference_id, created_at) values (?, ?, ?, ?, ?, ?, ?)',
    [id, t.source, t.type, t.brandId, t.currency, t.referenceId, at]);
  const entries: PostedTransaction['entries'] = [];
  for (const p of t.postings) {
    const balanceAfter = addMoney(p.account.available, p.amount);
    const seq = p.account.entryCount + 1;
    const entryId = newId('ledgerEntry');
    await tx.execute(
      `insert into wallet.ledger_entries (id, transaction_id, account_id, account_seq, type, amount, balance_after, currency, reference_id, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [entryId, id, p.account.id, seq, t.type, formatMoney(p.amount), balanceAfter, t.currency, t.referenceId, at]);
    await tx.execute('update wallet.accounts set available = ?, entry_count = ?, updated_at = now() where id = ?', [balanceAfter, seq, p.account.id]);
    p.account.available = balanceAfter;
    p.account.entryCount = seq;
    entries.push({ id: entryId, accountId: p.account.id, amount: formatMoney(p.amount), balanceAfter });
  }
  return { id, entries };
}

/** The entries a source already posted (the answer to a repeated command), or none. */
export async function findPostedEntries(tx: EntityManager, source: string): Promise<{ id: string; accountId: string; amount: string }[]> {
  return tx.execute<{ id: string; accountId: string; amount: string }[]>(
    `select e.id, e.account_id as "accountId", e.amount from wallet.ledger_entries e
     join wallet.ledger_transactions t on t.id = e.transaction_id where t.source = ?`, [source]);
}
