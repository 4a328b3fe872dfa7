// SQL for withdrawals. Every state change happens on a row locked FOR UPDATE.
import { deciderOf, type DecisionAuthor, type ListPosition, type RequestKey, type SqlRunner } from '@bo/service-kit';
import type { Environment, ReviewQueueOrder } from '@bo/contracts';
import type { WithdrawalRow, WithdrawalRowStatus } from '../domain/withdrawals.ts';
import type { ClockState } from '../domain/prize-clock.ts';
import { MOVEMENT_COLUMNS, movementValues } from '../domain/money-movement.ts';

import { rowById } from './of-brand.ts';

const COLUMNS = `id, operator_id as "operatorId", brand_id as "brandId", environment, player_id as "playerId", amount, currency,
  method, destination, status, request_scope as "requestScope", request_key as "requestKey", request_fingerprint as "requestFingerprint", request_id as "requestId",
  action_scope as "actionScope", action_key as "actionKey", action_fingerprint as "actionFingerprint", approved_by as "approvedBy",
  approver_id as "approverId", decided_by as "decidedBy", payout_due_at as "payoutDueAt", created_at as "createdAt", updated_at as "updatedAt"`;

export const TRANSITIONAL: readonly WithdrawalRowStatus[] = ['reserving', 'cancelling', 'rejecting', 'paying'];

/** A withdrawal of the brand (any brand when `brandId` is undefined), locked. */
export async function lockWithdrawal(
  tx: SqlRunner,
  id: string,
  brandId: string | undefined,
  opts: { skipLocked?: boolean } = {},
): Promise<WithdrawalRow | undefined> {
  return rowById<WithdrawalRow>(tx, 'payments.withdrawals', COLUMNS, id, brandId, opts.skipLocked ? ' for update skip locked' : ' for update');
}

export async function readWithdrawal(sql: SqlRunner, id: string, brandId?: string): Promise<WithdrawalRow | undefined> {
  return rowById<WithdrawalRow>(sql, 'payments.withdrawals', COLUMNS, id, brandId);
}

export async function findByRequestKey(em: SqlRunner, scope: string, key: string): Promise<WithdrawalRow | undefined> {
  return (await em.query<WithdrawalRow>(`select ${COLUMNS} from payments.withdrawals where request_scope = ? and request_key = ?`, [scope, key]))[0];
}

/**
 * Forgets the create's key on withdrawals older than `olderThanSeconds` whose create has been
 * answered (a `reserving` row is still its key's move), at most `batch`; returns how many. Once
 * forgotten, the key is a new request (keys are kept 24 h, docs/decisions.md).
 */
