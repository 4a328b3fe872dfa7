// The operators tables are the ORM's: the entities describe them whole (columns, CHECKs, indexes,
// foreign keys), so after the migrations the ORM finds nothing to change. A change to an entity
// without its migration (or the reverse) fails here; `npm run migration:create -w @bo/operators
// -- <name>` writes the missing migration.
import t from 'tap';
import { entitySchemaDrift, openDatabase } from '@bo/service-kit';
import { createTestDatabase } from '@bo/service-kit/testing';
import { operatorEntities } from '../src/store/entities.ts';
import { operatorMigrations } from '../src/store/migrations.ts';
import { OPERATORS_SCHEMA } from '../src/service.ts';

t.test('the migrated schema is what the entities describe', async (t) => {
  const db = await createTestDatabase('oschema', { empty: true });
  const orm = await openDatabase({ databaseUrl: db.url, schema: OPERATORS_SCHEMA, entities: operatorEntities, migrations: operatorMigrations });
  t.teardown(async () => {
    await orm.close();
    await db.drop();
  });
  t.same(await entitySchemaDrift(orm), [], 'no statement to generate');
});
