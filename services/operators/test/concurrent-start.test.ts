// Two processes of the service starting at once on an empty database (a rollout of two replicas):
// both come up and the migrations run once. To make them meet for sure, the test's own transaction
// creates the schema and keeps it uncommitted until both starts are waiting on the database, then
// rolls back: both go on at the same instant. Without the kit's migration lock both run into the
// schema's creation at once and one fails (a duplicate `pg_namespace` key); with it, one migrates and
// the other waits, then finds nothing to do.
import t from 'tap';
import { openDatabase, openSql } from '@bo/service-kit';
import { spawnService, startStack, type ChildService } from '@bo/test-support';
import { operatorMigrations } from '../src/store/migrations.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('two replicas starting at once on an empty database: both come up, each migration runs once', async (t) => {
  const stack = await startStack(t, 'opstart', [], { emptyDatabase: true });
  const holderOrm = await openDatabase({ databaseUrl: stack.databaseUrl, schema: 'test_holder', entities: [], migrations: [] });
  const sql = await openSql(holderOrm);
  const started: ChildService[] = [];
  t.teardown(async () => {
    for (const p of started) await p.stop();
    await holderOrm.close();
  });
  const env = { DATABASE_URL: stack.databaseUrl, NATS_URL: stack.config.NATS_URL, NATS_PREFIX: stack.prefix, OUTBOX_POLL_MS: 50 };

  const ROLLED_BACK = new Error('rolled back on purpose');
  let settled: Promise<PromiseSettledResult<ChildService>[]> | undefined;
  await sql
    .transaction(async (tx) => {
      await tx.query('create schema operators');
      const starting = [spawnService('operators', env), spawnService('operators', env)].map((p) =>
        p.then((child) => {
          started.push(child);
          return child;
        }),
      );
      settled = Promise.allSettled(starting);
      // Both starts are waiting on the database (on this transaction, or one on the other), not yet
      // past the schema's creation; a start that failed before that ends the wait too.
      let done = false;
      void settled.then(() => (done = true));
      while (!done) {
        const [row] = await sql.query<{ waiting: number }>(
          `select count(*)::int as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        if (row!.waiting >= 2) break;
        await sleep(20);
      }
      throw ROLLED_BACK;
    })
    .catch((e) => {
      if (e !== ROLLED_BACK) throw e;
    });
  const starts = await settled!;

  t.same(
    starts.map((s) =>
      s.status === 'fulfilled'
        ? 'started'
        : (String(s.reason)
            .split('\n')
            .find((l) => l.includes('duplicate')) ?? String(s.reason)),
    ),
    ['started', 'started'],
    'both processes came up',
  );
  const applied = await sql.query<{ name: string; times: number }>(
    `select name, count(*)::int as times from operators.schema_migrations group by name order by name`,
  );
  t.same(
    applied,
    operatorMigrations.map((m) => ({ name: m.name, times: 1 })),
    'every migration is listed once',
  );
  for (const p of started) await p.stop();
});
