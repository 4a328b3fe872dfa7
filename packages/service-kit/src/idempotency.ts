// Idempotency, written once (docs/architecture.md, "Idempotency"): the gateway claims the key in
// NATS KV (one request per key, whichever operation) and forwards key and fingerprint; the service
// that owns the operation keeps the key's answer in its `processed_requests`, through this module
// only. Two ways, both here:
// - the kit keeps it (AnswerStore.once, every operation by default): the key is claimed by a row
//   with a lease (a copy running elsewhere is 409 IDEMPOTENCY_IN_PROGRESS), the handler runs, and
//   its answer (2xx or 4xx) is stored; a 5xx releases the key. Admin answers are sealed at rest
//   when the service holds SECRETS_MASTER_KEY (they can carry a secret shown once);
// - the effect keeps it (`runOnce`, `storeResponse`, the SQL builders below for single-statement
//   money paths): the answer is written in the effect's own transaction, so a retry after a
//   gateway timeout or a crash finds it instead of repeating the effect. Refusals that are part of
//   an effect (a withdrawal declined for funds) are stored too and replayed as the same error.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, isAppError, type ErrorBody, type ErrorCode, type RequestContext } from '@bo/contracts';
import type { HandlerResult } from './handler-result.ts';
import { openSecret, sealSecret } from './secrets.ts';
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
 * The request's fingerprint (method, raw path, body hash) and id beside its stored answer: the
 * service refuses a key reused for another request, and a replayed refusal keeps the first
 * request's id.
 */
export function processedRequestsFingerprintSql(schema: string): string {
  return `alter table "${schema}".processed_requests add column if not exists fingerprint text, add column if not exists request_id text`;
}

/**
 * A row for a request still running (AnswerStore): no status nor body yet, and a lease
 * (`locked_until`) after which a retry of the same request takes the key over.
 */
export function processedRequestsClaimsSql(schema: string): string {
  return `alter table "${schema}".processed_requests alter column status drop not null, alter column body drop not null,
    add column if not exists locked_until timestamptz`;
}

/**
 * Who keeps the answer to a request with an Idempotency-Key (declared beside the handler,
 * `handle(op, fn, { answers })`): `kit` (the default) claims the key and stores the handler's
 * answer around it (AnswerStore.once); `effect` means the handler stores it in its effect's own
 * transaction (`runOnce`, `storeResponse`) and the kit keeps only its refusals; `none` for the
 * kit's own messages.
 */
export type AnswersWay = 'kit' | 'effect' | 'none';

/** The declaration of the handler running (set by `handle` around it), with the request it serves. */
interface Declared {
  subject: string;
  answers: AnswersWay;
  ctx: RequestContext | undefined;
}

const declared = new AsyncLocalStorage<Declared>();

/** Runs a handler with its declaration in reach of `runOnce` and `storeResponse` (serve.ts, `handle`). */
export function withAnswersDeclared<T>(subject: string, answers: AnswersWay, ctx: RequestContext | undefined, fn: () => T): T {
  return declared.run({ subject, answers, ctx }, fn);
}

/**
 * A handler that stores its own answer must be declared effect-way: under the kit's claim its own
 * insert meets the claim's row and it answers 409 IDEMPOTENCY_IN_PROGRESS to itself (runOnce), or
 * its answer is not kept with its effect (storeResponse). A programming error, thrown at its first
 * call whether the request has a key or not, so that any test that calls the handler shows it.
 * `ref`: only a store under the running request's own key counts (a move may store the answer of
 * the request that started it).
 */
