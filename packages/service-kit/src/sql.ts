// Plain SQL for the hot paths (docs/money.md, "Statements and commits"): the ORM's own `pg` pool,
// without its query layer, and every statement a named prepared statement, so Postgres parses and
// plans each text once per connection instead of once per call. Texts use `?` placeholders, as
// `em.execute` does; they are turned into `$1…` once per text.
import { createHash } from 'node:crypto';
import type { EntityManager, Kysely, MikroORM } from '@mikro-orm/postgresql';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { acquire, isDatabaseUnavailable, retryTransaction, type TransactionOptions } from './transaction-retry.ts';

/** Runs statements: on the pool (each one its own transaction) or inside a transaction. */
export interface SqlRunner {
  query<R extends QueryResultRow = QueryResultRow>(text: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface Sql extends SqlRunner {
  /**
   * BEGIN, `fn`, COMMIT on one connection; ROLLBACK when `fn` throws. Run again whole when its
   * connection is lost and `opts.idempotent` says that is safe (transaction-retry.ts).
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>, opts?: TransactionOptions): Promise<T>;
}

interface Prepared {
  name: string;
  text: string;
}
const prepared = new Map<string, Prepared>();

/**
 * `?` → `$n` outside quoted strings, identifiers and `--` comments (an apostrophe in a comment
 * must not open a string); the name is a hash of the text.
 */
export function prepare(text: string): Prepared {
  let found = prepared.get(text);
  if (found) return found;
  let out = '';
  let n = 0;
  let quote: string | undefined;
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (comment) {
      if (ch === '\n') comment = false;
      out += ch;
      continue;
    }
    if (quote) {
      if (ch === quote) quote = undefined;
      out += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
      continue;
    }
    if (ch === '-' && text[i + 1] === '-') {
      comment = true;
      out += ch;
      continue;
    }
    out += ch === '?' ? `$${++n}` : ch;
  }
  found = { name: `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text: out };
  prepared.set(text, found);
  return found;
}

async function queryOn<R extends QueryResultRow>(client: PoolClient, text: string, params: readonly unknown[] = []): Promise<R[]> {
  const p = prepare(text);
  const res = await client.query<R>({ name: p.name, text: p.text, values: params as unknown[] });
  return res.rows;
}

function runnerOf(client: PoolClient): SqlRunner {
  return { query: (text, params) => queryOn(client, text, params) };
}

export function sqlOnPool(pool: Pool): Sql {
  const transactionOnce = async <T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> => {
    const client = await acquire(pool);
    let broken: Error | undefined;
    try {
      await client.query('begin');
      const out = await fn(runnerOf(client));
      await client.query('commit');
      return out;
    } catch (e) {
      await client.query('rollback').catch((err: Error) => {
        broken = err;
      });
      throw e;
    } finally {
      // A connection that could not roll back is closed rather than returned to the pool.
      client.release(broken);
    }
  };
  return {
    // On a connection of our own (not pool.query) so that taking it is retried while the database
    // is away; a statement that was sent is not sent again.
    async query<R extends QueryResultRow>(text: string, params: readonly unknown[] = []): Promise<R[]> {
      const client = await acquire(pool);
      let lost: Error | undefined;
      try {
        return await queryOn<R>(client, text, params);
      } catch (e) {
        if (isDatabaseUnavailable(e)) lost = e as Error;
        throw e;
      } finally {
        client.release(lost);
      }
    },
    transaction: (fn, opts) => retryTransaction(() => transactionOnce(fn), opts),
  };
}

/**
 * `fn`'s reads in one snapshot (a REPEATABLE READ, READ ONLY transaction). A resource read from
 * several tables (a case, its interactions, its measures) by separate statements on the pool can be
 * read half before and half after another transaction's commit: a measure shown applied while the
 * case's log lacks the interaction the same commit wrote. Read-only, so run again whole if its
 * connection is lost.
 */
export function inOneSnapshot<T>(sql: Sql, fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
  return sql.transaction(
    async (tx) => {
      await tx.query('set transaction isolation level repeatable read, read only');
      return fn(tx);
    },
    { idempotent: true },
  );
}

/** As `inOneSnapshot`, with the ORM's entity manager: `fn` reads through the forked manager it is given. */
export function ormInOneSnapshot<T>(orm: MikroORM, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  return orm.em.fork().transactional(fn, { isolationLevel: 'repeatable read', readOnly: true });
}

/** The row of a statement that always returns exactly one (an aggregate, `insert … returning`, a CTE's final select). */
export function onlyRow<T>(rows: readonly T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('a statement that returns one row returned none');
  return row;
}

/** The constraint a statement failed as a unique violation (23505), if that is how it failed. */
export function uniqueViolation(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, constraint } = e as { code?: string; constraint?: string };
  return code === '23505' ? (constraint ?? '') : undefined;
}

// Rows read back carry Postgres' text form of a timestamp (`2026-11-22 16:01:02.123+00`), which V8
// parses only through its slow legacy path; made ISO first, it takes the fast one.
const PG_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)\+00$/;

/** A timestamp as the API shows it (ISO 8601 UTC, milliseconds), from a Date or a row's text. */
export function isoTime(d: Date | string): string;
export function isoTime(d: Date | string | null): string | null;
export function isoTime(d: Date | string | null): string | null {
  if (d === null) return null;
  if (typeof d === 'string') {
    const m = PG_TIMESTAMP.exec(d);
    return new Date(m ? `${m[1]}T${m[2]}Z` : d).toISOString();
  }
  return d.toISOString();
}

/**
 * The kit's SQL inside an entity manager's transaction (or, outside one, on the ORM's pool): the
 * outbox row and the stored answer of a change the ORM's unit of work makes, committed with it.
 * Unlike `em.execute`, which writes the values into the text, the parameters are bound (one text
 * per statement, never a value spliced into SQL); statements are unnamed on this path, which is
 * never a hot one.
 */
export function sqlIn(em: EntityManager): SqlRunner {
  return {
    async query<R extends QueryResultRow>(text: string, params: readonly unknown[] = []): Promise<R[]> {
      // biome-ignore lint/suspicious/noExplicitAny: the ORM's query builder is untyped here
      const db = em.getTransactionContext<Kysely<any>>() ?? em.getConnection().getClient();
      const statement = { sql: prepare(text).text, parameters: params };
      // The driver's connection runs the text with its parameters (pg's `client.query(text, values)`).
      const res = await db.getExecutor().provideConnection((conn) => conn.executeQuery<R>(statement as never));
      return res.rows;
    },
  };
}

/** Plain SQL on the ORM's connection pool (its type parsers: numerics and timestamps as strings). */
export async function openSql(orm: MikroORM): Promise<Sql> {
  return sqlOnPool((await orm.em.getConnection().getNativeClient()) as unknown as Pool);
}
