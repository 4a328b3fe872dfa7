// Service-level idempotency, one helper for every service (docs/architecture.md, "Idempotency
// layers"): the gateway's key travels in the message and the service stores the response in the
// same transaction as the effect. A retry after a gateway timeout (key released by the 5xx)
// therefore finds the stored response instead of repeating the effect. Refusals that are part of
// an effect (a withdrawal declined for funds) are stored too and replayed as the same error.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, isAppError, type ErrorBody, type ErrorCode, type RequestContext } from '@bo/contracts';
import type { HandlerResult } from './handler-result.ts';
import { sqlIn, uniqueViolation, type Sql, type SqlRunner } from './sql.ts';
import { retryTransaction, type TransactionOptions } from './transaction-retry.ts';

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

/**
 * The request's fingerprint (method, raw path, body hash) and id beside its stored answer: a
 * service that keeps an operation's idempotency records alone (the gateway keeps none for it)
 * refuses a key reused for another request, and a replayed refusal keeps the first request's id.
 */
export function processedRequestsFingerprintSql(schema: string): string {
  return `alter table "${schema}".processed_requests add column if not exists fingerprint text, add column if not exists request_id text`;
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

/** The stored answer to this key, if any; a key stored for another operation is a conflict. */
export async function findStored(sql: SqlRunner, schema: string, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined> {
  if (!ref) return undefined;
  const rows = await sql.query<{ status: number; body: unknown; operation: string; fingerprint: string | null; request_id: string | null }>(
    `select status, body, operation, fingerprint, request_id from "${schema}".processed_requests where scope = ? and idempotency_key = ?`,
    [ref.scope, ref.key],
  );
  const row = rows[0];
  if (!row) return undefined;
  // A key reused for another request. The gateway catches it first for the operations whose
  // records it keeps; for the others (serviceKeepsIdempotency) this is the only check.
  if (row.operation !== operation || (ref.fingerprint && row.fingerprint && row.fingerprint !== ref.fingerprint)) throw new AppError('IDEMPOTENCY_CONFLICT');
  return replayStored(row.status, row.body, row.request_id);
}

/**
 * A refusal (4xx) is the key's answer too, for an operation whose service keeps its idempotency
 * records: stored with the request's id, unless an answer is stored already, in which case that
 * one is the answer (replayed, or a conflict when the key was another request's). Returns or
 * throws the key's answer; anything but a first-time 4xx with a key is thrown as it is.
 */
export async function keepRefusal(sql: SqlRunner, schema: string, ctx: RequestContext, operation: string, err: unknown): Promise<HandlerResult> {
  const ref = requestKeyOf(ctx);
  if (!ref || !isAppError(err) || err instanceof ReplayedRefusal || err instanceof StoredRefusal || err.status >= 500 || err.code === 'IDEMPOTENCY_CONFLICT') {
    throw err;
  }
  const rows = await sql.query<{ n: number }>(
    `with ins as (insert into "${schema}".processed_requests (${STORED_KEY_COLUMNS}, operation, status, body) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (scope, idempotency_key) do nothing returning 1)
     select count(*)::int as n from ins`,
    [...storedKeyValues(ref), operation, err.status, JSON.stringify({ error: err.toBody() })],
  );
  if (rows[0]?.n === 1) throw err;
  const stored = await findStored(sql, schema, ref, operation);
  if (stored) return stored;
  throw err;
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
    `insert into "${schema}".processed_requests (${STORED_KEY_COLUMNS}, operation, status, body) values (?, ?, ?, ?, ?, ?, ?)
     on conflict (scope, idempotency_key) do nothing`,
    [...storedKeyValues(ref), operation, status, JSON.stringify(body)],
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
  transaction<T>(fn: (tx: Tx) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /** Statements inside the transaction, or on their own without one. */
  runner(tx?: Tx): SqlRunner;
  beforeRecord?(tx: Tx): Promise<void>;
}

export function sqlTransactor(sql: Sql): Transactor<SqlRunner> {
  return { transaction: (fn, opts) => sql.transaction(fn, opts), runner: (tx) => tx ?? sql };
}

/** The kit's SQL in the entity manager's transaction (sql.ts, `sqlIn`). */
export const ormRunner = (em: EntityManager): SqlRunner => sqlIn(em);

export function ormTransactor(em: EntityManager): Transactor<EntityManager> {
  return {
    transaction: (fn, opts) => retryTransaction(() => em.fork().transactional(fn), opts),
    runner: (tx) => ormRunner(tx ?? em.fork()),
    beforeRecord: (tx) => tx.flush(),
  };
}

/**
 * Runs a one-transaction `effect` and stores its answer under the request's key in that same
 * transaction, unless an answer is stored already. Two racing requests with one key: the loser
 * (it waited on a row lock or an index entry, then failed a check or the insert of the record)
 * rolls back and returns the winner's answer. With a key it is idempotent: a connection lost under
 * it (COMMIT included) runs it again whole, and that run finds the stored answer if the first
 * committed (transaction-retry.ts).
 */
export async function runOnce<Tx>(
  db: Transactor<Tx>,
  schema: string,
  ref: RequestKey | undefined,
  operation: string,
  effect: (tx: Tx) => Promise<HandlerResult>,
  opts: RunOnceOptions = {},
): Promise<HandlerResult> {
  const transaction = (fn: (tx: Tx) => Promise<HandlerResult>) => db.transaction(fn, { idempotent: ref !== undefined });
  try {
    return await transaction(async (tx) => {
      const run = db.runner(tx);
      const prior = opts.lookedUp ? undefined : await findStored(run, schema, ref, operation);
      if (prior) return prior;
      const result = await effect(tx);
      await db.beforeRecord?.(tx);
      if (ref) {
        await run.query(`insert into "${schema}".processed_requests (${STORED_KEY_COLUMNS}, operation, status, body) values (?, ?, ?, ?, ?, ?, ?)`, [
          ...storedKeyValues(ref),
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
