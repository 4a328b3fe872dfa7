// Service-level idempotency: the gateway's key travels in the message and the service stores the
// result in the same transaction as the effect. A retry after a gateway timeout (key released
// by the 5xx) therefore finds the stored result instead of repeating the effect.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '@bo/contracts';
import type { HandlerResult } from './serve.ts';

export function processedRequestsTableSql(schema: string): string {
  return `create table if not exists "${schema}".processed_requests (
    scope text not null,
    idempotency_key text not null,
    operation text not null,
    status integer not null,
    body jsonb not null,
    created_at timestamptz not null default now(),
    primary key (scope, idempotency_key)
  )`;
}

/** Operator + environment, the gateway's idempotency scope. */
export function idempotencyScope(ctx: RequestContext): string | undefined {
  // The admin API's keys are one namespace of their own, as at the gateway.
  if (ctx.scope.kind === 'admin') return 'admin';
  return ctx.scope.kind === 'operator' ? `${ctx.scope.operatorId}:${ctx.scope.environment}` : undefined;
}

export async function findProcessed(em: EntityManager, schema: string, ctx: RequestContext): Promise<HandlerResult | undefined> {
  const scope = idempotencyScope(ctx);
  if (!scope || !ctx.idempotencyKey) return undefined;
  const rows = await em.execute<{ status: number; body: unknown }[]>(
    `select status, body from "${schema}".processed_requests where scope = ? and idempotency_key = ?`, [scope, ctx.idempotencyKey]);
  return rows[0] ? { status: rows[0].status, body: rows[0].body } : undefined;
}

export async function recordProcessed(em: EntityManager, schema: string, ctx: RequestContext, operation: string, result: HandlerResult): Promise<void> {
  const scope = idempotencyScope(ctx);
  if (!scope || !ctx.idempotencyKey) return;
  await em.execute(
    `insert into "${schema}".processed_requests (scope, idempotency_key, operation, status, body) values (?, ?, ?, ?, ?)`,
    [scope, ctx.idempotencyKey, operation, result.status ?? 200, JSON.stringify(result.body)]);
}

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && ((e as { code?: string }).code === '23505' || e.constructor?.name === 'UniqueConstraintViolationException');
}

/**
 * Runs `effect` in one transaction together with the record of its result, unless a result for
 * this key is already stored. Two racing requests with one key: the loser's transaction fails on
 * the primary key and rolls back its effect, then it returns the winner's result.
 */
export async function runOnce(
  em: EntityManager, schema: string, ctx: RequestContext, operation: string,
  effect: (tx: EntityManager) => Promise<HandlerResult>,
): Promise<HandlerResult> {
  try {
    return await em.fork().transactional(async (tx) => {
      const prior = await findProcessed(tx, schema, ctx);
      if (prior) return prior;
      const result = await effect(tx);
      await tx.flush();
      await recordProcessed(tx, schema, ctx, operation, result);
      return result;
    });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const prior = await findProcessed(em.fork(), schema, ctx);
    if (prior) return prior;
    throw e;
  }
}