export async function forgetExpiredRequestKeys(sql: SqlRunner, olderThanSeconds: number, batch: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with f as (select id from payments.withdrawals where request_key is not null and created_at < now() - make_interval(secs => ?) and status <> 'reserving'
       order by created_at limit ? for update skip locked),
     u as (update payments.withdrawals w set request_scope = null, request_key = null, request_fingerprint = null, request_id = null from f where w.id = f.id returning 1)
     select count(*)::int as n from u`,
    [olderThanSeconds, batch],
  );
  return rows[0]?.n ?? 0;
}

/** Inserts the `reserving` row unless one exists for the request's key; returns the row's id. */
export async function insertReserving(tx: SqlRunner, row: WithdrawalRow): Promise<string> {
  const inserted = await tx.query<{ id: string }>(
    `insert into payments.withdrawals (${MOVEMENT_COLUMNS}, destination, status,
       request_scope, request_key, request_fingerprint, request_id, payout_due_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'reserving', ?, ?, ?, ?, ?, ?, ?) on conflict (request_scope, request_key) do nothing returning id`,
    [
      ...movementValues(row),
      row.destination,
      row.requestScope,
      row.requestKey,
      row.requestFingerprint,
      row.requestId,
      row.payoutDueAt,
      row.createdAt,
      row.updatedAt,
    ],
  );
  if (inserted[0]) return inserted[0].id;
  return (await findByRequestKey(tx, row.requestScope!, row.requestKey!))!.id;
}

/** Records the intent of a move (the visible status and updatedAt do not change yet). */
/** The intent of a move; `decidedBy`: the person whose decision it is (its completion audits it), none for a simulation or a cancel. */
export async function markIntent(tx: SqlRunner, id: string, status: WithdrawalRowStatus, action?: RequestKey, decidedBy?: DecisionAuthor): Promise<void> {
  await tx.query(
    `update payments.withdrawals set status = ?, action_scope = ?, action_key = ?, action_fingerprint = ?, decided_by = ?::jsonb, touched_at = now() where id = ?`,
    [status, action?.scope ?? null, action?.key ?? null, action?.fingerprint ?? null, decidedBy ? JSON.stringify(decidedBy) : null, id],
  );
}

export async function markStatus(tx: SqlRunner, row: WithdrawalRow, status: WithdrawalRowStatus, at: Date): Promise<WithdrawalRow> {
  await tx.query(`update payments.withdrawals set status = ?, updated_at = ?, touched_at = now() where id = ?`, [status, at, row.id]);
  return { ...row, status, updatedAt: at };
}

/** An approval: the move to `approved`, naming the person and keeping their identity (four eyes checks it at pay time); none for a simulation. */
export async function markApproved(tx: SqlRunner, row: WithdrawalRow, by: DecisionAuthor | undefined, at: Date): Promise<WithdrawalRow> {
  const approvedBy = by?.actor ?? null;
  const approverId = by ? deciderOf(by) : null;
  await tx.query(`update payments.withdrawals set status = 'approved', approved_by = ?, approver_id = ?, updated_at = ?, touched_at = now() where id = ?`, [
    approvedBy,
    approverId,
    at,
    row.id,
  ]);
  return { ...row, status: 'approved', approvedBy, approverId, updatedAt: at };
}

/** The operator's four-eyes threshold: withdrawals of at least this amount need a second person. */
export async function fourEyesOf(em: SqlRunner, operatorId: string): Promise<{ minAmount: string; updatedAt: Date | null; updatedBy: string | null }> {
  const rows = await em.query<{ minAmount: string; updatedAt: Date; updatedBy: string }>(
    `select min_amount as "minAmount", updated_at as "updatedAt", updated_by as "updatedBy" from payments.four_eyes where operator_id = ?`,
    [operatorId],
  );
  return rows[0] ?? { minAmount: '0.00', updatedAt: null, updatedBy: null };
}

export async function setFourEyes(tx: SqlRunner, operatorId: string, minAmount: string, actor: string): Promise<void> {
  await tx.query(
    `insert into payments.four_eyes (operator_id, min_amount, updated_at, updated_by) values (?, ?, now(), ?)
     on conflict (operator_id) do update set min_amount = excluded.min_amount, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [operatorId, minAmount, actor],
  );
}

/** One player's withdrawals the API shows, newest first. */
export async function listPlayerWithdrawals(
  em: SqlRunner,
  playerId: string,
  statuses: WithdrawalRowStatus[] | undefined,
  limit: number,
): Promise<WithdrawalRow[]> {
  const shown = statuses ?? ['under_review', 'approved', 'paid', 'rejected', 'cancelled', 'failed', 'cancelling', 'rejecting', 'paying'];
  return em.query<WithdrawalRow>(
    `select ${COLUMNS} from payments.withdrawals where player_id = ? and status in (${shown.map(() => '?').join(', ')})
     order by created_at desc, id desc limit ?`,
    [playerId, ...shown, limit],
  );
}

