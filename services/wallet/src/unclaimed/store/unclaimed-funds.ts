// The money of accounts closed after an impediment hit (issue #46 item 4; docs/eligibility.md "After
// a hit", docs/money.md "Unclaimed funds"). Every move is one database transaction that writes its
// ledger transaction through the one writer (postTransaction) with the record that makes it happen
// once:
//   hold      player −free, unclaimed_impeded +free   (UNCLAIMED_HOLD)   under the player's row lock:
//             `free` is read on the locked row (available − held), so two runs move it once
//   transfer  unclaimed_impeded −amount, fund_transfer_payable +amount   (FUND_TRANSFER)  under the
//             hold's row lock (held → transferred), one transfer per hold (unique); due 180 days after
//             the communication to the bettor (`notice_sent_at`; issue #60), never before one is reported
//   payout    fund_transfer_payable −half, payout_clearing +half   (FUND_PAYOUT)  each half of a transfer
//             once payments paid it to the fund's account (one per payments payout id, one per fund)
//   return    unclaimed_impeded −amount, payout_clearing +amount   (UNCLAIMED_RETURN)  under the
//             hold's row lock (held → returned)
// Each ledger source is unique too (`unclaimed-hold:<hold>`, `fund-transfer:<hold>`,
// `unclaimed-return:<hold>`): a second line of defence. The brand-wide accounts are append-only
// (docs/money.md, "Hot accounts"); the hold row is what serialises a hold's moves.
import {
  AppError,
  FUND_TRANSFER_LEGAL_BASIS,
  newId,
  type Environment,
  type FundPayoutPosting,
  type FundTransfer,
  type UnclaimedFunds,
  type UnclaimedFundsStatus,
} from '@bo/contracts';
import { compareMoney, formatMoney, isoTime, subMoney, type ListPosition, type Sql, type SqlRunner } from '@bo/service-kit';
import { clearingAccountId, lockAccountById, playerAccountId, postTransaction } from '../../ledger/index.ts';
import { daysAfter, fundSplit } from '../domain/fund-split.ts';

export interface ImpededAccount {
  operatorId: string;
  brandId: string;
  environment: Environment;
  playerId: string;
  currency: string;
}

/** Records the account as closed after a hit (once: a repeat keeps the first); the return's deadline as stored. */
export async function recordImpededAccount(sql: SqlRunner, a: ImpededAccount, closedAt: Date, returnDueAt: Date): Promise<Date> {
  const [row] = await sql.query<{ return_due_at: Date | string }>(
    `with i as (insert into wallet.impeded_accounts (account_id, operator_id, brand_id, environment, player_id, currency, closed_at, return_due_at)
                values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (account_id) do nothing returning return_due_at)
     select return_due_at from i union all select return_due_at from wallet.impeded_accounts where account_id = ? and not exists (select 1 from i)`,
    [
      playerAccountId(a.brandId, a.playerId, a.currency),
      a.operatorId,
      a.brandId,
      a.environment,
      a.playerId,
      a.currency,
      closedAt,
      returnDueAt,
      playerAccountId(a.brandId, a.playerId, a.currency),
    ],
  );
  return new Date(isoTime(row!.return_due_at));
}

// ---- the hold ----

export interface AccountToHold extends ImpededAccount {
  accountId: string;
}

/** Closed accounts past the return's deadline with money not reserved by a withdrawal (`available − held`). */
export async function accountsToHold(sql: SqlRunner, now: Date, limit: number): Promise<AccountToHold[]> {
  return sql.query<AccountToHold>(
    `select i.account_id as "accountId", i.operator_id as "operatorId", i.brand_id as "brandId", i.environment, i.player_id as "playerId", i.currency
       from wallet.impeded_accounts i join wallet.accounts a on a.id = i.account_id
      where i.return_due_at <= ? and a.available > a.held
      order by i.return_due_at, i.account_id limit ?`,
    [now, limit],
  );
}

