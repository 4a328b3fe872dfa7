// What a service holds about a player, for the LGPD (issue #69; docs/privacy.md): each service writes
// a catalogue of its own tables (which hold a player's rows, how they are found, their category, and
// how each is anonymised) and serves the two messages the players service's data requests and
// retention sweep use: `<service>.personalData.export` (every row about the player, whole but for the
// columns the catalogue calls internal) and `<service>.personalData.anonymise` (the categories asked,
// idempotent: a row already anonymised is not changed again). Every other table of the schema is
// listed as holding nothing about a player, with why; a test reads the schema and fails on a table the
// catalogue does not name (personalDataCoverage below).
import {
  personalDataMessages,
  type Anonymised,
  type PersonalDataCategoryName,
  type PersonalDataCursor,
  type PersonalDataExport,
  type PersonalDataTable,
} from '@bo/contracts';
import { handle, type Handler } from './serve.ts';
import type { ServiceDeps } from './service.ts';
import type { SqlRunner } from './sql.ts';

export interface PlayerTable {
  /** The category of the table's rows; `columns` names the columns of another. */
  category: PersonalDataCategoryName;
  columns?: Record<string, PersonalDataCategoryName>;
  /** The condition that picks the player's rows: columns of this table, one `?` for the player id. */
  rowsOf: string;
  /** The order of the exported rows (a column list). */
  orderBy: string;
  /** Columns left out of the export: secrets, hashes, leases (never a datum about the player). */
  internal?: string[];
  /**
   * column → SQL expression of its anonymised value, applied when the column's category is
   * anonymised. Absent: the table keeps only pseudonymous ids, amounts and times, which stay (the
   * ledger must verify after anonymisation).
   */
  anonymise?: Record<string, string>;
  /**
   * The transaction-local setting an append-only table's trigger reads to let an anonymisation
   * through (never a delete): `bo.anonymising`.
   */
  appendOnly?: true;
  /** The column of when a row's data was collected, for a category kept from collection (`connection`). */
  collectedAt?: string;
}