export async function staleWithdrawals(em: SqlRunner, olderThanMs: number, limit: number): Promise<string[]> {
  const rows = await em.query<{ id: string }>(
    `select id from payments.withdrawals where status in (${TRANSITIONAL.map(() => '?').join(', ')})
     and touched_at < now() - (? * interval '1 millisecond') order by touched_at limit ?`,
    [...TRANSITIONAL, olderThanMs, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * What the review queue orders by: the request's time (`created`), or the payout deadline
 * (`payout_due`), rows without one after every row with one ('infinity', which a cursor position
 * carries as such), ties by id (time-sortable: oldest first).
 */
const QUEUE_KEY: Record<ReviewQueueOrder, string> = {
  created: 'created_at',
  payout_due: `coalesce(payout_due_at, 'infinity'::timestamptz)`,
};

/** A row's position in the queue's order, as its cursor carries it. */
export function queuePosition(order: ReviewQueueOrder, r: WithdrawalRow): ListPosition {
  const at = order === 'created' ? r.createdAt : r.payoutDueAt;
  return { at: at === null ? 'infinity' : new Date(at).toISOString(), id: r.id };
}

/** The review queue in `order`, after the cursor's position. */
export async function listWithdrawals(
  em: SqlRunner,
  statuses: WithdrawalRowStatus[],
  limit: number,
  after?: ListPosition,
  order: ReviewQueueOrder = 'created',
  environment?: Environment,
): Promise<WithdrawalRow[]> {
  const key = QUEUE_KEY[order];
  const params: unknown[] = [...statuses];
  let where = '';
  // One environment's queue (issue #61: production apart from the sandbox), or both.
  if (environment) {
    where += ' and environment = ?';
    params.push(environment);
  }
  if (after) {
    where += ` and (${key}, id) > (?::timestamptz, ?)`;
    params.push(after.at, after.id);
  }
  params.push(limit + 1);
  return em.query<WithdrawalRow>(
    `select ${COLUMNS} from payments.withdrawals where status in (${statuses.map(() => '?').join(', ')}) ${where}
     order by ${key}, id limit ?`,
    params,
  );
}

/** The operator's automatic approval amount (null: off, the default). */
export async function autoApprovalOf(
  em: SqlRunner,
  operatorId: string,
): Promise<{ belowAmount: string | null; updatedAt: Date | null; updatedBy: string | null }> {
  const rows = await em.query<{ belowAmount: string | null; updatedAt: Date; updatedBy: string }>(
    `select below_amount as "belowAmount", updated_at as "updatedAt", updated_by as "updatedBy" from payments.auto_approval where operator_id = ?`,
    [operatorId],
  );
  return rows[0] ?? { belowAmount: null, updatedAt: null, updatedBy: null };
}

export async function setAutoApproval(tx: SqlRunner, operatorId: string, belowAmount: string | null, actor: string): Promise<void> {
  await tx.query(
    `insert into payments.auto_approval (operator_id, below_amount, updated_at, updated_by) values (?, ?, now(), ?)
     on conflict (operator_id) do update set below_amount = excluded.below_amount, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [operatorId, belowAmount, actor],
  );
}

/** br-spa withdrawals waiting for their payout (under review, approved, being paid), by where they stand against their deadline at `now`. */
export async function payoutClockCounts(em: SqlRunner, now: Date, nearMinutes: number): Promise<Record<ClockState, number>> {
  const rows = await em.query<{ ahead: number; near: number; overdue: number }>(
    `select count(*) filter (where payout_due_at > ?::timestamptz + make_interval(mins => ?))::int as ahead,
            count(*) filter (where payout_due_at > ?::timestamptz and payout_due_at <= ?::timestamptz + make_interval(mins => ?))::int as near,
            count(*) filter (where payout_due_at <= ?::timestamptz)::int as overdue
     from payments.withdrawals where payout_due_at is not null and status in ('under_review', 'approved', 'paying')`,
    [now, nearMinutes, now, now, nearMinutes, now],
  );
  const r = rows[0];
  return { ahead: r?.ahead ?? 0, near: r?.near ?? 0, overdue: r?.overdue ?? 0 };
}
