// What every service keeps only for a while (retention.ts): stored answers older than
// IDEMPOTENCY_TTL_SECONDS are deleted in batches, oldest first, younger ones kept, and a service's
// own row keys are forgotten before its answers; published outbox rows older than
// OUTBOX_RETENTION_SECONDS are deleted, unpublished ones never.
import t, { type Test } from 'tap';
import {
  BaseConfigSchema,
  deleteExpiredStoredAnswers,
  deletePublishedOutboxRows,
  Migration,
  outboxTableSql,
  processedRequestsExpiryIndexSql,
  processedRequestsTableSql,
  startServiceWith,
  type RunningService,
  type ServiceDefinition,
} from '../src/index.ts';
import { cleanupNatsPrefix, createTestDatabase, testNatsUrl, testPrefix, waitFor } from '../src/testing.ts';

class Init extends Migration {
  override async up() {
    this.addSql(outboxTableSql('expiry'));
    this.addSql(processedRequestsTableSql('expiry'));
    this.addSql(processedRequestsExpiryIndexSql('expiry'));
  }
}

async function startExpiring(t: Test, values: Record<string, unknown>, extra: Partial<ServiceDefinition> = {}): Promise<RunningService> {
  const db = await createTestDatabase('expiry');
  const prefix = testPrefix('expiry');
  const def: ServiceDefinition = {
    name: 'expiry',
    schema: 'expiry',
    config: BaseConfigSchema,
    entities: [],
    migrations: [{ name: 'Init', class: Init }],
    handlers: () => ({}),
    ...extra,
  };
  const svc = await startServiceWith(def, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, ...values });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  return svc;
}

/** Stored answers `ageHours` old, keys `${label}-0` … */
async function storeAnswers(svc: RunningService, label: string, count: number, ageHours: number): Promise<void> {
  await svc.sql.query(
    `insert into expiry.processed_requests (scope, idempotency_key, operation, status, body, created_at)
     select 'op_1:sandbox', ? || '-' || n, 'op', 201, '{}', now() - make_interval(hours => ?) - make_interval(secs => n) from generate_series(0, ? - 1) n`,
    [label, ageHours, count],
  );
}

const keysLeft = async (svc: RunningService): Promise<string[]> =>
  (await svc.sql.query<{ k: string }>(`select idempotency_key k from expiry.processed_requests order by idempotency_key`)).map((r) => r.k);

t.test('answers older than the TTL are deleted in batches, oldest first; younger ones stay', async (t) => {
  // The service's own loop does not run within the test.
  const svc = await startExpiring(t, { RETENTION_INTERVAL_MS: 3_600_000 });
  await storeAnswers(svc, 'old', 5, 25);
  await storeAnswers(svc, 'young', 2, 23);
  const day = 86_400;
  t.equal(await deleteExpiredStoredAnswers(svc.sql, 'expiry', day, 3), 3, 'a full batch');
  t.same(await keysLeft(svc), ['old-0', 'old-1', 'young-0', 'young-1'], 'the oldest went first (old-4 is the oldest)');
  t.equal(await deleteExpiredStoredAnswers(svc.sql, 'expiry', day, 3), 2, 'the rest');
  t.equal(await deleteExpiredStoredAnswers(svc.sql, 'expiry', day, 3), 0, 'nothing left past the TTL');
  t.same(await keysLeft(svc), ['young-0', 'young-1'], 'answers within 24 h are kept');
});

t.test('the running service deletes expired keys, its row keys before its answers, and old published outbox rows', async (t) => {
  const answersAtEachRowPass: number[] = [];
  const ages = new Set<number>();
  let rowPasses = 0;
  let svc: RunningService | undefined;
  const ready = Promise.withResolvers<void>();
  svc = await startExpiring(
    t,
    { RETENTION_INTERVAL_MS: 20, IDEMPOTENCY_TTL_SECONDS: 3600 },
    {
      // A fake of the service's own row keys: more waiting twice, then done.
      forgetRowKeys: async (_deps, olderThan) => {
        await ready.promise;
        ages.add(olderThan);
        answersAtEachRowPass.push((await keysLeft(svc!)).length);
        rowPasses++;
        return rowPasses <= 2;
      },
    },
  );
  await storeAnswers(svc, 'old', 3, 2);
  await storeAnswers(svc, 'young', 1, 0);
  await svc.sql.query(
    `insert into expiry.outbox (event_id, subject_type, environment, operator_id, brand_id, payload, created_at, published_at)
     values ('evt_old', 'webhook.test', 'sandbox', 'op_1', 'brd_1', '{}', now() - interval '2 days', now() - interval '2 days')`,
  );
  const outboxRows = async () => (await svc!.sql.query<{ n: number }>('select count(*)::int n from expiry.outbox'))[0]!.n;
  ready.resolve();
  await waitFor(async () => (await keysLeft(svc!)).length === 1 && (await outboxRows()) === 0, { what: 'expired answers and the old outbox row deleted' });
  t.same(await keysLeft(svc), ['young-0']);
  t.same(answersAtEachRowPass.slice(0, 3), [4, 4, 4], 'no answer deleted while row keys were still waiting');
  t.same([...ages], [3600], 'row keys are forgotten on the same clock');
});

t.test('published outbox rows past the retention are deleted, oldest first; unpublished and young ones stay', async (t) => {
  const svc = await startExpiring(t, { RETENTION_INTERVAL_MS: 3_600_000 });
  await svc.outbox.stop(); // the relay would publish the unpublished row below
  const row = (id: string, ageHours: number, published: boolean) =>
    svc.sql.query(
      `insert into expiry.outbox (event_id, subject_type, environment, operator_id, brand_id, payload, created_at, published_at)
       values (?, 'webhook.test', 'sandbox', 'op_1', 'brd_1', '{}', now() - make_interval(hours => ?), case when ? then now() - make_interval(hours => ?) end)`,
      [id, ageHours, published, ageHours],
    );
  for (const id of ['old-0', 'old-1', 'old-2']) await row(id, 25, true);
  await row('old-unpublished', 25, false);
  await row('young', 1, true);
  await row('old-after-young', 25, true);
  const left = async () => (await svc.sql.query<{ id: string }>('select event_id id from expiry.outbox order by seq')).map((r) => r.id);

  const day = 86_400;
  t.equal(await deletePublishedOutboxRows(svc.sql, 'expiry', day, 2), 2, 'a full batch');
  t.same(await left(), ['old-2', 'old-unpublished', 'young', 'old-after-young'], 'the oldest went first');
  t.equal(await deletePublishedOutboxRows(svc.sql, 'expiry', day, 2), 1, 'of the two oldest now, the published one');
  t.equal(await deletePublishedOutboxRows(svc.sql, 'expiry', day, 2), 0, 'the two oldest now: unpublished, and young');
  t.same(
    await left(),
    ['old-unpublished', 'young', 'old-after-young'],
    'an unpublished row stays however old; a pass reads only the oldest rows, so one behind a row it keeps waits',
  );
});
