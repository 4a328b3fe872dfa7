// `npm run migration:create -w @bo/operators -- <name>`: generates the next migration of the operators
// schema from the entities (the ORM owns these tables), appended to src/store/migrations.ts
// (the kit's migration-generator.ts says how). Review it and run the tests.
import path from 'node:path';
import { createMigration } from '@bo/service-kit/migration-generator';
import { operatorEntities } from '../src/store/entities.ts';
import { operatorMigrations } from '../src/store/migrations.ts';
import { OPERATORS_SCHEMA } from '../src/service.ts';

await createMigration(
  {
    workspace: '@bo/operators',
    schema: OPERATORS_SCHEMA,
    entities: operatorEntities,
    migrations: operatorMigrations,
    file: path.join(import.meta.dirname, '../src/store/migrations.ts'),
    listName: 'operatorMigrations',
  },
  process.argv[2],
);
