// One MikroORM per service, bound to that service's own Postgres schema. Migrations are SQL
// classes listed in code (no file discovery), run on start by one process at a time (an advisory
// lock per schema); their bookkeeping table lives in the service's schema so services never touch
// each other's tables.
import { MikroORM, type EntitySchema, type Constructor } from '@mikro-orm/postgresql';
import { Migrator, Migration } from '@mikro-orm/migrations';
import type { Pool } from 'pg';
import { openSql } from './sql.ts';
import type { Logger } from './log.ts';
import { waitForDependency } from './startup-wait.ts';
import { isDatabaseUnavailable } from './transaction-retry.ts';

export { Migration };
export type { MikroORM };

export interface DatabaseOptions {
  databaseUrl: string;
  /** The Postgres schema this service owns. */
  schema: string;
  // biome-ignore lint/suspicious/noExplicitAny: a registry of entities of every type
  entities: EntitySchema<any, any>[];
  migrations: { name: string; class: Constructor<Migration> }[];
  poolMax?: number;
  debug?: boolean;
  /** Where waiting for an unavailable database at start is said. */
  log?: Logger;
}

/**
 * A migration of statements the kit writes for its own tables in a service's schema (the outbox,
 * stored answers: outbox.ts, idempotency/tables.ts, retention.ts): one line in the service's list.
 */
export function kitMigration(...statements: string[]): Constructor<Migration> {
  return class extends Migration {
    override async up(): Promise<void> {
      for (const statement of statements) this.addSql(statement);
    }
  };
}

/** Creates the ORM and brings the service's schema up to date; waits for a database that is away (startup-wait.ts). */
export function openDatabase(opts: DatabaseOptions): Promise<MikroORM> {
  return waitForDependency('database', isDatabaseUnavailable, () => openOnce(opts), opts.log);
}

async function openOnce(opts: DatabaseOptions): Promise<MikroORM> {
  const orm = await MikroORM.init({
    clientUrl: opts.databaseUrl,
    entities: opts.entities,
    schema: opts.schema,
    extensions: [Migrator],
    debug: opts.debug ?? false,
    forceUtcTimezone: true,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    // JIT compiles a query that looks expensive to plan: milliseconds spent on statements of an
    // OLTP service that run in a fraction of one. (Postgres spans, when tracing is on: pg's
    // instrumentation, tracing.ts.)
    driverOptions: { options: '-c jit=off' },
    migrations: {
      migrationsList: opts.migrations,
      tableName: 'schema_migrations',
      schema: opts.schema,
      snapshot: false,
      silent: true,
      allOrNothing: true,
    },
    // The kit's own tables in every service's schema (outbox.ts, idempotency/tables.ts) are not entities:
    // the ORM's schema tools (the migration generator, the schema check of the ORM-owned tables)
    // leave them alone.
    schemaGenerator: { skipTables: ['outbox', 'processed_requests'] },
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
  });
  try {
    await migrateAlone(orm, opts.schema);
  } catch (e) {
    await orm.close().catch(() => undefined);
    throw e;
  }
  return orm;
}

/**
 * Creates the schema and runs its pending migrations while holding a Postgres advisory lock named
 * after the schema, on a connection of its own: replicas starting at once (a rollout) wait for the
 * first, then find its migrations applied, instead of racing it (two `create schema if not exists`
 * or two `create table` at once: one fails). The lock is the session's, so a process that dies
 * holding it releases it with its connection. All or nothing: migrations cut off by a lost
 * connection are run again whole.
 */
async function migrateAlone(orm: MikroORM, schema: string): Promise<void> {
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as Pool;
  const lock = await pool.connect();
  const key = `bo:migrations:${schema}`;
  let released = false;
  try {
    await lock.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]);
    await (await openSql(orm)).query(`create schema if not exists "${schema}"`);
    await orm.migrator.up();
    await lock.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]);
    released = true;
  } finally {
    // A connection that may still hold the lock is closed, not pooled: closing releases it.
    lock.release(!released);
  }
}

/**
 * For a service whose tables the ORM owns (its entities describe them whole): the statements that
 * would bring its migrated schema to what the entities describe, none when they agree. What a test
 * checks after the migrations, and the body of the next migration when an entity changed.
 */
export async function entitySchemaDrift(orm: MikroORM): Promise<string[]> {
  const { up } = await orm.schema.getUpdateSchemaMigrationSQL({ wrap: false });
  return up
    .split(/;\s*\n/)
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement.length > 0);
}
