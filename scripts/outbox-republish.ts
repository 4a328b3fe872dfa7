// `npm run outbox:republish -- --since 2026-11-27T10:00:00Z`: after JetStream lost its store (every
// node's, or a stream deleted), the events published since then may never have reached their
// consumers (the webhooks service, the audit log, compliance's watch). Every service keeps its
// published outbox rows for OUTBOX_RETENTION_SECONDS (24 h by default): this marks those published
// since `--since` unpublished again, in every schema of DATABASE_URL's database that has an outbox,
// and each service's relay publishes them again under their own event ids. Nothing is applied
// twice: every consumer stores an event once by its id (docs/webhooks.md), so an event a consumer
// already had is dropped, and an operator receives only what it had not been sent.
import pg from 'pg';

/** Marks the outbox rows published at or after `since` unpublished; how many per schema. */
export async function republishOutboxes(databaseUrl: string, since: Date): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ schema: string }>(
      `select table_schema as schema from information_schema.tables where table_name = 'outbox' and table_type = 'BASE TABLE' order by 1`,
    );
    const counts: Record<string, number> = {};
    for (const { schema } of rows) {
      const r = await c.query(`update "${schema}".outbox set published_at = null where published_at >= $1`, [since]);
      counts[schema] = r.rowCount ?? 0;
    }
    return counts;
  } finally {
    await c.end();
  }
}

if (import.meta.main) {
  const at = process.argv.indexOf('--since');
  const since = at > 0 ? new Date(process.argv[at + 1] ?? '') : undefined;
  const url = process.env.DATABASE_URL;
  if (!since || Number.isNaN(since.getTime()) || !url) {
    console.error('usage: DATABASE_URL=… npm run outbox:republish -- --since <ISO time JetStream was last whole>');
    process.exit(2);
  }
  const counts = await republishOutboxes(url, since);
  console.log(JSON.stringify({ since: since.toISOString(), republished: counts }));
}
