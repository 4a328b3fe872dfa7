// The effect keeps the answer (`{ answers: 'effect' }`): the handler stores it in its effect's own
// transaction (`runOnce`, `storeResponse`), or in the very statement of a single-statement money
// path (`storedAnswerInsertFrom`, `noStoredAnswer`), so a retry after a gateway timeout or a crash
// finds it instead of repeating the effect.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type ErrorCode } from '@bo/contracts';
import type { HandlerResult } from '../handler-result.ts';
import { sqlIn, uniqueViolation, type Sql, type SqlRunner } from '../sql.ts';
import { retryTransaction, type TransactionOptions } from '../transaction-retry.ts';
import { assertEffectWay } from './declared.ts';
import { STORED_KEY_COLUMNS, storedKeyValues, type RequestKey } from './keys.ts';
import { answerOfRow, SELECT_STORED, type StoredRow } from './replay.ts';

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
