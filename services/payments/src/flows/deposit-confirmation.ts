// Confirm, steps 2 and 3 (docs/money.md): credit the wallet keyed by the deposit id, then record
// `confirmed`, the event and the stored response, atomically (store/deposit-completion.ts). Used by the request that recorded
// the intent, by a retry with its key, and by the reconciler.
import { WALLET_SUBJECTS, type WalletCredit } from '@bo/contracts';
import { crashPoint } from '@bo/service-kit';
import type { DepositRow } from '../domain/deposits.ts';
import { completeConfirmation, type CompleteConfirmations } from '../store/deposit-completion.ts';
import { readDeposit } from '../store/deposit-store.ts';
import type { FlowDeps } from './context.ts';

/** Step 2: idempotent by the deposit id, so repeating it after any crash is safe. */
export async function creditWallet(deps: FlowDeps, row: DepositRow): Promise<void> {
  const cmd: WalletCredit = { brandId: row.brandId, playerId: row.playerId, currency: row.currency, amount: row.amount, depositId: row.id };
  await deps.call(WALLET_SUBJECTS.credit, cmd);
  crashPoint('payments.confirm.after-credit');
}

/** Steps 2 and 3 for a deposit whose intent is recorded; returns the deposit as it ends. */
export async function finishConfirmation(deps: FlowDeps, id: string, intent?: DepositRow, group?: CompleteConfirmations): Promise<DepositRow> {
  const row = intent ?? (await readDeposit(deps.sql, id));
  if (!row) throw new Error(`deposit ${id} vanished`);
  if (row.status !== 'confirming') return row;
  await creditWallet(deps, row);
  // The reconciler (or a retry) may have finished it meanwhile: then its row is the answer.
  const completed = await completeConfirmation(deps.sql, row, group);
  // Committed (one statement): its event goes out now rather than through a relay read.
  if (completed) deps.outbox.publishCommitted([completed.event]);
  const done = completed?.deposit ?? (await readDeposit(deps.sql, id));
  crashPoint('payments.confirm.after-complete');
  return done!;
}
