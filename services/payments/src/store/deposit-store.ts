// SQL for deposits. Locks are explicit: every state change happens on a row locked FOR UPDATE.
import { normaliseCpf, type DepositPayer } from '@bo/contracts';
import type { DepositRow, DepositRowStatus, DepositUsage } from '../domain/deposits.ts';
import { MOVEMENT_COLUMNS, movementValues } from '../domain/money-movement.ts';
import { noStoredAnswer, onlyRow, runAlone, storedAnswerInsertFrom, type RequestKey, type SqlRunner, type StatementPart } from '@bo/service-kit';

import { OF_BRAND, rowById } from './of-brand.ts';

const COLUMNS = `id, operator_id as "operatorId", brand_id as "brandId", environment, player_id as "playerId", amount, currency,
  method, external_reference as "externalReference", status, confirm_scope as "confirmScope", confirm_key as "confirmKey",
  confirm_fingerprint as "confirmFingerprint",
  created_at as "createdAt", updated_at as "updatedAt", confirmed_at as "confirmedAt", failed_at as "failedAt", failure_reason as "failureReason"`;

/** A deposit of the brand (or of any brand when `brandId` is undefined), locked. */
export async function lockDeposit(
  tx: SqlRunner,
  id: string,
  brandId: string | undefined,
  opts: { skipLocked?: boolean } = {},
): Promise<DepositRow | undefined> {
  return rowById<DepositRow>(tx, 'payments.deposits', COLUMNS, id, brandId, opts.skipLocked ? ' for update skip locked' : ' for update');
}

/** A deposit (of the brand, when given). */
export async function readDeposit(sql: SqlRunner, id: string, brandId?: string): Promise<DepositRow | undefined> {
  return rowById<DepositRow>(sql, 'payments.deposits', COLUMNS, id, brandId);
}

export async function findByExternalReference(tx: SqlRunner, brandId: string, externalReference: string): Promise<string | undefined> {
  const rows = await tx.query<{ id: string }>('select id from payments.deposits where brand_id = ? and external_reference = ?', [brandId, externalReference]);
  return rows[0]?.id;
}

/** Serialises one player's deposit creations so two cannot both pass the daily limit. */
export async function lockPlayerDeposits(tx: SqlRunner, brandId: string, playerId: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`payments.deposit-limit:${brandId}:${playerId}`]);
}

/**
 * The insert of a new deposit, unless the brand already has its externalReference (then no row).
 * `owner_cpf`: under br-spa, the player's CPF at create (a player's CPF never changes), so a
 * confirm can check its payer in the statement that takes its intent (markConfirmingIfPending).
 */
const INSERT_DEPOSIT = `insert into payments.deposits (${MOVEMENT_COLUMNS}, external_reference, status, created_at, updated_at, owner_cpf)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (brand_id, external_reference) do nothing returning id`;
const depositValues = (row: DepositRow, ownerCpf: string | null): unknown[] => [
  ...movementValues(row),
  row.externalReference,
  row.status,
  row.createdAt,
  row.updatedAt,
  ownerCpf,
];

/** Inserts unless the brand already has the externalReference (a concurrent create); returns whether it did. */
export async function insertDeposit(tx: SqlRunner, row: DepositRow, ownerCpf: string | null): Promise<boolean> {
  return (await tx.query(INSERT_DEPOSIT, depositValues(row, ownerCpf))).length === 1;
}

/**
 * Step 1 of a confirm in one statement: `pending → confirming` with the key that asked (and its
 * fingerprint); undefined if not pending, not the brand's, or the key already has a stored answer
 * (a replay, or the key reused for another request: the caller looks at it under the row lock).
 */
/** The payer's columns (br-spa: the PSP's report, kept on the deposit); without a payer they stay as they are. */
export const SET_PAYER =
  'payer_cpf = coalesce(?, payer_cpf), payer_name = coalesce(?, payer_name), payer_bank = coalesce(?, payer_bank), payer_account = coalesce(?, payer_account)';
const payerValues = (payer: DepositPayer | undefined) =>
  payer ? [normaliseCpf(payer.cpf), payer.name ?? null, payer.bank ?? null, payer.account ?? null] : [null, null, null, null];

/** A confirm's intent, as asked: the deposit, the key and (br-spa) the payer. */
export interface ConfirmIntent {
  id: string;
  brandId: string;
  ref: RequestKey | undefined;
  /** `checked`: the caller compared the payer with the player already; otherwise it must be the owner the deposit recorded at create. */
  payer?: { payer: DepositPayer; checked: boolean };
}

/**
 * The confirm's intent on a pending deposit whose key has no stored answer, with the payer, as a
 * group commit's part (the kit's statement-group.ts): `pending → confirming` with the key that
 * asked (and its fingerprint). No row when not pending, not the brand's, the key already has a
 * stored answer (a replay, or the key reused: the caller looks under the row lock), or an unchecked
 * payer is not the deposit's owner.
 */
