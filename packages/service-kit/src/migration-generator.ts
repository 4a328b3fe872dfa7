// `npm run migration:create -w <service> -- <name>` of a service whose tables the ORM owns: runs the
// existing migrations on a scratch database (DATABASE_URL's server, as the tests do), asks the ORM
// what would bring that schema to the entities, and appends it to the service's migrations file as a
// class listed in its migrations list. Review it (a rename comes out as a drop and an add) and run the
// tests (the service's schema test checks that the entities and the migrations agree).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { entitySchemaDrift, openDatabase, type DatabaseOptions } from './db.ts';
import { createTestDatabase } from './testing.ts';

export interface MigrationTarget extends Pick<DatabaseOptions, 'schema' | 'entities' | 'migrations'> {
  /** The migrations file, and the name of the list in it (`export const <listName> = [`). */
  file: string;
  listName: string;
  /** The workspace, for the usage line. */
  workspace: string;
}

export async function createMigration(target: MigrationTarget, name = ''): Promise<void> {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) {
    console.error(`usage: npm run migration:create -w ${target.workspace} -- <name_in_snake_case>`);
    process.exit(2);
  }
  const db = await createTestDatabase('migrate');
  let statements: string[];
  try {
    const orm = await openDatabase({ databaseUrl: db.url, schema: target.schema, entities: target.entities, migrations: target.migrations });
    statements = await entitySchemaDrift(orm);
    await orm.close();
  } finally {
    await db.drop();
  }
  if (statements.length === 0) {
    console.log('The migrations already give what the entities describe: nothing to generate.');
    return;
  }
  const source = readFileSync(target.file, 'utf8');
  const list = `export const ${target.listName} = [`;
  const at = source.indexOf(list);
  const end = source.indexOf('];', at);
  if (at < 0 || end < 0) throw new Error(`${target.file}: \`${list}\` … \`];\` not found`);
  const id = `${String(target.migrations.length + 1).padStart(4, '0')}_${name}`;
  const className = name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  const migration = [
    `/** Generated from the entities (npm run migration:create). */`,
    `export class ${className} extends Migration {`,
    '  override async up(): Promise<void> {',
    ...statements.map((s) => `    this.addSql(${JSON.stringify(s)});`),
    '  }',
    '}',
    '',
    '',
  ].join('\n');
  writeFileSync(target.file, `${source.slice(0, at)}${migration}${source.slice(at, end)}  { name: '${id}', class: ${className} },\n${source.slice(end)}`);
  console.log(`Wrote ${className} (${id}) with ${statements.length} statement(s) to ${path.relative(process.cwd(), target.file)}:`);
  for (const s of statements) console.log(`  ${s};`);
  console.log('Then `npm run format` and the tests (test/schema.test.ts checks the entities and the migrations agree).');
}
