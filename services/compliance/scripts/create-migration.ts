// `npm run migration:create -w @bo/compliance -- <name>`: generates the next migration of the
// compliance schema from the entities (the ORM owns these tables). Runs the existing migrations on a
// scratch database (DATABASE_URL's server, as the tests do), asks the ORM what would bring that
// schema to the entities, and appends it to src/store/migrations.ts as a class listed in
// `complianceMigrations`. Review it (a rename comes out as a drop and an add) and run the tests.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { entitySchemaDrift, openDatabase } from '@bo/service-kit';
import { createTestDatabase } from '@bo/service-kit/testing';
import { complianceEntities } from '../src/store/entities.ts';
import { COMPLIANCE_SCHEMA, complianceMigrations } from '../src/store/migrations.ts';

const name = process.argv[2] ?? '';
if (!/^[a-z][a-z0-9_]*$/.test(name)) {
  console.error('usage: npm run migration:create -w @bo/compliance -- <name_in_snake_case>');
  process.exit(2);
}

const db = await createTestDatabase('cmigrate');
let statements: string[];
try {
  const orm = await openDatabase({ databaseUrl: db.url, schema: COMPLIANCE_SCHEMA, entities: complianceEntities, migrations: complianceMigrations });
  statements = await entitySchemaDrift(orm);
  await orm.close();
} finally {
  await db.drop();
}
if (statements.length === 0) {
  console.log('The migrations already give what the entities describe: nothing to generate.');
  process.exit(0);
}

const file = path.join(import.meta.dirname, '../src/store/migrations.ts');
const source = readFileSync(file, 'utf8');
const list = 'export const complianceMigrations = [';
const at = source.indexOf(list);
const end = source.indexOf('];', at);
if (at < 0 || end < 0) throw new Error(`${file}: \`${list}\` … \`];\` not found`);
const id = `${String(complianceMigrations.length + 1).padStart(4, '0')}_${name}`;
const className = name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
const migration = [
  `/** Generated from the entities (scripts/create-migration.ts). */`,
  `export class ${className} extends Migration {`,
  '  override async up(): Promise<void> {',
  ...statements.map((s) => `    this.addSql(${JSON.stringify(s)});`),
  '  }',
  '}',
  '',
  '',
].join('\n');
writeFileSync(file, `${source.slice(0, at)}${migration}${source.slice(at, end)}  { name: '${id}', class: ${className} },\n${source.slice(end)}`);
console.log(`Wrote ${className} (${id}) with ${statements.length} statement(s) to ${path.relative(process.cwd(), file)}:`);
for (const s of statements) console.log(`  ${s};`);
console.log('Then `npm run format` and the tests (test/schema.test.ts checks the entities and the migrations agree).');