const HOLD_COLUMNS = `id, operator_id as "operatorId", brand_id as "brandId", environment, player_id as "playerId", currency, amount::text as amount,
  status, held_at as "heldAt", notice_sent_at as "noticeSentAt", release_due_at as "releaseDueAt", ended_at as "endedAt", return_reference as "returnReference",
  (select f.id from wallet.fund_transfers f where f.hold_id = h.id) as "transferId"`;

interface HoldRow {
  id: string;
  operatorId: string;
  brandId: string;
  environment: Environment;
  playerId: string;
  currency: string;
  amount: string;
  status: UnclaimedFundsStatus;
  heldAt: Date | string;
  noticeSentAt: Date | string | null;
  releaseDueAt: Date | string | null;
  endedAt: Date | string | null;
  returnReference: string | null;
  transferId: string | null;
}

export const toUnclaimedFunds = (r: HoldRow): UnclaimedFunds => ({
  ...r,
  amount: formatMoney(r.amount),
  heldAt: isoTime(r.heldAt),
  noticeSentAt: isoTime(r.noticeSentAt),
  releaseDueAt: isoTime(r.releaseDueAt),
  endedAt: isoTime(r.endedAt),
});

/**
 * Moves what the closed account still has free to the brand's unclaimed-funds account, held
 * `holdDays` from the communication to the bettor (`noticeSentAt`; null: none reported yet, the clock
 * not started); undefined when nothing is free (a run before it took it, or a withdrawal reserves it).
 * `unclaimedId` is the brand's account, ensured by the caller (a committed statement of its own).
 */
export async function holdBalance(
  sql: Sql,
  a: AccountToHold,
  now: Date,
  holdDays: number,
  unclaimedId: string,
  noticeSentAt: Date | null,
): Promise<UnclaimedFunds | undefined> {
  return sql.transaction(async (tx) => {
    const account = await lockAccountById(tx, a.accountId);
    const free = subMoney(account.available, account.held);
    if (compareMoney(free, 0) <= 0) return undefined;
    const id = newId('unclaimedHold');
    const posted = await postTransaction(tx, {
      source: `unclaimed-hold:${id}`,
      type: 'UNCLAIMED_HOLD',
      brandId: a.brandId,
      currency: a.currency,
      referenceId: id,
      postings: [
        { account, amount: formatMoney(subMoney(0, free)) },
        { clearingAccountId: unclaimedId, amount: free },
      ],
    });
    const [row] = await tx.query<HoldRow>(
      `insert into wallet.unclaimed_holds as h (id, account_id, operator_id, brand_id, environment, player_id, currency, amount, held_at, notice_sent_at, release_due_at, hold_transaction_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${HOLD_COLUMNS}`,
      [
        id,
        a.accountId,
        a.operatorId,
        a.brandId,
        a.environment,
        a.playerId,
        a.currency,
        free,
        now,
        noticeSentAt,
        noticeSentAt && daysAfter(noticeSentAt, holdDays),
        posted.id,
      ],
    );
    return toUnclaimedFunds(row!);
  });
}

// ---- the communication that starts the 180 days (issue #60) ----

/** Holds still held whose clock has not started (no communication reported when they were made), after `after`. */
export async function holdsAwaitingNotice(sql: SqlRunner, after: string, limit: number): Promise<Array<{ id: string; brandId: string; playerId: string }>> {
  return sql.query(
    `select id, brand_id as "brandId", player_id as "playerId" from wallet.unclaimed_holds
      where status = 'held' and release_due_at is null and id > ? order by id limit ?`,
    [after, limit],
  );
}

/** Starts a hold's clock from the communication: due `holdDays` after it. Once: a hold whose clock runs keeps it. */
export async function startHoldClock(sql: SqlRunner, holdId: string, noticeSentAt: Date, holdDays: number): Promise<boolean> {
  const rows = await sql.query(
    `update wallet.unclaimed_holds set notice_sent_at = ?, release_due_at = ? where id = ? and status = 'held' and release_due_at is null returning 1`,
    [noticeSentAt, daysAfter(noticeSentAt, holdDays), holdId],
  );
  return rows.length > 0;
}

