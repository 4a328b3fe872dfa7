// The compliance tables are the ORM's: after the migrations the ORM finds nothing to change. A
// change to an entity without its migration (or the reverse) fails here; `npm run
// migration:create -w @bo/compliance -- <name>` writes the missing migration.
import t from 'tap';
import { entitySchemaDrift, openDatabase } from '@bo/service-kit';
import { createTestDatabase } from '@bo/service-kit/testing';
import { complianceEntities } from '../../src/store/entities.ts';
import { COMPLIANCE_SCHEMA, complianceMigrations } from '../../src/store/migrations.ts';

t.test('the migrated schema is what the entities describe', async (t) => {
  const db = await createTestDatabase('cschema', { empty: true });
  const orm = await openDatabase({ databaseUrl: db.url, schema: COMPLIANCE_SCHEMA, entities: complianceEntities, migrations: complianceMigrations });
  t.teardown(async () => {
    await orm.close();
    await db.drop();
  });
  t.same(await entitySchemaDrift(orm), [], 'no statement to generate');
});
