// The wallet's money commands, called by payments over NATS. Each is keyed by the payment's id
// and idempotent: the effect and the record that makes a repeat recognisable commit together,
// and a repeat answers what the first call did (docs/money.md).
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, newId, type HoldStatus, type WalletCredit, type WalletHold, type WalletHoldRef, type WalletMoveResult } from '@bo/contracts';
import { compareMoney, crashPoint, formatMoney, subMoney, addMoney } from '@bo/service-kit';
import { ensureClearingAccount, lockAccountById, lockPlayerAccount, setHeld, type LockedAccount } from './accounts.ts';
import { findPostedEntries, postTransaction } from './post-transaction.ts';

const result = (account: LockedAccount, extra: Partial<WalletMoveResult> = {}): WalletMoveResult =>
  ({ ...extra, available: formatMoney(account.available), held: formatMoney(account.held) });

/** A repeat that disagrees with the first call is a bug in the caller: refuse loudly. */
function sameCommand(what: string, stored: string, asked: string): void {
  if (compareMoney(stored, asked) !== 0) throw new Error(`${what}: repeated with amount ${asked}, first was ${stored}`);
}

export async function creditDeposit(em: EntityManager, cmd: WalletCredit): Promise<WalletMoveResult> {
  const source = `deposit:${cmd.depositId}`;
  const clearing = await ensureClearingAccount(em, cmd.brandId, 'deposit_clearing', cmd.currency);
  const out = await em.fork().transactional(async (tx) => {
    const player = await lockPlayerAccount(tx, cmd.brandId, cmd.playerId, cmd.currency);
    // The player's lock serialises repeats of this deposit, so this check cannot race.
    const posted = await findPostedEntries(tx, source);
    if (posted.length > 0) {
      const mine = posted.find((e) => e.accountId === player.id);
      if (!mine) throw new Error(`${source} was posted on another account`);
      sameCommand(source, mine.amount, cmd.amount);
      return result(player, { entryId: mine.id });
    }
    const amount = formatMoney(cmd.amount);
    const written = await postTransaction(tx, {
      source, type: 'DEPOSIT', brandId: cmd.brandId, currency: cmd.currency, referenceId: cmd.depositId,
      postings: [{ account: player, amount }, { clearingAccountId: clearing, amount: formatMoney(`-${amount}`) }],
    });
    return result(player, { entryId: written.entries[0].id });
  });
  crashPoint('wallet.credit.after-commit');
  return out;
}

interface HoldRow { id: string; account_id: string; brand_id: string; amount: string; status: HoldStatus }

async function lockHold(tx: EntityManager, withdrawalId: string): Promise<HoldRow | undefined> {
  const rows = await tx.execute<HoldRow[]>(
    'select id, account_id, brand_id, amount, status from wallet.holds where withdrawal_id = ? for update', [withdrawalId]);
  return rows[0];
}

async function setHoldStatus(tx: EntityManager, holdId: string, status: HoldStatus, transactionId: string | null = null): Promise<void> {
  await tx.execute('update wallet.holds set status = ?, transaction_id = ?, updated_at = now() where id = ?', [status, transactionId, holdId]);
}

export async function holdWithdrawal(em: EntityManager, cmd: WalletHold): Promise<WalletMoveResult> {
  const out = await em.fork().transactional(async (tx) => {
    const account = await lockPlayerAccount(tx, cmd.brandId, cmd.playerId, cmd.currency);
    const prior = await lockHold(tx, cmd.withdrawalId);
    if (prior) {
      if (prior.account_id !== account.id) throw new Error(`hold of ${cmd.withdrawalId} is on another account`);
      sameCommand(`hold ${cmd.withdrawalId}`, prior.amount, cmd.amount);
      return result(account, { holdStatus: prior.status });
    }
    const withdrawable = subMoney(account.available, account.held);
    const status: HoldStatus = compareMoney(withdrawable, cmd.amount) >= 0 ? 'open' : 'declined';
    await tx.execute(
      'insert into wallet.holds (id, withdrawal_id, account_id, brand_id, amount, status) values (?, ?, ?, ?, ?, ?)',
      [newId('hold'), cmd.withdrawalId, account.id, cmd.brandId, formatMoney(cmd.amount), status]);
    if (status === 'open') await setHeld(tx, account, addMoney(account.held, cmd.amount));
    return result(account, { holdStatus: status });
  });
  crashPoint('wallet.hold.after-commit');
  if (out.holdStatus === 'declined') throw new AppError('INSUFFICIENT_FUNDS', undefined, { withdrawable: subMoney(out.available, out.held) });
  return out;
}

/** Finds the hold of a withdrawal in the caller's brand and locks its account, then the hold. */
async function lockHoldAndAccount(tx: EntityManager, ref: WalletHoldRef): Promise<{ hold: HoldRow; account: LockedAccount }> {
  const found = await tx.execute<{ account_id: string }[]>(
    'select account_id from wallet.holds where withdrawal_id = ? and brand_id = ?', [ref.withdrawalId, ref.brandId]);
  if (!found[0]) throw new AppError('WITHDRAWAL_NOT_FOUND', 'No hold exists for this withdrawal.');
  const account = await lockAccountById(tx, found[0].account_id);
  const hold = (await lockHold(tx, ref.withdrawalId))!;
  return { hold, account };
}

export async function releaseHold(em: EntityManager, ref: WalletHoldRef): Promise<WalletMoveResult> {
  const out = await em.fork().transactional(async (tx) => {
    const { hold, account } = await lockHoldAndAccount(tx, ref);
    if (hold.status === 'open') {
      await setHoldStatus(tx, hold.id, 'released');
      await setHeld(tx, account, subMoney(account.held, hold.amount));
    } else if (hold.status !== 'released') {
      throw new AppError('WITHDRAWAL_INVALID_TRANSITION', `The hold is ${hold.status}; it cannot be released.`);
    }
    return result(account, { holdStatus: 'released' });
  });
  crashPoint('wallet.release.after-commit');
  return out;
}

export async function captureHold(em: EntityManager, ref: WalletHoldRef): Promise<WalletMoveResult> {
  const source = `withdrawal:${ref.withdrawalId}`;
  // The payout clearing account is ensured before the transaction (a committed insert of its
  // own), so the transaction never waits for a second connection while it holds a lock.
  const [target] = await em.fork().execute<{ currency: string }[]>(
    `select a.currency from wallet.holds h join wallet.accounts a on a.id = h.account_id where h.withdrawal_id = ? and h.brand_id = ?`,
    [ref.withdrawalId, ref.brandId]);
  const payout = target ? await ensureClearingAccount(em, ref.brandId, 'payout_clearing', target.currency) : undefined;
  const out = await em.fork().transactional(async (tx) => {
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
      source, type: 'WITHDRAWAL', brandId: hold.brand_id, currency, referenceId: ref.withdrawalId,
      postings: [{ account, amount: formatMoney(`-${hold.amount}`) }, { clearingAccountId: payout, amount: formatMoney(hold.amount) }],
    });
    await setHoldStatus(tx, hold.id, 'captured', written.id);
    return result(account, { entryId: written.entries[0].id, holdStatus: 'captured' });
  });
  crashPoint('wallet.capture.after-commit');
  return out;
}
