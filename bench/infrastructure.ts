// Where the benchmark finds Postgres and NATS: DATABASE_URL / NATS_URL, else 127.0.0.1 defaults.
// Kept in one function so that starting an embedded Postgres when none is reachable can be
// added here alone.
export interface Infrastructure { databaseUrl: string; natsUrl: string }

export async function resolveInfrastructure(): Promise<Infrastructure> {
  return {
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  };
}
