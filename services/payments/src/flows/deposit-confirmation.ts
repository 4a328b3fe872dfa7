// Confirm, steps 2 and 3 (docs/money.md): credit the wallet keyed by the deposit id, then record
// `confirmed`, the event and the stored response in one transaction. Used by the request that
// recorded the intent, by a retry with its key, and by the reconciler.
import type { EntityManager } from '@mikro-orm/postgresql';
import { WALLET_SUBJECTS, type WalletCredit } from '@bo/contracts';
import { crashPoint, writeEvent } from '@bo/service-kit';
import { depositView, type DepositRow } from '../domain/deposits.ts';
import { lockDeposit, markConfirmed, readDeposit } from '../persistence/deposit-store.ts';
import { keyFromRow, storeResponse } from '../persistence/stored-responses.ts';
import { inTransaction, type FlowDeps } from './context.ts';

export const CONFIRM_OPERATION = 'payments.deposits.confirm';

/** Step 2: idempotent by the deposit id, so repeating it after any crash is safe. */
export async function creditWallet(deps: FlowDeps, row: DepositRow): Promise<void> {
  const cmd: WalletCredit = { brandId: row.brandId, playerId: row.playerId, currency: row.currency, amount: row.amount, depositId: row.id };
  await deps.call(WALLET_SUBJECTS.credit, cmd);
  crashPoint('payments.confirm.after-credit');
}

/** Step 3 on a row locked by the caller and still `confirming`. */
export async function completeConfirmation(tx: EntityManager, row: DepositRow): Promise<DepositRow> {
  const done = await markConfirmed(tx, row, new Date());
  const view = depositView(done);
  await writeEvent(tx, 'payments', { operatorId: row.operatorId, brandId: row.brandId, environment: row.environment }, 'deposit.confirmed', view);
  await storeResponse(tx, keyFromRow(row.confirmScope, row.confirmKey), CONFIRM_OPERATION, 200, view);
  return done;
}

/** Steps 2 and 3 for a deposit whose intent is recorded; returns the deposit as it ends. */
export async function finishConfirmation(deps: FlowDeps, id: string): Promise<DepositRow> {
  const row = await readDeposit(deps.orm.em.fork(), id);
  if (!row) throw new Error(`deposit ${id} vanished`);
  if (row.status !== 'confirming') return row;
  await creditWallet(deps, row);
  const done = await inTransaction(deps, async (tx) => {
    const locked = (await lockDeposit(tx, id, undefined))!;
    // The reconciler (or a retry) may have finished it meanwhile: then there is nothing to do.
    return locked.status === 'confirming' ? completeConfirmation(tx, locked) : locked;
  });
  crashPoint('payments.confirm.after-complete');
  return done;
}
