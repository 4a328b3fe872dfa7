// The service template's two rules on the database (docs/architecture.md, "One template per
// service"), which imports alone cannot show: a file reaches the database one way, the ORM or the
// kit's SQL, never both; and no room but store/ (handlers/, domain/, the rooms named for what they
// do) holds SQL or an ORM query of its own. Read from the source text of every service, comments
// left out; the checker itself is shown failing on sources made to break each rule.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVICES = path.join(ROOT, 'services');

/** The text without its comments (a `//` after a word character or `:` is a URL, kept). */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^\w:'"`])\/\/.*$/gm, '$1');
}

/**
 * An EntityManager's call that reads or writes rows. A fork, a transaction and its flush are the
 * unit of work's boundaries, which a handler may draw as it draws a SQL transaction's.
 */
const ORM_QUERY =
  /\b(em|tx)\.(find|findOne|findOneOrFail|findAll|findAndCount|persist|persistAndFlush|create|getReference|count|insert|insertMany|nativeUpdate|nativeDelete|upsert|upsertMany|assign|remove|execute)\(/;
/** The ORM: its package, its EntityManager, the entities, a query or a flush through it. */
const ORM = new RegExp(`from '@mikro-orm\\/|\\bEntityManager\\b|\\/entities\\.ts'|\\b(em|tx)\\.flush\\(|${ORM_QUERY.source}`);
/** The kit's SQL: a query run, or a statement's text. */
const SQL_TEXT = /\b(select\s+[\w*"(]+[\s\S]{0,200}?\bfrom\b|insert\s+into\b|delete\s+from\b|update\s+[\w."]+\s+set\b)/i;
const SQL_RUN = /\.query(One)?(<[^>]*>)?\(/;

const usesOrm = (text: string): boolean => ORM.test(text);
const usesSql = (text: string): boolean => SQL_RUN.test(text) || SQL_TEXT.test(text);

/** Where a file breaks a rule, or nothing. `file` is relative to services/. */
export function breaches(file: string, source: string): string[] {
  const text = code(source);
  const out: string[] = [];
  // The entities declare their tables whole, a trigger's body included: DDL, not a statement run.
  const declaresSchema = /\/(entities|migrations)\.ts$/.test(file);
  if (!declaresSchema && usesOrm(text) && usesSql(text)) out.push('mixes the ORM and the kit’s SQL');
  if (!/\/store\//.test(file)) {
    if (usesSql(text)) out.push('holds SQL outside store/');
    if (ORM_QUERY.test(text)) out.push('holds an ORM query outside store/');
  }
  return out;
}

/** Every service's own source: services/<name>/src/**.ts (never a dependency's). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => f.endsWith('.ts') && /^[^/]+\/src\/(?!.*\/node_modules\/)/.test(path.relative(dir, f)));
}

t.test('the checker catches each rule on a source made to break it', async (t) => {
  const mixed = `import type { EntityManager } from '@mikro-orm/postgresql';\nexport const f = (em: EntityManager, sql: any) => sql.query('select id from x.y');\n`;
  t.same(breaches('players/src/store/mixed.ts', mixed), ['mixes the ORM and the kit’s SQL']);
  t.same(breaches('players/src/store/orm-only.ts', `import { Player } from './entities.ts';\nexport const f = (em: any) => em.findOne(Player, {});\n`), []);
  t.same(breaches('players/src/store/sql-only.ts', "export const f = (sql: any) => sql.query('update players.players set status = ?', []);\n"), []);
  t.same(breaches('players/src/handlers/h.ts', 'export const h = (sql: any) => sql.query(`insert into players.kyc (id) values (?)`, [1]);\n'), [
    'holds SQL outside store/',
  ]);
  t.same(breaches('payments/src/flows/f.ts', "export const f = (sql: any) => sql.query('select id from payments.deposits where id = ?', [1]);\n"), [
    'holds SQL outside store/',
  ]);
  t.same(
    breaches('players/src/rg/handlers/h.ts', 'export const h = async (tx: any) => { await tx.flush(); };\n'),
    [],
    'a flush is the unit of work’s boundary',
  );
  t.same(breaches('wallet/src/games/domain/d.ts', 'export const d = (em: any) => em.find(Round, {});\n'), ['holds an ORM query outside store/']);
  t.same(
    breaches('players/src/handlers/comment.ts', '// select the rows from the store, then update x set y\nexport const c = 1;\n'),
    [],
    'a comment is not SQL',
  );
  t.same(
    breaches(
      'players/src/store/entities.ts',
      `import { defineEntity } from '@mikro-orm/core';\nconst body = "insert into players.history (id) values (new.id)";\n`,
    ),
    [],
    'an entity’s trigger body is DDL',
  );
});

t.test('every service’s source keeps the rules', async (t) => {
  const files = sources(SERVICES);
  t.ok(files.length > 100, `${files.length} source files read`);
  const found = files.flatMap((f) => {
    const rel = path.relative(SERVICES, f);
    return breaches(rel, readFileSync(f, 'utf8')).map((b) => `${rel}: ${b}`);
  });
  t.same(found, [], 'no file breaks the rules');
});
