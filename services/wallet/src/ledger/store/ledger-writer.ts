// The one writer of the ledger: every INSERT into wallet.ledger_transactions and
// wallet.ledger_entries, and the player balance updates that go with them, is built here. Each
// posting set is ONE statement (docs/money.md, "Statements and commits"), in one of two forms:
// - `postOnPlayerRow` (a deposit's credit, a real-money round): the statement is its own
//   transaction. Its first CTE updates the player's row, which takes the row lock and checks, on
//   the row it locked, the caller's conditions; the transactions and entries take their sequence
//   numbers, balances after and time from the row it returns, and the caller's own CTEs (the
//   round row) read it too. Nothing is written when the update matched no row.
// - `postTransactions` (a capture): inside the caller's transaction, over player accounts it has
//   locked with `select … for update`, whose new balances it computes and stores.
// Postings on a clearing account are appended with neither sequence number nor balance after
// (their balance is derived, accounts.ts); the deferred trigger still refuses an unbalanced
// transaction at commit.
import { newId, type LedgerType } from '@bo/contracts';
import { Money, addMoney, formatMoney, onlyRow, subMoney, type SqlRunner, type StatementPart } from '@bo/service-kit';
import { uuidv7 } from 'uuidv7';
import type { LockedAccount } from './accounts.ts';

const TRANSACTION_COLUMNS = 'id, source, type, brand_id, currency, reference_id, created_at';
const ENTRY_COLUMNS = 'id, transaction_id, account_id, account_seq, type, amount, balance_after, currency, reference_id, created_at';

const newTransactionId = () => `ltx_${uuidv7().replaceAll('-', '')}`;
/** `n` rows of `cols` for a `values` list. */
const rows = (n: number, cols: string) => Array.from({ length: n }, () => `(${cols})`).join(', ');

/** A piece of SQL and its parameters, in the order of its `?`s. */
export interface SqlPart {
  text: string;
  params: unknown[];
}

// ---- one statement over the player's row -------------------------------------------------------

/** A transaction between the player's account and a clearing account: the player moves by `amount`, the clearing account by −amount. */
export interface PlayerRowTransaction {
  /** `deposit:<id>` / `game-round:<id>:bet|win`: unique, so one source is posted at most once. */
  source: string;
  type: LedgerType;
  /** Signed, for the player: `+` a credit, `−` a debit. */
  amount: string;
  clearingAccountId: string;
}

export interface PlayerRowPosting {
  accountId: string;
  brandId: string;
  currency: string;
  referenceId: string;
  /** Posted in order, each with the next sequence number of the player's account. */
  transactions: PlayerRowTransaction[];
  /** Write nothing when the first transaction's source is posted already (checked on the locked row). */
  unlessPosted?: boolean;
  /** Further columns of the player's row to set, `, col = …` (read the row's values before the update). */
  alsoSet?: SqlPart;
  /** Further conditions on the player's row, `and …`, checked on the row the update locked. */
  onlyIf?: SqlPart;
  /** Further columns `a` returns for the caller's CTEs (`, col`). */
  alsoReturns?: string;
  /**
   * The caller's own CTEs after the posting's (`name as (…), …`); they may read the updated row
   * through `names.a` (in FROM: `a` alone, `a_3 as a` in a group commit's part) and name their
   * own CTEs with `names.suffix`.
   */
  alsoWith?: (posted: PlayerRowPosted[], names: { a: string; suffix: string }) => SqlPart;
  /** What the statement returns, from `a` (`a.available, a.held`). */
  returning: string;
}

export interface PlayerRowPosted {
  transactionId: string;
  playerEntryId: string;
  clearingEntryId: string;
}

/**
 * Posts the transactions on the player's row in one statement; the row is what `returning` asked
 * for, undefined when nothing was written (no account, or a condition did not hold on the row).
 */
export async function postOnPlayerRow<R extends Record<string, unknown>>(
  sql: SqlRunner,
  p: PlayerRowPosting,
): Promise<{ row: R | undefined; posted: PlayerRowPosted[] }> {
  const { ctes, params, posted } = playerRowCtes(p, '');
  const found = await sql.query<R>(`with ${ctes}\n     select ${p.returning} from a`, params);
  return { row: found[0], posted };
}

/**
 * The same posting as a group commit's part (the kit's statement-group.ts), its CTEs (and the
 * caller's, through `alsoWith`'s names) named with `suffix`; its row is what `returning` asked for.
 */
export function playerRowPart(p: PlayerRowPosting, suffix: string): { part: StatementPart; posted: PlayerRowPosted[] } {
  const { ctes, params, posted } = playerRowCtes(p, suffix);
  return { part: { ctes, params, select: `${p.returning} from a${suffix} as a` }, posted };
}