function intentPart(i: ConfirmIntent, s: string): StatementPart {
  const unanswered = noStoredAnswer('payments', i.ref);
  const ownerToCheck = i.payer && !i.payer.checked ? normaliseCpf(i.payer.payer.cpf) : null;
  return {
    ctes: `u${s} as (update payments.deposits set status = 'confirming', confirm_scope = ?, confirm_key = ?, confirm_fingerprint = ?, touched_at = now(), ${SET_PAYER}
     where id = ? and ${OF_BRAND} and status = 'pending' and (?::text is null or owner_cpf = ?::text) and ${unanswered.text} returning ${COLUMNS})`,
    params: [
      i.ref?.scope ?? null,
      i.ref?.key ?? null,
      i.ref?.fingerprint ?? null,
      ...payerValues(i.payer?.payer),
      i.id,
      i.brandId,
      ownerToCheck,
      ownerToCheck,
      ...unanswered.params,
    ],
    select: `* from u${s}`,
  };
}

/** The confirms' intents as a group commit (payments' `groupCommits`). */
export const INTENT_GROUP = 'payments.deposits.confirm-intent';
export const intentStatements = { keyOf: (i: ConfirmIntent) => i.id, part: intentPart };
export type RecordIntents = (i: ConfirmIntent) => Promise<DepositRow[]>;

/** The intent in one statement, through `group` when given, otherwise alone on `sql`; the deposit as it is now `confirming`, or undefined. */
export async function markConfirmingIfPending(sql: SqlRunner, intent: ConfirmIntent, group?: RecordIntents): Promise<DepositRow | undefined> {
  const rows = group ? await group(intent) : await runAlone<DepositRow>(sql, intentPart(intent, '_0'));
  return rows[0];
}

/**
 * The deposit already holding the brand's externalReference, and (when a limit needs it) the
 * player's pending and confirmed deposits of the current day, week (Monday to Sunday) and month
 * in the operator's time zone, with each period's end. One statement.
 */
export async function referenceAndUsage(
  tx: SqlRunner,
  brandId: string,
  playerId: string,
  externalReference: string,
  now: Date,
  timeZone: string | undefined,
): Promise<{ existing: string | undefined; usage: DepositUsage | undefined }> {
  if (!timeZone) {
    const rows = await tx.query<{ id: string }>('select id from payments.deposits where brand_id = ? and external_reference = ?', [brandId, externalReference]);
    return { existing: rows[0]?.id, usage: undefined };
  }
  const row = onlyRow(
    await tx.query<{ existing: string | null; day: string; week: string; month: string; day_end: Date; week_end: Date; month_end: Date }>(
      `with b as (select date_trunc('day', l) at time zone z as day, date_trunc('week', l) at time zone z as week, date_trunc('month', l) at time zone z as month,
                         (date_trunc('day', l) + interval '1 day') at time zone z as day_end,
                         (date_trunc('week', l) + interval '1 week') at time zone z as week_end,
                         (date_trunc('month', l) + interval '1 month') at time zone z as month_end
                    from (select ?::timestamptz at time zone ? as l, ?::text as z) n)
       select (select id from payments.deposits where brand_id = ? and external_reference = ?) as existing,
              coalesce(sum(d.amount) filter (where d.created_at >= b.day), 0) as day,
              coalesce(sum(d.amount) filter (where d.created_at >= b.week), 0) as week,
              coalesce(sum(d.amount) filter (where d.created_at >= b.month), 0) as month,
              b.day_end, b.week_end, b.month_end
         from b left join payments.deposits d
           on d.brand_id = ? and d.player_id = ? and d.created_at >= least(b.day, b.week, b.month)
          and d.status in ('pending', 'confirming', 'confirmed')
        group by b.day_end, b.week_end, b.month_end`,
      [now, timeZone, timeZone, brandId, externalReference, brandId, playerId],
    ),
  );
  const iso = (d: Date) => new Date(d).toISOString();
  return {
    existing: row.existing ?? undefined,
    usage: {
      used: { day: row.day, week: row.week, month: row.month },
      resetsAt: { day: iso(row.day_end), week: iso(row.week_end), month: iso(row.month_end) },
    },
  };
}

/** The player's deposits of the current periods (payments.rg.usage, the responsible-gaming view). */
export async function depositUsage(sql: SqlRunner, brandId: string, playerId: string, now: Date, timeZone: string): Promise<DepositUsage> {
  return (await referenceAndUsage(sql, brandId, playerId, '', now, timeZone)).usage!;
}

