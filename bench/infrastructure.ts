// Where the benchmark finds Postgres and NATS: the way `npm test` does (scripts/local-infra.ts):
// DATABASE_URL / NATS_URL, else the default ports when they answer, else a throwaway embedded
// Postgres and nats-server, stopped when the benchmark ends.
//
// BENCH_ARCHIVE=on|off (issue #67): Postgres is instead a PostgreSQL 15 cluster of the benchmark's own
// (scripts/pgbackrest.ts, the restore drill's), archiving every WAL segment into an encrypted
// pgBackRest repository with `archive_command = pgbackrest archive-push` (`on`), or the same cluster
// without archiving (`off`): the same binaries and settings but for archiving, so the two runs'
// deposit, round and provider figures say what archiving costs.
import path from 'node:path';
import { resolveInfra, resolveNats } from '../scripts/local-infra.ts';
import { findOrInstallTools, startDrillPostgres } from '../scripts/pgbackrest.ts';

export interface Infrastructure {
  databaseUrl: string;
  natsUrl: string;
  stop(): Promise<void>;
}

export async function resolveInfrastructure(log: (msg: string) => void): Promise<Infrastructure> {
  const opts = { purpose: 'bench', dataDir: path.resolve(import.meta.dirname, '../.data'), log } as const;
  const archive = process.env.BENCH_ARCHIVE;
  if (archive === 'on' || archive === 'off') {
    findOrInstallTools(log);
    // archive_timeout as production would set it: a segment at least once a minute.
    const pgs = startDrillPostgres({ log, archiveTimeoutSeconds: 60, archive: archive === 'on' });
    try {
      const primary = await pgs.initPrimary('bench');
      if (archive === 'on') await pgs.pgbackrest(['stanza-create']);
      const nats = await resolveNats(opts);
      log(
        `using PostgreSQL 15 on 127.0.0.1:${primary.port} ${archive === 'on' ? 'archiving every WAL segment (pgBackRest archive-push)' : 'without archiving'}; ${nats.describe}`,
      );
      return {
        databaseUrl: primary.url(),
        natsUrl: nats.url,
        async stop() {
          await nats.stop().catch(() => undefined);
          await pgs.close();
        },
      };
    } catch (err) {
      await pgs.close();
      throw err;
    }
  }
  if (archive !== undefined) throw new Error(`BENCH_ARCHIVE: '${archive}' is neither on nor off`);
  const infra = await resolveInfra(opts);
  log(`using ${infra.postgres.describe}; ${infra.nats.describe}`);
  return { databaseUrl: infra.postgres.url, natsUrl: infra.nats.url, stop: infra.stop };
}
