// Whose answer: the key of a request (the gateway's scope, operator + environment or `admin`, and
// the Idempotency-Key), from the request's context or remembered on a row that started a move.
import type { RequestContext } from '@bo/contracts';

/** Operator + environment, the gateway's idempotency scope. */
export function idempotencyScope(ctx: RequestContext): string | undefined {
  // The admin API's keys are one namespace of their own, as at the gateway.
  if (ctx.scope.kind === 'admin') return 'admin';
  return ctx.scope.kind === 'operator' ? `${ctx.scope.operatorId}:${ctx.scope.environment}` : undefined;
}

/** The key of a request: operator + environment (the gateway's scope) and the key itself. */
export interface RequestKey {
  scope: string;
  key: string;
  /** The gateway's fingerprint of the request, when it sent one. */
  fingerprint?: string;
  requestId?: string;
}

export function requestKeyOf(ctx: RequestContext): RequestKey | undefined {
  const scope = idempotencyScope(ctx);
  if (!scope || !ctx.idempotencyKey) return undefined;
  return { scope, key: ctx.idempotencyKey, requestId: ctx.requestId, ...(ctx.idempotencyFingerprint ? { fingerprint: ctx.idempotencyFingerprint } : {}) };
}

/** A key remembered on a row (the request that started a multi-step move), with its fingerprint and request id when remembered too. */
export function keyFromRow(
  scope: string | null,
  key: string | null,
  fingerprint: string | null = null,
  requestId: string | null = null,
): RequestKey | undefined {
  return scope && key ? { scope, key, ...(fingerprint ? { fingerprint } : {}), ...(requestId ? { requestId } : {}) } : undefined;
}

/** The columns and values of a stored answer's key (scope, key, fingerprint, request id), for statements that insert one. */
export const STORED_KEY_COLUMNS = 'scope, idempotency_key, fingerprint, request_id';
export const storedKeyValues = (ref: RequestKey): unknown[] => [ref.scope, ref.key, ref.fingerprint ?? null, ref.requestId ?? null];