/** The posting's CTEs (`a`, `t`, `e` and the caller's, each name + `s`) and their parameters. */
function playerRowCtes(p: PlayerRowPosting, s: string): { ctes: string; params: unknown[]; posted: PlayerRowPosted[] } {
  const a = s ? `a${s} as a` : 'a';
  const n = p.transactions.length;
  const posted = p.transactions.map(() => ({ transactionId: newTransactionId(), playerEntryId: newId('ledgerEntry'), clearingEntryId: newId('ledgerEntry') }));
  const amounts = p.transactions.map((t) => formatMoney(t.amount));
  const net = amounts.reduce((acc, a) => acc.plus(a), new Money(0));
  // The player's balance after transaction i is the final balance less what the later ones moved.
  const laterMoves: string[] = [];
  let later = new Money(0);
  for (let i = n - 1; i >= 0; i--) {
    laterMoves[i] = formatMoney(later);
    later = later.plus(amounts[i]!);
  }
  const entries: string[] = [];
  const entryParams: unknown[] = [];
  p.transactions.forEach((t, i) => {
    const ids = posted[i]!;
    const amount = amounts[i]!;
    entries.push(
      `select ?, ?, a.id, a.entry_count - ?::int, ?, ?::numeric, a.available - ?::numeric, ?, ?, a.at from ${a}`,
      `select ?, ?, ?, null, ?, ?::numeric, null, ?, ?, a.at from ${a}`,
    );
    entryParams.push(ids.playerEntryId, ids.transactionId, n - 1 - i, t.type, amount, laterMoves[i], p.currency, p.referenceId);
    entryParams.push(ids.clearingEntryId, ids.transactionId, t.clearingAccountId, t.type, formatMoney(subMoney(0, amount)), p.currency, p.referenceId);
  });
  const also = p.alsoWith?.(posted, { a, suffix: s });
  return {
    ctes: `a${s} as (update wallet.accounts set available = available + ?::numeric, entry_count = entry_count + ?::int, updated_at = now()${p.alsoSet?.text ?? ''}
                where id = ?${p.unlessPosted ? ' and not exists (select 1 from wallet.ledger_transactions where source = ?)' : ''}${p.onlyIf ? ` ${p.onlyIf.text}` : ''}
                returning id, available, held, entry_count, date_trunc('milliseconds', clock_timestamp()) as at${p.alsoReturns ?? ''}),
     t${s} as (insert into wallet.ledger_transactions (${TRANSACTION_COLUMNS})
           select v.id, v.source, v.type, ?, ?, ?, a.at from ${a}, (values ${rows(n, '?::text, ?::text, ?::text')}) v(id, source, type)
           returning 1),
     e${s} as (insert into wallet.ledger_entries (${ENTRY_COLUMNS})
           ${entries.join('\n           union all ')}
           returning 1)${also ? `,\n     ${also.text}` : ''}`,
    params: [
      formatMoney(net),
      n,
      ...(p.alsoSet?.params ?? []),
      p.accountId,
      ...(p.unlessPosted ? [p.transactions[0]!.source] : []),
      ...(p.onlyIf?.params ?? []),
      p.brandId,
      p.currency,
      p.referenceId,
      ...p.transactions.flatMap((t, i) => [posted[i]!.transactionId, t.source, t.type]),
      ...entryParams,
      ...(also?.params ?? []),
    ],
    posted,
  };
}

// ---- inside a transaction, over accounts the caller locked ------------------------------------

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

/** Posts several transactions in one statement, in order, over player accounts the caller locked. */
export async function postTransactions(tx: SqlRunner, ts: NewTransaction[]): Promise<PostedTransaction[]> {
  const txRows: unknown[] = [];
  const entryRows: unknown[] = [];
  const balances = new Map<string, LockedAccount>();
  const posted: PostedTransaction[] = [];
  for (const t of ts) {
    const sum = t.postings.reduce((acc, p) => acc.plus(p.amount), new Money(0));
    if (!sum.isZero()) throw new Error(`postings of ${t.source} sum to ${sum.toFixed(2)}, not zero`);
    const id = newTransactionId();
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
  const accountRows = [...balances.values()].flatMap((a) => [a.id, a.available, a.entryCount]);
  // created_at is taken once, after the caller's account locks, so one account's entries are
  // time-ordered like its balance.
  await tx.query(
    `with now as materialized (select date_trunc('milliseconds', clock_timestamp()) as at),
     t as (insert into wallet.ledger_transactions (${TRANSACTION_COLUMNS})
       select v.*, now.at from (values ${rows(ts.length, '?::text, ?::text, ?::text, ?::text, ?::text, ?::text')}) v, now returning 1),
     e as (insert into wallet.ledger_entries (${ENTRY_COLUMNS})
       select v.*, now.at from (values ${rows(entryRows.length / 9, '?::text, ?::text, ?::text, ?::bigint, ?::text, ?::numeric, ?::numeric, ?::text, ?::text')}) v, now returning 1)
     ${
       accountRows.length > 0
         ? `, bal as (update wallet.accounts a set available = v.available, entry_count = v.seq, updated_at = now()
       from (values ${rows(balances.size, '?::text, ?::numeric, ?::bigint')}) v(id, available, seq) where a.id = v.id returning 1)`
         : ''
     }
     select 1`,
    [...txRows, ...entryRows, ...accountRows],
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