export interface PersonalDataCatalogue {
  service: string;
  schema: string;
  /** Tables with rows about a player. */
  players: Record<string, PlayerTable>;
  /** Every other table of the schema, with why it holds nothing about a player. */
  none: Record<string, string>;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The kit's tables in every schema: none holds a datum about a player for long. */
export const KIT_TABLES_WITHOUT_PLAYERS: Record<string, string> = {
  outbox: 'events on their way to JetStream: a published row is deleted after OUTBOX_RETENTION_SECONDS (24 h)',
  processed_requests: 'stored answers of idempotent requests, forgotten after IDEMPOTENCY_TTL_SECONDS (24 h)',
  schema_migrations: 'the migrations run',
};

/**
 * How much of a service's export one NATS message carries, in characters of JSON (a character of
 * Portuguese text is at most two bytes of UTF-8: half of the server's 1 MB `max_payload`, with room).
 */
export const EXPORT_PAGE_CHARS = 250_000;
/** Rows read from a table at a time while a page fills. */
const EXPORT_ROWS_AT_A_TIME = 500;

/**
 * Every row about the player, table by table, as JSON (a column's number as its exact text, times as
 * ISO strings), in pages: from `after` (a previous page's `next`) until about `pageChars` characters
 * are taken (at least one row, so every page moves on); `next` says where the following page starts.
 * Rows are read in the catalogue's order, so an offset names the same rows from page to page.
 */
export async function exportPersonalData(
  sql: SqlRunner,
  c: PersonalDataCatalogue,
  playerId: string,
  page: { after?: PersonalDataCursor; pageChars?: number } = {},
): Promise<PersonalDataExport> {
  const names = Object.keys(c.players);
  const first = page.after ? names.indexOf(page.after.table) : 0;
  if (first < 0) throw new Error(`no table ${page.after!.table} in ${c.service}'s personal-data catalogue`);
  const budget = page.pageChars ?? Number.POSITIVE_INFINITY;
  const tables: PersonalDataTable[] = [];
  let taken = 0;
  for (const table of names.slice(first)) {
    const t = c.players[table]!;
    const internal = (t.internal ?? []).map((col) => `- '${col}'`).join(' ');
    const out: PersonalDataTable = { table: `${c.schema}.${table}`, category: t.category, columns: t.columns ?? {}, rows: [] };
    tables.push(out);
    let offset = page.after && table === page.after.table ? page.after.offset : 0;
    for (;;) {
      const rows = await sql.query<{ row: Record<string, unknown> }>(
        // A number leaves as its text (`100.00`, never the float 100): money is never a float, here too.
        `select (select coalesce(jsonb_object_agg(key, case when jsonb_typeof(value) = 'number' then to_jsonb(value #>> '{}') else value end), '{}')
                   from jsonb_each(to_jsonb(x) ${internal})) as row
           from ${ident(c.schema)}.${ident(table)} x where ${t.rowsOf} order by ${t.orderBy} limit ? offset ?`,
        [playerId, EXPORT_ROWS_AT_A_TIME, offset],
      );
      for (const { row } of rows) {
        if (taken > 0 && taken >= budget) return { service: c.service, tables, next: { table, offset } };
        out.rows.push(row);
        taken += JSON.stringify(row).length;
        offset++;
      }
      if (rows.length < EXPORT_ROWS_AT_A_TIME) break;
    }
  }
  return { service: c.service, tables, next: null };
}

/**
 * Anonymises the categories asked, in the transaction `tx` (the kit's anonymisePersonalData opens
 * one); rows already anonymised count 0. `collectedBefore`: only the rows of tables with a
 * `collectedAt` collected before it (a retention counted from collection, `connection`).
 */
export async function anonymiseIn(
  tx: SqlRunner,
  c: PersonalDataCatalogue,
  playerId: string,
  categories: readonly string[],
  collectedBefore?: Date,
): Promise<Anonymised> {
  const rows: Record<string, number> = {};
  await tx.query(`select set_config('bo.anonymising', 'on', true)`);
  for (const [table, t] of Object.entries(c.players)) {
    const sets = Object.entries(t.anonymise ?? {}).filter(([col]) => categories.includes(t.columns?.[col] ?? t.category));
    if (sets.length === 0) continue;
    const byAge = collectedBefore && t.collectedAt ? ` and ${ident(t.collectedAt)} < ?` : '';
    const changed = await tx.query(
      `update ${ident(c.schema)}.${ident(table)} set ${sets.map(([col, expr]) => `${ident(col)} = ${expr}`).join(', ')}
        where (${t.rowsOf})${byAge} and (${sets.map(([col, expr]) => `${ident(col)} is distinct from ${expr}`).join(' or ')}) returning 1`,
      byAge ? [playerId, collectedBefore] : [playerId],
    );
    rows[`${c.schema}.${table}`] = changed.length;
  }
  await tx.query(`select set_config('bo.anonymising', 'off', true)`);
  return { service: c.service, rows };
}

/** anonymiseIn in a transaction of its own. */
export function anonymisePersonalData(
  sql: { transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> },
  c: PersonalDataCatalogue,
  playerId: string,
  categories: readonly string[],
  collectedBefore?: Date,
): Promise<Anonymised> {
  return sql.transaction((tx) => anonymiseIn(tx, c, playerId, categories, collectedBefore));
}

/** The two messages of a service's catalogue, for its handlers (internal callers only: the players service). */
export function personalDataHandlers(deps: ServiceDeps, c: PersonalDataCatalogue): Record<string, Handler> {
  const m = personalDataMessages(c.service);
  return {
    ...handle(
      m.export,
      async (req) => ({
        status: 200,
        body: await exportPersonalData(deps.sql, c, req.body.playerId, { ...(req.body.after ? { after: req.body.after } : {}), pageChars: EXPORT_PAGE_CHARS }),
      }),
      { answers: 'none' },
    ),
    ...handle(
      m.anonymise,
      async (req) => ({
        status: 200,
        body: await anonymisePersonalData(
          deps.sql,
          c,
          req.body.playerId,
          req.body.categories,
          req.body.collectedBefore ? new Date(req.body.collectedBefore) : undefined,
        ),
      }),
      {
        answers: 'none',
      },
    ),
  };
}

/** Column names that say a table holds something about a person, whatever the catalogue calls it. */
const PERSONAL_COLUMN = /(^|_)(player_id|cpf|birth_date|signup_ip|payer_name)$/;

/**
 * What the catalogue misses in the migrated schema: a table it does not name, a table it names that
 * does not exist, a column it names that does not exist, or a table it calls empty of players that has
 * a column of a person. Empty when the catalogue and the schema agree.
 */
export async function personalDataCoverage(sql: SqlRunner, c: PersonalDataCatalogue): Promise<string[]> {
  const cols = await sql.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns where table_schema = ? and table_name in
       (select table_name from information_schema.tables where table_schema = ? and table_type = 'BASE TABLE') order by 1, 2`,
    [c.schema, c.schema],
  );
  const tables = new Map<string, Set<string>>();
  for (const r of cols) {
    if (!tables.has(r.table_name)) tables.set(r.table_name, new Set());
    tables.get(r.table_name)!.add(r.column_name);
  }
  const problems: string[] = [];
  for (const [table, columns] of tables) {
    if (c.players[table]) {
      const t = c.players[table];
      for (const col of [...(t.internal ?? []), ...Object.keys(t.anonymise ?? {}), ...Object.keys(t.columns ?? {}), ...(t.collectedAt ? [t.collectedAt] : [])])
        if (!columns.has(col)) problems.push(`${c.schema}.${table}.${col}: named by the catalogue, not in the table`);
    } else if (c.none[table] !== undefined) {
      for (const col of columns)
        if (PERSONAL_COLUMN.test(col)) problems.push(`${c.schema}.${table}.${col}: a person's column in a table the catalogue calls empty of players`);
    } else problems.push(`${c.schema}.${table}: not in the personal-data catalogue (a player's table, or one that holds nothing about players)`);
  }
  for (const table of [...Object.keys(c.players), ...Object.keys(c.none)])
    if (!tables.has(table)) problems.push(`${c.schema}.${table}: in the catalogue, not in the schema`);
  return problems;
}