/** A deposit to create with its answer: the row, the key that asked, the answer's body and (br-spa) the owner's CPF. */
export interface NewDeposit {
  row: DepositRow;
  ref: RequestKey | undefined;
  operation: string;
  body: unknown;
  ownerCpf: string | null;
}

/**
 * A new deposit and the stored response for the key that asked, in one statement (atomic
 * without a transaction), as a group commit's part (the kit's statement-group.ts); its row's `n`
 * is 0 when the brand already has the reference (nothing written). A second record for the key
 * is a unique violation: the statement fails as a whole (a batch's others then run alone).
 */
function newDepositPart(d: NewDeposit, s: string): StatementPart {
  const answer = d.ref ? storedAnswerInsertFrom('payments', `d${s}`, d.ref, d.operation, 201, d.body) : undefined;
  return {
    ctes: `d${s} as (${INSERT_DEPOSIT})${answer ? `, p${s} as (${answer.text})` : ''}`,
    params: [...depositValues(d.row, d.ownerCpf), ...(answer?.params ?? [])],
    select: `count(*)::int as n from d${s}`,
  };
}

/** Deposits' creates as a group commit (payments' `groupCommits`); one reference per batch. */
export const CREATE_GROUP = 'payments.deposits.create';
export const newDepositStatements = { keyOf: (d: NewDeposit) => `${d.row.brandId}:${d.row.externalReference}`, part: newDepositPart };
export type InsertDeposits = (d: NewDeposit) => Promise<{ n: number }[]>;

/** Inserts the deposit with its answer, through `group` when given; false when the brand already has the reference. */
export async function insertDepositWithResponse(sql: SqlRunner, d: NewDeposit, group?: InsertDeposits): Promise<boolean> {
  const rows = group ? await group(d) : await runAlone<{ n: number }>(sql, newDepositPart(d, '_0'));
  return rows[0]?.n === 1;
}

export async function markConfirming(tx: SqlRunner, id: string, ref: RequestKey | undefined, payer?: DepositPayer): Promise<void> {
  await tx.query(
    `update payments.deposits set status = 'confirming', confirm_scope = ?, confirm_key = ?, confirm_fingerprint = ?, touched_at = now(), ${SET_PAYER} where id = ?`,
    [ref?.scope ?? null, ref?.key ?? null, ref?.fingerprint ?? null, ...payerValues(payer), id],
  );
}

/** A br-spa confirm whose payer is not the player: `failed` with the payer kept (own-account/deposit-payer.ts). */
export async function markPayerMismatch(tx: SqlRunner, id: string, at: Date, reason: string, payer: DepositPayer): Promise<void> {
  await tx.query(
    `update payments.deposits set status = 'failed', failed_at = ?, failure_reason = ?, updated_at = ?, touched_at = now(),
         payer_cpf = ?, payer_name = ?, payer_bank = ?, payer_account = ? where id = ?`,
    [at, reason, at, ...payerValues(payer), id],
  );
}

export async function markFailed(tx: SqlRunner, row: DepositRow, at: Date, reason: string | null): Promise<DepositRow> {
  await tx.query(`update payments.deposits set status = 'failed', failed_at = ?, failure_reason = ?, updated_at = ?, touched_at = now() where id = ?`, [
    at,
    reason,
    at,
    row.id,
  ]);
  return { ...row, status: 'failed', failedAt: at, failureReason: reason, updatedAt: at };
}

/** Ids of deposits whose confirm was interrupted and is not being finished by its request. */
export async function staleDeposits(em: SqlRunner, status: DepositRowStatus, olderThanMs: number, limit: number): Promise<string[]> {
  const rows = await em.query<{ id: string }>(
    `select id from payments.deposits where status = ? and touched_at < now() - (? * interval '1 millisecond') order by touched_at limit ?`,
    [status, olderThanMs, limit],
  );
  return rows.map((r) => r.id);
}

/** One player's deposits the API shows, newest first (admin: any brand). */
/** Who paid, as the PSP reported it at confirm: what our team reads beside a deposit (never the operator's view). */
export interface PaidBy {
  cpf: string;
  name: string | null;
  bank: string | null;
  account: string | null;
}

/** One player's deposits, newest first, each with its payer (null when none was reported). */
export async function listPlayerDeposits(em: SqlRunner, playerId: string, limit: number): Promise<Array<DepositRow & { paidBy: PaidBy | null }>> {
  return em.query<DepositRow & { paidBy: PaidBy | null }>(
    `select ${COLUMNS}, case when payer_cpf is null then null
       else json_build_object('cpf', payer_cpf, 'name', payer_name, 'bank', payer_bank, 'account', payer_account) end as "paidBy"
     from payments.deposits where player_id = ? order by created_at desc, id desc limit ?`,
    [playerId, limit],
  );
}
