// A stored answer given back: a result marked as a replay, or its refusal thrown again; how a
// stored row reads as the key's answer (a conflict, in progress, the replay); which refusals are kept.
import { AppError, isAppError, type ErrorBody } from '@bo/contracts';
import type { HandlerResult } from '../handler-result.ts';
import { openSecret } from '../secrets.ts';
import type { RequestKey } from './keys.ts';

/** A stored answer as the handler returns it: a result, or the stored error thrown again. */
export function replay(status: number, body: unknown): HandlerResult {
  if (status >= 400) throw AppError.fromBody((body as { error: ErrorBody }).error);
  return { status, body };
}

/**
 * A refusal stored under the key by an earlier request, thrown again: the reply says it is a
 * replay and carries that request's id, which the replayed error envelope keeps.
 */
export class ReplayedRefusal extends AppError {
  readonly requestId?: string;
  constructor(body: ErrorBody, requestId?: string) {
    super(body.code, body.message, body.details);
    this.requestId = requestId;
  }
}

/**
 * A refusal that is this request's first answer although it is stored under the key already: the
 * effect stored it with its own commit (a withdrawal declined for funds). Not a replay, and not
 * stored again.
 */
export class StoredRefusal extends AppError {}

/** A stored answer replayed: the result marked as a replay, or its refusal thrown as a ReplayedRefusal. */
function replayStored(status: number, body: unknown, requestId: string | null): HandlerResult {
  if (status >= 400) throw new ReplayedRefusal((body as { error: ErrorBody }).error, requestId ?? undefined);
  return { status, body, replayed: true };
}

export const errorResponse = (e: AppError): { status: number; body: { error: ErrorBody } } => ({ status: e.status, body: { error: e.toBody() } });

export interface StoredRow {
  status: number | null;
  body: unknown;
  operation: string;
  fingerprint: string | null;
  request_id: string | null;
}

export const SELECT_STORED = (schema: string) =>
  `select status, body, operation, fingerprint, request_id from "${schema}".processed_requests where scope = ? and idempotency_key = ?`;

/**
 * The key's answer as a stored row says it: a conflict when the key was another request's (the
 * edge's key claim catches it first; this check holds without it), in progress while its request
 * runs, otherwise the replay (opened with `sealedWith` when it was sealed).
 */
export function answerOfRow(row: StoredRow, ref: RequestKey, operation: string, sealedWith?: string): HandlerResult {
  if (row.operation !== operation || (ref.fingerprint && row.fingerprint && row.fingerprint !== ref.fingerprint)) throw new AppError('IDEMPOTENCY_CONFLICT');
  if (row.status === null) throw new AppError('IDEMPOTENCY_IN_PROGRESS');
  const body = sealedWith && typeof row.body === 'string' && row.body.startsWith('v1.') ? JSON.parse(openSecret(row.body, sealedWith)) : row.body;
  return replayStored(row.status, body, row.request_id);
}

/** A refusal that is this request's own first answer, to keep under its key (not a 5xx, not an idempotency refusal, not one stored already). */
export function isStorableRefusal(err: unknown): err is AppError {
  return (
    isAppError(err) &&
    !(err instanceof ReplayedRefusal || err instanceof StoredRefusal) &&
    err.status < 500 &&
    err.code !== 'IDEMPOTENCY_CONFLICT' &&
    err.code !== 'IDEMPOTENCY_IN_PROGRESS'
  );
}
