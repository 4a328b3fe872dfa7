// The players tables are the ORM's: the entities describe them whole (columns, CHECKs, indexes,
// foreign keys), so after the migrations the ORM finds nothing to change. A change to an entity
// without its migration (or the reverse) fails here; `npm run migration:create -w @bo/players
// -- <name>` writes the missing migration.
import t from 'tap';
import { entitySchemaDrift, openDatabase } from '@bo/service-kit';
import { createTestDatabase } from '@bo/service-kit/testing';
import { playerEntities } from '../src/store/entities.ts';
import { playerMigrations } from '../src/store/migrations.ts';
import { PLAYERS_SCHEMA } from '../src/service.ts';

t.test('the migrated schema is what the entities describe', async (t) => {
  const db = await createTestDatabase('pschema', { empty: true });
  const orm = await openDatabase({ databaseUrl: db.url, schema: PLAYERS_SCHEMA, entities: playerEntities, migrations: playerMigrations });
  t.teardown(async () => {
    await orm.close();
    await db.drop();
  });
  t.same(await entitySchemaDrift(orm), [], 'no statement to generate');
});
