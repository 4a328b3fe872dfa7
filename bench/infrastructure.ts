// Where the benchmark finds Postgres and NATS: the way `npm test` does (scripts/local-infra.ts):
// DATABASE_URL / NATS_URL, else the default ports when they answer, else a throwaway embedded
// Postgres and nats-server, stopped when the benchmark ends.
import path from 'node:path';
import { resolveInfra } from '../scripts/local-infra.ts';

export interface Infrastructure {
  databaseUrl: string;
  natsUrl: string;
  stop(): Promise<void>;
}

export async function resolveInfrastructure(log: (msg: string) => void): Promise<Infrastructure> {
  const infra = await resolveInfra({ purpose: 'bench', dataDir: path.resolve(import.meta.dirname, '../.data'), log });
  log(`using ${infra.postgres.describe}; ${infra.nats.describe}`);
  return { databaseUrl: infra.postgres.url, natsUrl: infra.nats.url, stop: infra.stop };
}
