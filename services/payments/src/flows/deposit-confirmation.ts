// Confirm, steps 2 and 3 (docs/money.md): credit the wallet keyed by the deposit id, then record
// `confirmed`, the event and the stored response, atomically. Used by the request that recorded
// the intent, by a retry with its key, and by the reconciler.
import { WALLET_SUBJECTS, type WalletCredit } from '@bo/contracts';
import { crashPoint, eventInsertFrom, onlyRow, storedAnswerInsertFrom, type OutboxRow, type SqlRunner } from '@bo/service-kit';
import { depositView, type DepositRow } from '../domain/deposits.ts';
import { readDeposit } from '../store/deposit-store.ts';
import { keyFromRow } from '../store/stored-responses.ts';
import type { FlowDeps } from './context.ts';

export const CONFIRM_OPERATION = 'payments.deposits.confirm';

/** Step 2: idempotent by the deposit id, so repeating it after any crash is safe. */
export async function creditWallet(deps: FlowDeps, row: DepositRow): Promise<void> {
  const cmd: WalletCredit = { brandId: row.brandId, playerId: row.playerId, currency: row.currency, amount: row.amount, depositId: row.id };
  await deps.call(WALLET_SUBJECTS.credit, cmd);
  crashPoint('payments.confirm.after-credit');
}

/**
 * Step 3 as ONE statement (atomic without a transaction of its own, and fine inside the
 * reconciler's): `confirming → confirmed`, the `deposit.confirmed` outbox row and the stored
 * response for the key that asked, all only if the row is still `confirming`. Returns the
 * confirmed deposit and its outbox row (to publish once committed), or undefined when someone else
 * finished it first.
 */
export async function completeConfirmation(sql: SqlRunner, row: DepositRow): Promise<{ deposit: DepositRow; event: OutboxRow } | undefined> {
  const at = new Date();
  const done: DepositRow = { ...row, status: 'confirmed', confirmedAt: at, updatedAt: at };
  const view = depositView(done);
  const event = eventInsertFrom('payments', 'd', { operatorId: row.operatorId, brandId: row.brandId, environment: row.environment }, 'deposit.confirmed', view);
  const ref = keyFromRow(row.confirmScope, row.confirmKey, row.confirmFingerprint);
  const answer = ref ? storedAnswerInsertFrom('payments', 'd', ref, CONFIRM_OPERATION, 200, view, { ifAbsent: true }) : undefined;
  const { n } = onlyRow(
    await sql.query<{ n: number }>(
      `with d as (update payments.deposits set status = 'confirmed', confirmed_at = ?, updated_at = ?, touched_at = now()
                where id = ? and status = 'confirming' returning id),
     o as (${event.text})
     ${answer ? `, p as (${answer.text})` : ''}
     select count(*)::int as n from d`,
      [at, at, row.id, ...event.params, ...(answer?.params ?? [])],
    ),
  );
  return n === 1 ? { deposit: done, event: event.row } : undefined;
}

/** Steps 2 and 3 for a deposit whose intent is recorded; returns the deposit as it ends. */
export async function finishConfirmation(deps: FlowDeps, id: string, intent?: DepositRow): Promise<DepositRow> {
  const row = intent ?? (await readDeposit(deps.sql, id));
  if (!row) throw new Error(`deposit ${id} vanished`);
  if (row.status !== 'confirming') return row;
  await creditWallet(deps, row);
  // The reconciler (or a retry) may have finished it meanwhile: then its row is the answer.
  const completed = await completeConfirmation(deps.sql, row);
  // Committed (one statement): its event goes out now rather than through a relay read.
  if (completed) deps.outbox.publishCommitted([completed.event]);
  const done = completed?.deposit ?? (await readDeposit(deps.sql, id));
  crashPoint('payments.confirm.after-complete');
  return done!;
}