function assertEffectWay(what: string, ref?: RequestKey): void {
  const d = declared.getStore();
  if (!d || d.answers === 'effect') return;
  if (ref) {
    const own = d.ctx ? requestKeyOf(d.ctx) : undefined;
    if (!own || own.scope !== ref.scope || own.key !== ref.key) return;
  }
  throw new Error(
    `${d.subject}: the handler calls ${what}, which stores its answer in its own transaction, but is declared { answers: '${d.answers}' }: declare it handle(op, fn, { answers: 'effect' })`,
  );
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

interface StoredRow {
  status: number | null;
  body: unknown;
  operation: string;
  fingerprint: string | null;
  request_id: string | null;
}

const SELECT_STORED = (schema: string) =>
  `select status, body, operation, fingerprint, request_id from "${schema}".processed_requests where scope = ? and idempotency_key = ?`;

/**
 * The key's answer as a stored row says it: a conflict when the key was another request's (the
 * edge's key claim catches it first; this check holds without it), in progress while its request
 * runs, otherwise the replay (opened with `sealedWith` when it was sealed).
 */
function answerOfRow(row: StoredRow, ref: RequestKey, operation: string, sealedWith?: string): HandlerResult {
  if (row.operation !== operation || (ref.fingerprint && row.fingerprint && row.fingerprint !== ref.fingerprint)) throw new AppError('IDEMPOTENCY_CONFLICT');
  if (row.status === null) throw new AppError('IDEMPOTENCY_IN_PROGRESS');
  const body = sealedWith && typeof row.body === 'string' && row.body.startsWith('v1.') ? JSON.parse(openSecret(row.body, sealedWith)) : row.body;
  return replayStored(row.status, body, row.request_id);
}

/** The stored answer to this key, if any; a key stored for another operation is a conflict. */
export async function findStored(sql: SqlRunner, schema: string, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined> {
  if (!ref) return undefined;
  const row = (await sql.query<StoredRow>(SELECT_STORED(schema), [ref.scope, ref.key]))[0];
  return row ? answerOfRow(row, ref, operation) : undefined;
}

/**
 * The statement pieces of a single-statement money path (payments' deposit create and confirm):
 * `storedAnswerInsertFrom` stores the answer from a CTE (`from`, one row when the effect happened);
 * `noStoredAnswer` is a condition true while the key has no stored answer. Params in text order.
 */
export function storedAnswerInsertFrom(
  schema: string,
  from: string,
  ref: RequestKey,
  operation: string,
  status: number,
  body: unknown,
  opts: { ifAbsent?: boolean } = {},
): { text: string; params: unknown[] } {
  return {
    text: `insert into "${schema}".processed_requests (${STORED_KEY_COLUMNS}, operation, status, body)
      select ?, ?, ?, ?, ?, ?, ?::json from ${from}${opts.ifAbsent ? ' on conflict (scope, idempotency_key) do nothing' : ''} returning 1`,
    params: [...storedKeyValues(ref), operation, status, JSON.stringify(body)],
  };
}

export function noStoredAnswer(schema: string, ref: RequestKey | undefined): { text: string; params: unknown[] } {
  return {
    text: `not exists (select 1 from "${schema}".processed_requests where scope = ? and idempotency_key = ?)`,
    params: [ref?.scope ?? '', ref?.key ?? ''],
  };
}

/**
 * A refusal (4xx) is the key's answer too (a validation error, a domain refusal, one the gateway
 * made itself): stored with the request's id, unless an answer is stored already, in which case
 * that one is the answer (replayed, or a conflict when the key was another request's). Returns or
 * throws the key's answer; anything but a first-time 4xx with a key is thrown as it is.
 */
export async function keepRefusal(sql: SqlRunner, schema: string, ctx: RequestContext, operation: string, err: unknown): Promise<HandlerResult> {
  const ref = requestKeyOf(ctx);
  if (!ref || !isStorableRefusal(err)) throw err;
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

/** A refusal that is this request's own first answer, to keep under its key (not a 5xx, not an idempotency refusal, not one stored already). */
function isStorableRefusal(err: unknown): err is AppError {
  return (
    isAppError(err) &&
    !(err instanceof ReplayedRefusal || err instanceof StoredRefusal) &&
    err.status < 500 &&
    err.code !== 'IDEMPOTENCY_CONFLICT' &&
    err.code !== 'IDEMPOTENCY_IN_PROGRESS'
  );
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
  assertEffectWay('storeResponse', ref);
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
  /**
   * A data-modifying statement the effect left to commit with its answer (an audit row), asked for
   * once the effect ran: it runs in the same statement as the answer's insert (a CTE), one round
   * trip less on a hot path; on its own when the request has no key.
   */
  withAnswer?: () => { text: string; params: unknown[] } | undefined;
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
  assertEffectWay('runOnce');
  const transaction = (fn: (tx: Tx) => Promise<HandlerResult>) => db.transaction(fn, { idempotent: ref !== undefined });
  try {
    return await transaction(async (tx) => {
      const run = db.runner(tx);
      const prior = opts.lookedUp ? undefined : await findStored(run, schema, ref, operation);
      if (prior) return prior;
      const result = await effect(tx);
      await db.beforeRecord?.(tx);
      const along = opts.withAnswer?.();
      if (ref) {
        await run.query(
          `${along ? `with along as (${along.text}) ` : ''}insert into "${schema}".processed_requests (${STORED_KEY_COLUMNS}, operation, status, body) values (?, ?, ?, ?, ?, ?, ?)`,
          [...(along?.params ?? []), ...storedKeyValues(ref), operation, result.status ?? 200, JSON.stringify(result.body)],
        );
      } else if (along) {
        await run.query(along.text, along.params);
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

export interface AnswerStoreOptions {
  sql: Sql;
  schema: string;
  /** How long an answer is kept (IDEMPOTENCY_TTL_SECONDS): an older one is a new request, even before retention deletes it. */
  ttlSeconds: number;
  /** How long a running request holds its key without renewing (IDEMPOTENCY_LEASE_SECONDS). */
  leaseSeconds: number;
  /** The admin API's answers are sealed at rest with it (SECRETS_MASTER_KEY), when the service holds it. */
  sealAdminAnswersWith?: string;
  /** A stored answer that could not be written, or a lease not renewed: logged, the answer is still sent. */
  onError(err: unknown, what: string): void;
}

/**
 * The service's stored answers, kept by the kit around a handler that does not store its own
 * (`once`), and the refusals of every operation (`keepRefusal`).
 */
export class AnswerStore {
  readonly #o: AnswerStoreOptions;
  constructor(o: AnswerStoreOptions) {
    this.#o = o;
  }

  keepRefusal(ctx: RequestContext, operation: string, err: unknown): Promise<HandlerResult> {
    return keepRefusal(this.#o.sql, this.#o.schema, ctx, operation, err);
  }

  /**
   * Runs `run` once per key: the first request claims the key, runs, and stores its answer (2xx
   * and 4xx; a 5xx releases the key for a retry); a copy while it runs is IDEMPOTENCY_IN_PROGRESS,
   * a later one gets the stored answer replayed, another request with the key a conflict. If the
   * answer cannot be stored (the database gone) it is still sent, and the key lapses with its lease.
   */
  async once(ctx: RequestContext, operation: string, run: () => Promise<HandlerResult>): Promise<HandlerResult> {
    const ref = requestKeyOf(ctx);
    if (!ref) return run();
    const prior = await this.#claim(ref, operation);
    if (prior) return prior;
    const stopRenewing = this.#keepAlive(ref);
    let result: HandlerResult;
    try {
      result = await run();
    } catch (e) {
      stopRenewing();
      if (isStorableRefusal(e)) await this.#complete(ref, e.status, { error: e.toBody() });
      else await this.#release(ref);
      throw e;
    }
    stopRenewing();
    await this.#complete(ref, result.status ?? 200, result.body);
    return result;
  }

  /** Claims the key with a lease, or returns (throws) the answer it has. */
  async #claim(ref: RequestKey, operation: string): Promise<HandlerResult | undefined> {
    const { sql, schema, ttlSeconds, leaseSeconds } = this.#o;
    // An answer past its time counts as absent; a lapsed lease is taken over by the same request.
    const claimed = await sql.query(
      `insert into "${schema}".processed_requests as k (${STORED_KEY_COLUMNS}, operation, status, body, locked_until)
       values (?, ?, ?, ?, ?, null, null, now() + make_interval(secs => ?))
       on conflict (scope, idempotency_key) do update
         set fingerprint = excluded.fingerprint, request_id = excluded.request_id, operation = excluded.operation,
             status = null, body = null, locked_until = excluded.locked_until, created_at = now()
         where k.created_at < now() - make_interval(secs => ?)
            or (k.status is null and k.locked_until < now() and k.operation = excluded.operation
                and k.fingerprint is not distinct from excluded.fingerprint)
       returning 1`,
      [...storedKeyValues(ref), operation, leaseSeconds, ttlSeconds],
    );
    if (claimed.length > 0) return undefined;
    const row = (await sql.query<StoredRow>(SELECT_STORED(schema), [ref.scope, ref.key]))[0];
    if (!row) return this.#claim(ref, operation); // released (a 5xx) between the two statements
    return answerOfRow(row, ref, operation, this.#o.sealAdminAnswersWith);
  }

  #keepAlive(ref: RequestKey): () => void {
    const { sql, schema, leaseSeconds } = this.#o;
    const timer = setInterval(
      () => {
        sql
          .query(
            `update "${schema}".processed_requests set locked_until = now() + make_interval(secs => ?)
              where scope = ? and idempotency_key = ? and status is null`,
            [leaseSeconds, ref.scope, ref.key],
          )
          .catch((err: unknown) => this.#o.onError(err, 'idempotency lease renewal failed'));
      },
      Math.max(200, (leaseSeconds * 1000) / 3),
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  async #complete(ref: RequestKey, status: number, body: unknown): Promise<void> {
    const seal = ref.scope === 'admin' ? this.#o.sealAdminAnswersWith : undefined;
    const text = JSON.stringify(body);
    try {
      await this.#o.sql.query(
        `update "${this.#o.schema}".processed_requests set status = ?, body = ?::json, locked_until = null
          where scope = ? and idempotency_key = ? and status is null`,
        [status, seal ? JSON.stringify(sealSecret(text, seal)) : text, ref.scope, ref.key],
      );
    } catch (err) {
      this.#o.onError(err, 'could not store the idempotent answer; the key is released when its lease lapses');
    }
  }

  async #release(ref: RequestKey): Promise<void> {
    await this.#o.sql
      .query(`delete from "${this.#o.schema}".processed_requests where scope = ? and idempotency_key = ? and status is null`, [ref.scope, ref.key])
      .catch((err: unknown) => this.#o.onError(err, 'could not release the idempotency key; it lapses with its lease'));
  }
}