// ---- the transfer to the funds ----

/** A hold past its 180 days, not locked by another run (its brand and currency: the accounts to ensure). */
export async function nextHoldDue(sql: SqlRunner, now: Date, after?: string): Promise<{ id: string; brandId: string; currency: string } | undefined> {
  const [row] = await sql.query<{ id: string; brandId: string; currency: string }>(
    `select id, brand_id as "brandId", currency from wallet.unclaimed_holds
      where status = 'held' and release_due_at <= ? and id > ? order by id limit 1`,
    [now, after ?? ''],
  );
  return row;
}

/**
 * Transfers one held balance past its due date to the funds: the hold `transferred`, its transfer
 * record (FIES and FUNCAP halves) and FUND_TRANSFER, in one transaction under the hold's row lock.
 * Undefined when another run holds it or it ended meanwhile (returned, transferred).
 */
export async function transferHold(
  sql: Sql,
  holdId: string,
  now: Date,
  accounts: { unclaimedId: string; payableId: string },
): Promise<FundTransfer | undefined> {
  return sql.transaction(async (tx) => {
    const [hold] = await tx.query<HoldRow>(
      `select ${HOLD_COLUMNS} from wallet.unclaimed_holds h where id = ? and status = 'held' and release_due_at <= ? for update skip locked`,
      [holdId, now],
    );
    if (!hold) return undefined;
    const amount = formatMoney(hold.amount);
    const id = newId('fundTransfer');
    const posted = await postTransaction(tx, {
      source: `fund-transfer:${hold.id}`,
      type: 'FUND_TRANSFER',
      brandId: hold.brandId,
      currency: hold.currency,
      referenceId: id,
      postings: [
        { clearingAccountId: accounts.unclaimedId, amount: formatMoney(subMoney(0, amount)) },
        { clearingAccountId: accounts.payableId, amount },
      ],
    });
    const { fies, funcap } = fundSplit(amount);
    const [row] = await tx.query<TransferRow>(
      `with f as (insert into wallet.fund_transfers (id, hold_id, operator_id, brand_id, environment, player_id, currency, amount, fies, funcap, transaction_id, recorded_at)
                  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *),
       h as (update wallet.unclaimed_holds set status = 'transferred', ended_at = ?, end_transaction_id = ? where id = ? returning 1)
       select ${TRANSFER_COLUMNS} from f, h`,
      [
        id,
        hold.id,
        hold.operatorId,
        hold.brandId,
        hold.environment,
        hold.playerId,
        hold.currency,
        amount,
        fies,
        funcap,
        posted.id,
        now,
        now,
        posted.id,
        hold.id,
      ],
    );
    return toFundTransfer(row!);
  });
}

// ---- the payment of a transfer through payments (issue #60) ----

/** Transfers whose payment has not been asked of payments yet, oldest first. */
export async function transfersToRequest(sql: SqlRunner, limit: number): Promise<FundTransfer[]> {
  const rows = await sql.query<TransferRow>(
    `select ${TRANSFER_COLUMNS} from wallet.fund_transfers f
      where not exists (select 1 from wallet.fund_payout_requests r where r.transfer_id = f.id)
      order by recorded_at, id limit ?`,
    [limit],
  );
  return rows.map(toFundTransfer);
}

/** Payments took the request (idempotent on its side): recorded once. */
export async function markPayoutRequested(sql: SqlRunner, transferId: string, at: Date): Promise<void> {
  await sql.query('insert into wallet.fund_payout_requests (transfer_id, requested_at) values (?, ?) on conflict (transfer_id) do nothing', [transferId, at]);
}

interface PayoutRow {
  id: string;
  transfer_id: string;
  fund: string;
  amount: string;
  transaction_id: string;
  posted_at: Date | string;
}

