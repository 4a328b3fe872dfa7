// `npm run migration:create -w @bo/players -- <name>`: generates the next migration of the players
// schema from the entities (the ORM owns these tables), appended to src/store/migrations.ts
// (the kit's migration-generator.ts says how). Review it and run the tests.
import path from 'node:path';
import { createMigration } from '@bo/service-kit/migration-generator';
import { playerEntities } from '../src/store/entities.ts';
import { playerMigrations } from '../src/store/migrations.ts';
import { PLAYERS_SCHEMA } from '../src/service.ts';

await createMigration(
  {
    workspace: '@bo/players',
    schema: PLAYERS_SCHEMA,
    entities: playerEntities,
    migrations: playerMigrations,
    file: path.join(import.meta.dirname, '../src/store/migrations.ts'),
    listName: 'playerMigrations',
  },
  process.argv[2],
);
