// Service-level idempotency, one helper for every service (docs/architecture.md, "Idempotency
// layers"): the gateway's key travels in the message and the service stores the response in the
// same transaction as the effect. A retry after a gateway timeout (key released by the 5xx)
// therefore finds the stored response instead of repeating the effect. Refusals that are part of
// an effect (a withdrawal declined for funds) are stored too and replayed as the same error.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type ErrorBody, type ErrorCode, type RequestContext } from '@bo/contracts';
import type { HandlerResult } from './serve.ts';
import { uniqueViolation, type Sql, type SqlRunner } from './sql.ts';

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

/** Stored answers keep their JSON text as written (jsonb would reorder keys): a replay is the original bytes. */
export function processedRequestsKeepTextSql(schema: string): string {
  return `alter table "${schema}".processed_requests alter column body type json using body::json`;
}

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
}

export function requestKeyOf(ctx: RequestContext): RequestKey | undefined {
  const scope = idempotencyScope(ctx);
  return scope && ctx.idempotencyKey ? { scope, key: ctx.idempotencyKey } : undefined;
}

/** A key remembered on a row (the request that started a multi-step move). */
export function keyFromRow(scope: string | null, key: string | null): RequestKey | undefined {
  return scope && key ? { scope, key } : undefined;
}

/** A stored answer as the handler returns it: a result, or the stored error thrown again. */
export function replay(status: number, body: unknown): HandlerResult {
  if (status >= 400) throw AppError.fromBody((body as { error: ErrorBody }).error);
  return { status, body };
}

export const errorResponse = (e: AppError): { status: number; body: { error: ErrorBody } } => ({ status: e.status, body: { error: e.toBody() } });

/** The stored answer to this key, if any; a key stored for another operation is a conflict. */
export async function findStored(sql: SqlRunner, schema: string, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined> {
  if (!ref) return undefined;
  const rows = await sql.query<{ status: number; body: unknown; operation: string }>(
    `select status, body, operation from "${schema}".processed_requests where scope = ? and idempotency_key = ?`,
    [ref.scope, ref.key],
  );
  if (!rows[0]) return undefined;
  // Normally the gateway catches a key reused for another request; this covers the window after
  // it released the key.
  if (rows[0].operation !== operation) throw new AppError('IDEMPOTENCY_CONFLICT');
  return replay(rows[0].status, rows[0].body);
}

/** Stores the answer inside the caller's transaction; a second store for the key is a no-op. */
export async function storeResponse(
  tx: SqlRunner,
  schema: string,
  ref: RequestKey | undefined,
  operation: string,
  status: number,
  body: unknown,
): Promise<void> {
  if (!ref) return;
  await tx.query(
    `insert into "${schema}".processed_requests (scope, idempotency_key, operation, status, body) values (?, ?, ?, ?, ?)
     on conflict (scope, idempotency_key) do nothing`,
    [ref.scope, ref.key, operation, status, JSON.stringify(body)],
  );
}

export interface RunOnceOptions {
  /** The caller looked for a stored answer just before: skip the lookup inside the transaction (the insert still guards a race). */
  lookedUp?: boolean;
  /** Unique constraints that are domain rules (externalId per brand) and the error each means. */
  uniqueViolations?: Record<string, ErrorCode>;
}

/**
 * How runOnce opens a transaction: on plain SQL (the hot paths) or on the ORM (handlers that write
 * entities, whose unit of work is flushed before the record that claims it).
 */
export interface Transactor<Tx> {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Statements inside the transaction, or on their own without one. */
  runner(tx?: Tx): SqlRunner;
  beforeRecord?(tx: Tx): Promise<void>;
}

export function sqlTransactor(sql: Sql): Transactor<SqlRunner> {
  return { transaction: (fn) => sql.transaction(fn), runner: (tx) => tx ?? sql };
}

/** `em.execute` as a SqlRunner (same `?` placeholders). */
export const ormRunner = (em: EntityManager): SqlRunner => ({
  query: (text, params = []) => em.execute(text, params as unknown[]),
});

export function ormTransactor(em: EntityManager): Transactor<EntityManager> {
  return {
    transaction: (fn) => em.fork().transactional(fn),
    runner: (tx) => ormRunner(tx ?? em.fork()),
    beforeRecord: (tx) => tx.flush(),
  };
}

/**
 * Runs a one-transaction `effect` and stores its answer under the request's key in that same
 * transaction, unless an answer is stored already. Two racing requests with one key: the loser
 * (it waited on a row lock or an index entry, then failed a check or the insert of the record)
 * rolls back and returns the winner's answer.
 */
export async function runOnce<Tx>(
  db: Transactor<Tx>,
  schema: string,
  ref: RequestKey | undefined,
  operation: string,
  effect: (tx: Tx) => Promise<HandlerResult>,
  opts: RunOnceOptions = {},
): Promise<HandlerResult> {
  try {
    return await db.transaction(async (tx) => {
      const run = db.runner(tx);
      const prior = opts.lookedUp ? undefined : await findStored(run, schema, ref, operation);
      if (prior) return prior;
      const result = await effect(tx);
      await db.beforeRecord?.(tx);
      if (ref) {
        await run.query(`insert into "${schema}".processed_requests (scope, idempotency_key, operation, status, body) values (?, ?, ?, ?, ?)`, [
          ref.scope,
          ref.key,
          operation,
          result.status ?? 200,
          JSON.stringify(result.body),
        ]);
      }
      return result;
    });
  } catch (e) {
    const prior = await findStored(db.runner(), schema, ref, operation);
    if (prior) return prior;
    const constraint = uniqueViolation(e);
    const code = constraint ? opts.uniqueViolations?.[constraint] : undefined;
    if (code) throw new AppError(code);
    throw e;
  }
}