/**
 * The ledger move of one half paid by payments: FUND_PAYOUT, the brand's fund-transfer account to its
 * payout clearing, with its record, in one transaction under the transfer's row lock. Once per payout:
 * the same payout again answers what was posted; another payout for the same fund of the transfer, or
 * an amount that is not that fund's half, is refused (409 FUND_PAYOUT_CONFLICT) and nothing moves.
 */
export async function postFundPayout(
  sql: Sql,
  p: FundPayoutPosting,
  now: Date,
  accounts: { payableId: string; payoutId: string },
): Promise<{ transactionId: string; postedAt: string }> {
  return sql.transaction(async (tx) => {
    const [transfer] = await tx.query<{ id: string; brand_id: string; currency: string; fies: string; funcap: string }>(
      'select id, brand_id, currency, fies::text as fies, funcap::text as funcap from wallet.fund_transfers where id = ? for update',
      [p.transferId],
    );
    if (!transfer) throw new AppError('FUND_PAYOUT_CONFLICT', 'No such fund transfer.', { transferId: p.transferId });
    const [kept] = await tx.query<PayoutRow>('select * from wallet.fund_payouts where id = ? or (transfer_id = ? and fund = ?)', [
      p.payoutId,
      p.transferId,
      p.fund,
    ]);
    if (kept) {
      if (kept.id !== p.payoutId || kept.fund !== p.fund || compareMoney(kept.amount, p.amount) !== 0) {
        throw new AppError('FUND_PAYOUT_CONFLICT', undefined, { payoutId: kept.id, fund: kept.fund });
      }
      return { transactionId: kept.transaction_id, postedAt: isoTime(kept.posted_at) };
    }
    const half = p.fund === 'fies' ? transfer.fies : transfer.funcap;
    if (transfer.brand_id !== p.brandId || transfer.currency !== p.currency || compareMoney(half, p.amount) !== 0) {
      throw new AppError('FUND_PAYOUT_CONFLICT', "The payout is not this transfer's half.", { fund: p.fund, half: formatMoney(half) });
    }
    const amount = formatMoney(p.amount);
    const posted = await postTransaction(tx, {
      source: `fund-payout:${p.payoutId}`,
      type: 'FUND_PAYOUT',
      brandId: p.brandId,
      currency: p.currency,
      referenceId: p.payoutId,
      postings: [
        { clearingAccountId: accounts.payableId, amount: formatMoney(subMoney(0, amount)) },
        { clearingAccountId: accounts.payoutId, amount },
      ],
    });
    await tx.query(
      'insert into wallet.fund_payouts (id, transfer_id, fund, brand_id, currency, amount, transaction_id, posted_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
      [p.payoutId, p.transferId, p.fund, p.brandId, p.currency, amount, posted.id, now],
    );
    return { transactionId: posted.id, postedAt: now.toISOString() };
  });
}

// ---- the return to the bettor (our team, during the hold) ----

export async function findHold(sql: SqlRunner, id: string): Promise<UnclaimedFunds | undefined> {
  const [row] = await sql.query<HoldRow>(`select ${HOLD_COLUMNS} from wallet.unclaimed_holds h where id = ?`, [id]);
  return row && toUnclaimedFunds(row);
}

/**
 * Records that our finance team paid a held balance to the bettor: the hold `returned` with the
 * payment's reference and who recorded it, and UNCLAIMED_RETURN, under the hold's row lock.
 * `status` what the hold was when locked: only a `held` one is returned (`returned` true).
 */
