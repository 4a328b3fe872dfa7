// The service's own idempotency record (design.md, "Idempotency in two layers"): the response to
// an Idempotency-Key is stored in the same transaction as the effect, so a retry after the
// gateway gave up (and released its key) gets the original answer, never a second effect.
// Refusals that are part of an effect (a withdrawal declined for funds) are stored too.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type ErrorBody, type RequestContext } from '@bo/contracts';
import { idempotencyScope, type HandlerResult } from '@bo/service-kit';

/** The key of a request: operator + environment (the gateway's scope) and the key itself. */
export interface RequestKey { scope: string; key: string }

export function requestKeyOf(ctx: RequestContext): RequestKey | undefined {
  const scope = idempotencyScope(ctx);
  return scope && ctx.idempotencyKey ? { scope, key: ctx.idempotencyKey } : undefined;
}

export function keyFromRow(scope: string | null, key: string | null): RequestKey | undefined {
  return scope && key ? { scope, key } : undefined;
}

/** A stored answer as the handler returns it: a result, or the stored error thrown again. */
export function replay(status: number, body: unknown): HandlerResult {
  if (status >= 400) throw AppError.fromBody((body as { error: ErrorBody }).error);
  return { status, body };
}

export async function findStored(em: EntityManager, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined> {
  if (!ref) return undefined;
  const rows = await em.execute<{ status: number; body: unknown; operation: string }[]>(
    'select status, body, operation from payments.processed_requests where scope = ? and idempotency_key = ?', [ref.scope, ref.key]);
  if (!rows[0]) return undefined;
  // Normally the gateway catches a key reused for another request; this covers the window after
  // it released the key.
  if (rows[0].operation !== operation) throw new AppError('IDEMPOTENCY_CONFLICT');
  return replay(rows[0].status, rows[0].body);
}

export async function storeResponse(tx: EntityManager, ref: RequestKey | undefined, operation: string, status: number, body: unknown): Promise<void> {
  if (!ref) return;
  await tx.execute(
    `insert into payments.processed_requests (scope, idempotency_key, operation, status, body) values (?, ?, ?, ?, ?)
     on conflict (scope, idempotency_key) do nothing`,
    [ref.scope, ref.key, operation, status, JSON.stringify(body)]);
}

export const errorResponse = (e: AppError): { status: number; body: { error: ErrorBody } } => ({ status: e.status, body: { error: e.toBody() } });

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null
    && ((e as { code?: string }).code === '23505' || e.constructor?.name === 'UniqueConstraintViolationException');
}

/**
 * Runs a one-transaction effect and stores its result under the request's key, unless a result
 * is stored already. Two racing requests with one key: the loser's insert of the record fails,
 * its effect rolls back, and it returns the winner's result.
 */
export async function runOnceStored(
  em: EntityManager, ref: RequestKey | undefined, operation: string,
  effect: (tx: EntityManager) => Promise<{ status: number; body: unknown }>,
): Promise<HandlerResult> {
  try {
    return await em.fork().transactional(async (tx) => {
      const prior = await findStored(tx, ref, operation);
      if (prior) return prior;
      const result = await effect(tx);
      if (ref) {
        await tx.execute(
          'insert into payments.processed_requests (scope, idempotency_key, operation, status, body) values (?, ?, ?, ?, ?)',
          [ref.scope, ref.key, operation, result.status, JSON.stringify(result.body)]);
      }
      return result;
    });
  } catch (e) {
    if (!isUniqueViolation(e) && !(e instanceof AppError)) throw e;
    const prior = await findStored(em.fork(), ref, operation);
    if (prior) return prior;
    throw e;
  }
}
