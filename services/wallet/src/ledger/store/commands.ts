// The wallet's money commands, called by payments over NATS. Each is keyed by the payment's id
// and idempotent: the effect and the record that makes a repeat recognisable commit together,
// and a repeat answers what the first call did (docs/money.md).
import { AppError, newId, type HoldStatus, type WalletCredit, type WalletHold, type WalletHoldRef, type WalletMoveResult } from '@bo/contracts';
import {
  compareMoney,
  crashPoint,
  formatMoney,
  onlyRow,
  runAlone,
  subMoney,
  addMoney,
  uniqueViolation,
  type Sql,
  type SqlRunner,
  type StatementPart,
} from '@bo/service-kit';
import { playerAccountId } from '../domain/account-ids.ts';
import { createPlayerAccount, ensureClearingAccount, lockAccountById, lockPlayerAccount, setHeld, type LockedAccount } from './accounts.ts';
import { findPostedEntries, playerRowPart, postTransaction, type PlayerRowPosted, type PlayerRowPosting } from './ledger-writer.ts';

const result = (account: Pick<LockedAccount, 'available' | 'held'>, extra: Partial<WalletMoveResult> = {}): WalletMoveResult => ({
  ...extra,
  available: formatMoney(account.available),
  held: formatMoney(account.held),
});

/** A repeat that disagrees with the first call is a bug in the caller: refuse loudly. */
function sameCommand(what: string, stored: string, asked: string): void {
  if (compareMoney(stored, asked) !== 0) throw new Error(`${what}: repeated with amount ${asked}, first was ${stored}`);
}

/** A deposit's credit, as its statement is built (`posted`: the ids of the statement that ran). */
export interface CreditPosting {
  posting: PlayerRowPosting;
  posted?: PlayerRowPosted[];
}

function creditPart(c: CreditPosting, suffix: string): StatementPart {
  const { part, posted } = playerRowPart(c.posting, suffix);
  c.posted = posted;
  return part;
}

/** Deposits' credits as a group commit (the ledger module's `groupCommits`): one statement for the credits of different accounts running at once. */
export const CREDIT_GROUP = 'wallet.deposits.credit';
export const creditStatements = { keyOf: (c: CreditPosting) => c.posting.accountId, part: creditPart };
export type PostCredits = (c: CreditPosting) => Promise<{ available: string; held: string }[]>;

/**
 * A deposit's credit as ONE statement (its own transaction, the ledger writer's posting on the
 * player's row, through `group` when given): the player's balance moves under the row lock the
 * UPDATE takes, and the entries take their sequence number, balance after and time from the row
 * it returned. `source` is unique, so a repeat (or a racing copy) writes nothing: the copy that
 * waited on the row lock fails the unique index and rolls back whole (with its batch, whose other
 * credits then run again alone). No row when the account does not exist yet or the deposit was
 * credited already.
 */
async function postCredit(
  sql: SqlRunner,
  cmd: WalletCredit,
  source: string,
  clearingId: string,
  group?: PostCredits,
): Promise<{ available: string; held: string; entryId: string } | undefined> {
  const c: CreditPosting = {
    posting: {
      accountId: playerAccountId(cmd.brandId, cmd.playerId, cmd.currency),
      brandId: cmd.brandId,
      currency: cmd.currency,
      referenceId: cmd.depositId,
      transactions: [{ source, type: 'DEPOSIT', amount: cmd.amount, clearingAccountId: clearingId }],
      unlessPosted: true,
      returning: 'a.available, a.held',
    },
  };
  const rows = group ? await group(c) : await runAlone<{ available: string; held: string }>(sql, creditPart(c, '_0'));
  const row = rows[0];
  return row ? { ...row, entryId: c.posted![0]!.playerEntryId } : undefined;
}

