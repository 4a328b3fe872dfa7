// A confirm's step 3 (docs/money.md): `confirming → confirmed`, the `deposit.confirmed` outbox row
// and the stored answer under the key kept on the row, as ONE statement, written as a group
// commit's part (the kit's statement-group.ts; docs/money.md, "Group commit").
import { eventInsertFrom, keyFromRow, runAlone, storedAnswerInsertFrom, type OutboxRow, type SqlRunner, type StatementPart } from '@bo/service-kit';
import { CONFIRM_OPERATION, depositView, type DepositRow } from '../domain/deposits.ts';

/** A confirm's completion: the deposit as it ends, and (once its statement is built) the event it writes. */
export interface Completion {
  row: DepositRow;
  done: DepositRow;
  /** The outbox row of the statement that ran (set when the statement is built). */
  event?: OutboxRow;
}

function completionOf(row: DepositRow): Completion {
  const at = new Date();
  return { row, done: { ...row, status: 'confirmed', confirmedAt: at, updatedAt: at } };
}

/**
 * Step 3 as ONE statement (atomic without a transaction of its own, and fine inside the
 * reconciler's), written as a group commit's part (the kit's statement-group.ts): `confirming →
 * confirmed`, the `deposit.confirmed` outbox row and the stored response for the key that asked,
 * all only if the row is still `confirming`. Its row's `n` is 1 when it completed the deposit, 0
 * when someone else finished it first.
 */
function completionPart(c: Completion, s: string): StatementPart {
  const { row, done } = c;
  const view = depositView(done);
  const event = eventInsertFrom(
    'payments',
    `d${s}`,
    { operatorId: row.operatorId, brandId: row.brandId, environment: row.environment },
    'deposit.confirmed',
    view,
  );
  c.event = event.row;
  const ref = keyFromRow(row.confirmScope, row.confirmKey, row.confirmFingerprint);
  const answer = ref ? storedAnswerInsertFrom('payments', `d${s}`, ref, CONFIRM_OPERATION, 200, view, { ifAbsent: true }) : undefined;
  return {
    ctes: `d${s} as (update payments.deposits set status = 'confirmed', confirmed_at = ?, updated_at = ?, touched_at = now()
                where id = ? and status = 'confirming' returning id),
     o${s} as (${event.text})${answer ? `,\n     p${s} as (${answer.text})` : ''}`,
    params: [done.confirmedAt, done.updatedAt, row.id, ...event.params, ...(answer?.params ?? [])],
    select: `count(*)::int as n from d${s}`,
  };
}

/** The confirms' completions as a group commit (payments' `groupCommits`): one statement for those running at once. */
export const COMPLETION_GROUP = 'payments.deposits.complete';
export const completionStatements = { keyOf: (c: Completion) => c.row.id, part: completionPart };
export type CompleteConfirmations = (c: Completion) => Promise<{ n: number }[]>;

/**
 * Step 3: the confirmed deposit and its outbox row (to publish once committed), or undefined when
 * someone else finished it first. Through `group` when given, otherwise alone on `sql`.
 */
export async function completeConfirmation(
  sql: SqlRunner,
  row: DepositRow,
  group?: CompleteConfirmations,
): Promise<{ deposit: DepositRow; event: OutboxRow } | undefined> {
  const c = completionOf(row);
  const rows = group ? await group(c) : await runAlone<{ n: number }>(sql, completionPart(c, '_0'));
  return rows[0]?.n === 1 ? { deposit: c.done, event: c.event! } : undefined;
}
