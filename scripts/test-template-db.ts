// The template database `npm test` clones every test database from (issue #57): each service's
// schema made by its own migrations, once per run, instead of by every service in every test file
// (6–12 s of migrations per fresh system on a 2-core machine, against 0.2–0.8 s for a clone).
// A service started on a clone runs its migrator as on any database, and finds nothing to do.
//
//   node scripts/test-template-db.ts create <server url> <name>   makes it (dropping one of that name)
//   node scripts/test-template-db.ts drop <server url> <name>
//
// The test helpers clone it when BO_TEST_TEMPLATE_DB names it (@bo/service-kit/testing
// `createTestDatabase`); a test about migrations themselves asks for an empty database instead.
import pg from 'pg';
import { openDatabase, type ServiceDefinition } from '@bo/service-kit';
import { complianceService } from '@bo/compliance';
import { operatorsService } from '@bo/operators';
import { paymentsService } from '@bo/payments';
import { playersService } from '@bo/players';
import { walletService } from '@bo/wallet';
import { webhooksService } from '@bo/webhooks';

const SERVICES: ServiceDefinition<any, any>[] = [operatorsService, playersService, walletService, paymentsService, webhooksService, complianceService];

const withDatabase = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

async function onServer(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

export async function createTemplate(url: string, name: string): Promise<void> {
  await onServer(url, `drop database if exists "${name}" with (force)`);
  await onServer(url, `create database "${name}"`);
  for (const def of SERVICES) {
    const orm = await openDatabase({ databaseUrl: withDatabase(url, name), schema: def.schema, entities: def.entities, migrations: def.migrations });
    await orm.close();
  }
}

export async function dropTemplate(url: string, name: string): Promise<void> {
  await onServer(url, `drop database if exists "${name}" with (force)`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [command, url, name] = process.argv.slice(2);
  if (!url || !name || !/^[a-z0-9_]+$/.test(name) || (command !== 'create' && command !== 'drop')) {
    console.error('usage: node scripts/test-template-db.ts create|drop <server url> <name: [a-z0-9_]+>');
    process.exit(2);
  }
  await (command === 'create' ? createTemplate(url, name) : dropTemplate(url, name));
}