/** What the first credit of `source` wrote, as its answer (the account's balances now). */
async function repeatedCredit(sql: Sql, cmd: WalletCredit, source: string): Promise<WalletMoveResult | undefined> {
  const posted = await findPostedEntries(sql, source);
  if (posted.length === 0) return undefined;
  const accountId = playerAccountId(cmd.brandId, cmd.playerId, cmd.currency);
  const mine = posted.find((e) => e.accountId === accountId);
  if (!mine) throw new Error(`${source} was posted on another account`);
  sameCommand(source, mine.amount, cmd.amount);
  // The entry was posted on this account, so it exists.
  const account = onlyRow(await sql.query<{ available: string; held: string }>('select available, held from wallet.accounts where id = ?', [accountId]));
  return result(account, { entryId: mine.id });
}

export async function creditDeposit(sql: Sql, cmd: WalletCredit, group?: PostCredits): Promise<WalletMoveResult> {
  const source = `deposit:${cmd.depositId}`;
  const clearing = await ensureClearingAccount(sql, cmd.brandId, 'deposit_clearing', cmd.currency);
  let out: WalletMoveResult | undefined;
  for (let attempt = 0; !out; attempt++) {
    if (attempt > 1) throw new Error(`${source}: the player's account does not appear`);
    try {
      const posted = await postCredit(sql, cmd, source, clearing, group);
      out = posted ? result(posted, { entryId: posted.entryId }) : await repeatedCredit(sql, cmd, source);
    } catch (e) {
      // A copy of this command committed while this one waited for the account row.
      if (uniqueViolation(e) !== 'ledger_transactions_source_key') throw e;
      out = await repeatedCredit(sql, cmd, source);
    }
    // Neither posted nor posted before: the player's first money, the account does not exist yet.
    if (!out) await createPlayerAccount(sql, cmd.brandId, cmd.playerId, cmd.currency);
  }
  crashPoint('wallet.credit.after-commit');
  return out;
}

/**
 * A hold's moves are keyed by the withdrawal: run again after a lost connection (or a lost COMMIT
 * acknowledgement), each finds the hold as the first run left it and answers the same.
 */
const KEYED_BY_WITHDRAWAL = { idempotent: true };

interface HoldRow {
  id: string;
  account_id: string;
  brand_id: string;
  amount: string;
  status: HoldStatus;
}

async function lockHold(tx: SqlRunner, withdrawalId: string): Promise<HoldRow | undefined> {
  const rows = await tx.query<HoldRow>('select id, account_id, brand_id, amount, status from wallet.holds where withdrawal_id = ? for update', [withdrawalId]);
  return rows[0];
}

async function setHoldStatus(tx: SqlRunner, holdId: string, status: HoldStatus, transactionId: string | null = null): Promise<void> {
  await tx.query('update wallet.holds set status = ?, transaction_id = ?, updated_at = now() where id = ?', [status, transactionId, holdId]);
}

export async function holdWithdrawal(sql: Sql, cmd: WalletHold): Promise<WalletMoveResult> {
  const out = await sql.transaction(async (tx) => {
    const account = await lockPlayerAccount(tx, cmd.brandId, cmd.playerId, cmd.currency);
    const prior = await lockHold(tx, cmd.withdrawalId);
    if (prior) {
      if (prior.account_id !== account.id) throw new Error(`hold of ${cmd.withdrawalId} is on another account`);
      sameCommand(`hold ${cmd.withdrawalId}`, prior.amount, cmd.amount);
      return result(account, { holdStatus: prior.status });
    }
    const withdrawable = subMoney(account.available, account.held);
    const status: HoldStatus = compareMoney(withdrawable, cmd.amount) >= 0 ? 'open' : 'declined';
    await tx.query('insert into wallet.holds (id, withdrawal_id, account_id, brand_id, amount, status) values (?, ?, ?, ?, ?, ?)', [
      newId('hold'),
      cmd.withdrawalId,
      account.id,
      cmd.brandId,
      formatMoney(cmd.amount),
      status,
    ]);
    if (status === 'open') await setHeld(tx, account, addMoney(account.held, cmd.amount));
    return result(account, { holdStatus: status });
  }, KEYED_BY_WITHDRAWAL);
  crashPoint('wallet.hold.after-commit');
  if (out.holdStatus === 'declined') throw new AppError('INSUFFICIENT_FUNDS', undefined, { withdrawable: subMoney(out.available, out.held) });
  return out;
}