export async function returnHold(
  tx: SqlRunner,
  id: string,
  now: Date,
  by: { reference: string; actor: string; unclaimedId: string; payoutId: string },
): Promise<{ returned: boolean; hold: UnclaimedFunds } | undefined> {
  const [hold] = await tx.query<HoldRow>(`select ${HOLD_COLUMNS} from wallet.unclaimed_holds h where id = ? for update`, [id]);
  if (!hold) return undefined;
  if (hold.status !== 'held') return { returned: false, hold: toUnclaimedFunds(hold) };
  const amount = formatMoney(hold.amount);
  const posted = await postTransaction(tx, {
    source: `unclaimed-return:${hold.id}`,
    type: 'UNCLAIMED_RETURN',
    brandId: hold.brandId,
    currency: hold.currency,
    referenceId: hold.id,
    postings: [
      { clearingAccountId: by.unclaimedId, amount: formatMoney(subMoney(0, amount)) },
      { clearingAccountId: by.payoutId, amount },
    ],
  });
  const [row] = await tx.query<HoldRow>(
    `update wallet.unclaimed_holds h set status = 'returned', ended_at = ?, end_transaction_id = ?, return_reference = ?, returned_by = ?
      where id = ? returning ${HOLD_COLUMNS}`,
    [now, posted.id, by.reference, by.actor, hold.id],
  );
  return { returned: true, hold: toUnclaimedFunds(row!) };
}

/** The brand's two accounts of these moves, by id (their rows are ensured by the caller before a transaction). */
export const unclaimedAccountIds = (brandId: string, currency: string) => ({
  unclaimedId: clearingAccountId(brandId, 'unclaimed_impeded', currency),
  payableId: clearingAccountId(brandId, 'fund_transfer_payable', currency),
  payoutId: clearingAccountId(brandId, 'payout_clearing', currency),
});

// ---- our team's lists ----

export async function listHolds(
  sql: SqlRunner,
  f: { status?: UnclaimedFundsStatus; brandId?: string; playerId?: string },
  limit: number,
  after?: ListPosition,
): Promise<HoldRow[]> {
  return sql.query<HoldRow>(
    `select ${HOLD_COLUMNS} from wallet.unclaimed_holds h
      where (?::text is null or status = ?) and (?::text is null or brand_id = ?) and (?::text is null or player_id = ?)
        and (held_at, id) < (?::timestamptz, ?)
      order by held_at desc, id desc limit ?`,
    [
      f.status ?? null,
      f.status ?? null,
      f.brandId ?? null,
      f.brandId ?? null,
      f.playerId ?? null,
      f.playerId ?? null,
      after?.at ?? 'infinity',
      after?.id ?? '',
      limit + 1,
    ],
  );
}
export const holdPosition = (r: HoldRow): ListPosition => ({ at: isoTime(r.heldAt), id: r.id });

const TRANSFER_COLUMNS = `id, hold_id as "holdId", operator_id as "operatorId", brand_id as "brandId", environment, player_id as "playerId", currency,
  amount::text as amount, fies::text as fies, funcap::text as funcap, recorded_at as "recordedAt"`;

interface TransferRow {
  id: string;
  holdId: string;
  operatorId: string;
  brandId: string;
  environment: Environment;
  playerId: string;
  currency: string;
  amount: string;
  fies: string;
  funcap: string;
  recordedAt: Date | string;
}

export const toFundTransfer = (r: TransferRow): FundTransfer => ({
  ...r,
  amount: formatMoney(r.amount),
  fies: formatMoney(r.fies),
  funcap: formatMoney(r.funcap),
  legalBasis: FUND_TRANSFER_LEGAL_BASIS,
  recordedAt: isoTime(r.recordedAt),
});

export async function listTransfers(sql: SqlRunner, f: { brandId?: string }, limit: number, after?: ListPosition): Promise<TransferRow[]> {
  return sql.query<TransferRow>(
    `select ${TRANSFER_COLUMNS} from wallet.fund_transfers
      where (?::text is null or brand_id = ?) and (recorded_at, id) < (?::timestamptz, ?)
      order by recorded_at desc, id desc limit ?`,
    [f.brandId ?? null, f.brandId ?? null, after?.at ?? 'infinity', after?.id ?? '', limit + 1],
  );
}
export const transferPosition = (r: TransferRow): ListPosition => ({ at: isoTime(r.recordedAt), id: r.id });
