// Step 1 of a move a request starts on an existing row (payments: a deposit's confirm, a
// withdrawal's cancel), taken under the row's lock. The intent's key stays on the owning row's own
// columns (its scope, key and fingerprint); this is the rule that reads and records it: the intent
// is recorded with the request's key; or an earlier attempt of the same key recorded it, and this
// request finishes it; or a copy with our key finished it since we last looked, and its stored
// answer is ours; or the row is past the step, and the request is refused.
import { AppError, type ErrorCode } from '@bo/contracts';
import type { HandlerResult } from '../handler-result.ts';
import type { SqlRunner } from '../sql.ts';
import { findStored } from './effect-kept.ts';
import type { RequestKey } from './keys.ts';

/** A key already on another request's row (or the same key with another body): a conflict. */
export function assertSameRequest(fingerprint: string | null, ref: RequestKey | undefined): void {
  if (ref?.fingerprint && fingerprint && ref.fingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_CONFLICT');
}

/** The locked row as the step sees it: its status, and the key its intent was recorded with. */
export interface IntentRow {
  status: string;
  scope: string | null;
  key: string | null;
  fingerprint: string | null;
}

export interface IntentStep {
  /** The status the step starts from, and the one that records its intent. */
  from: string;
  to: string;
  /** Records the intent with the request's key. */
  mark(): Promise<void>;
  /** The refusal of a row past the step. */
  refusal: ErrorCode;
}

/**
 * Undefined when the move is this request's to finish; the key's stored answer (in `schema`'s
 * `processed_requests`) when there is one; otherwise the step's refusal.
 */
export async function recordIntent(
  tx: SqlRunner,
  schema: string,
  ref: RequestKey | undefined,
  operation: string,
  row: IntentRow,
  step: IntentStep,
): Promise<HandlerResult | undefined> {
  if (row.status === step.from) {
    await step.mark();
    return undefined;
  }
  const mine = ref && row.status === step.to && row.scope === ref.scope && row.key === ref.key;
  if (mine) {
    assertSameRequest(row.fingerprint, ref);
    return undefined; // our own earlier attempt recorded the intent: finish it
  }
  // A concurrent request with our key may have finished it since we last looked.
  const stored = await findStored(tx, schema, ref, operation);
  if (stored) return stored;
  throw new AppError(step.refusal);
}