/** Finds the hold of a withdrawal in the caller's brand and locks its account, then the hold. */
async function lockHoldAndAccount(tx: SqlRunner, ref: WalletHoldRef): Promise<{ hold: HoldRow; account: LockedAccount }> {
  const found = await tx.query<{ account_id: string }>('select account_id from wallet.holds where withdrawal_id = ? and brand_id = ?', [
    ref.withdrawalId,
    ref.brandId,
  ]);
  if (!found[0]) throw new AppError('WITHDRAWAL_NOT_FOUND', 'No hold exists for this withdrawal.');
  const account = await lockAccountById(tx, found[0].account_id);
  const hold = (await lockHold(tx, ref.withdrawalId))!;
  return { hold, account };
}

export async function releaseHold(sql: Sql, ref: WalletHoldRef): Promise<WalletMoveResult> {
  const out = await sql.transaction(async (tx) => {
    const { hold, account } = await lockHoldAndAccount(tx, ref);
    if (hold.status === 'open') {
      await setHoldStatus(tx, hold.id, 'released');
      await setHeld(tx, account, subMoney(account.held, hold.amount));
    } else if (hold.status !== 'released') {
      throw new AppError('WITHDRAWAL_INVALID_TRANSITION', `The hold is ${hold.status}; it cannot be released.`);
    }
    return result(account, { holdStatus: 'released' });
  }, KEYED_BY_WITHDRAWAL);
  crashPoint('wallet.release.after-commit');
  return out;
}

export async function captureHold(sql: Sql, ref: WalletHoldRef): Promise<WalletMoveResult> {
  const source = `withdrawal:${ref.withdrawalId}`;
  // The payout clearing account is ensured before the transaction (a committed insert of its
  // own), so the transaction never waits for a second connection while it holds a lock.
  const [target] = await sql.query<{ currency: string }>(
    `select a.currency from wallet.holds h join wallet.accounts a on a.id = h.account_id where h.withdrawal_id = ? and h.brand_id = ?`,
    [ref.withdrawalId, ref.brandId],
  );
  const payout = target ? await ensureClearingAccount(sql, ref.brandId, 'payout_clearing', target.currency) : undefined;
  const out = await sql.transaction(async (tx) => {
    const { hold, account } = await lockHoldAndAccount(tx, ref);
    if (hold.status === 'captured') {
      const mine = (await findPostedEntries(tx, source)).find((e) => e.accountId === account.id);
      if (!mine) throw new Error(`${source} is captured without its ledger entry`);
      return result(account, { entryId: mine.id, holdStatus: 'captured' });
    }
    if (hold.status !== 'open') throw new AppError('WITHDRAWAL_INVALID_TRANSITION', `The hold is ${hold.status}; it cannot be captured.`);
    if (!payout || !target) throw new Error(`hold of ${ref.withdrawalId} appeared during its capture`);
    const { currency } = target;
    // Lower `held` before `available` so `held <= available` holds after each statement.
    await setHeld(tx, account, subMoney(account.held, hold.amount));
    const written = await postTransaction(tx, {
      source,
      type: 'WITHDRAWAL',
      brandId: hold.brand_id,
      currency,
      referenceId: ref.withdrawalId,
      postings: [
        { account, amount: formatMoney(`-${hold.amount}`) },
        { clearingAccountId: payout, amount: formatMoney(hold.amount) },
      ],
    });
    await setHoldStatus(tx, hold.id, 'captured', written.id);
    return result(account, { entryId: written.entries[0]!.id, holdStatus: 'captured' });
  }, KEYED_BY_WITHDRAWAL);
  crashPoint('wallet.capture.after-commit');
  return out;
}
