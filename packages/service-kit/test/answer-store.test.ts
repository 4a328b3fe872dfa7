// The kit keeps the answer of every keyed operation it serves (idempotency/kit-kept.ts, AnswerStore), for
// a handler that stores nothing itself: one effect per key, replays, refusals kept, a 5xx
// releasing the key, copies in progress, a key reused for another request, admin answers sealed
// at rest, and refusals the gateway made handed over to keep.
import t from 'tap';
import { Type } from '@sinclair/typebox';
import { type AppError, recordRefusalMessage, requestOperation, type RequestContext } from '@bo/contracts';
import {
  AnswerStore,
  BaseConfigSchema,
  Migration,
  handle,
  outboxTableSql,
  processedRequestsClaimsSql,
  processedRequestsFingerprintSql,
  processedRequestsKeepTextSql,
  processedRequestsTableSql,
  startServiceWith,
  type ServiceDefinition,
  type Sql,
} from '../src/index.ts';
import { createTestDatabase, testPrefix, cleanupNatsPrefix, testNatsUrl } from '../src/testing.ts';

const MASTER = 'answer-store-test-master-key-0123456789';

class Init extends Migration {
  override async up() {
    this.addSql(outboxTableSql('answers'));
    for (const text of [processedRequestsTableSql, processedRequestsKeepTextSql, processedRequestsFingerprintSql, processedRequestsClaimsSql]) {
      this.addSql(text('answers'));
    }
    this.addSql('create table answers.counter (id int primary key, n int not null)');
    this.addSql('insert into answers.counter values (1, 0)');
  }
}

const Config = Type.Composite([BaseConfigSchema, Type.Object({ SECRETS_MASTER_KEY: Type.String({ default: MASTER }) })]);
let gate: Promise<void> = Promise.resolve();
let failNext: AppError | Error | undefined;

const def: ServiceDefinition<typeof Config> = {
  name: 'answers',
  schema: 'answers',
  config: Config,
  entities: [],
  migrations: [{ name: 'Init', class: Init }],
  handlers: (deps) => ({
    // No idempotency of its own: the kit keeps its answers.
    ...handle({ subject: 'answers.count', body: Type.Object({ by: Type.Integer({ minimum: 1 }) }) }, async (req) => {
      await gate;
      if (failNext) {
        const e = failNext;
        failNext = undefined;
        throw e;
      }
      const [row] = await deps.sql.query<{ n: number }>('update answers.counter set n = n + ? where id = 1 returning n', [req.body.by]);
      return { status: 201, body: { n: row!.n, secret: 'shown-once-secret' } };
    }),
  }),
};

const operatorCtx = (key: string, fingerprint: string, requestId = `req_${key}_${fingerprint}`): RequestContext => ({
  requestId,
  idempotencyKey: key,
  idempotencyFingerprint: fingerprint,
  scope: { kind: 'operator', operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox', currency: 'BRL' },
});

t.test('the kit keeps the answers of keyed operations', async (t) => {
  const db = await createTestDatabase('answers');
  const prefix = testPrefix('answers');
  const svc = await startServiceWith(def, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 3000, LOG_LEVEL: 'silent' });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const count = (ctx: RequestContext, by = 1) => requestOperation(svc.nc, 'answers.count', { ctx, params: {}, query: {}, body: { by } }, { prefix });
  const counter = async () => (await svc.sql.query<{ n: number }>('select n from answers.counter'))[0]!.n;

  t.test('one effect per key; the same request again is the stored answer, replayed', async (t) => {
    const before = await counter();
    const first = await count(operatorCtx('key-once-0001', 'fp-a'));
    t.same(first, { ok: true, status: 201, body: { n: before + 1, secret: 'shown-once-secret' } });
    const again = await count(operatorCtx('key-once-0001', 'fp-a'));
    t.same(again, { ok: true, status: 201, body: { n: before + 1, secret: 'shown-once-secret' }, replayed: true });
    t.equal(await counter(), before + 1);
    const other = await count(operatorCtx('key-once-0001', 'fp-b'));
    t.same(!other.ok && other.error.code, 'IDEMPOTENCY_CONFLICT', 'the key with another request is a conflict');
  });

  t.test('copies racing while the first runs: one effect, the others told it is in progress', async (t) => {
    const before = await counter();
    let open!: () => void;
    gate = new Promise((r) => {
      open = r;
    });
    const first = count(operatorCtx('key-race-0001', 'fp-a'));
    // The first has claimed the key once its row is there.
    for (let i = 0; i < 200; i++) {
      const rows = await svc.sql.query(`select 1 from answers.processed_requests where idempotency_key = 'key-race-0001'`);
      if (rows.length) break;
      await new Promise((r) => setImmediate(r));
    }
    const copies = await Promise.all(Array.from({ length: 5 }, () => count(operatorCtx('key-race-0001', 'fp-a'))));
    t.same(
      copies.map((c) => !c.ok && c.error.code),
      Array(5).fill('IDEMPOTENCY_IN_PROGRESS'),
    );
    open();
    gate = Promise.resolve();
    t.equal((await first).ok, true);
    t.equal(await counter(), before + 1);
  });

  t.test('a refusal is kept with its request id; a 5xx releases the key', async (t) => {
    const invalid = await count(operatorCtx('key-refused-01', 'fp-a', 'req_first'), 0);
    t.equal(!invalid.ok && invalid.error.code, 'VALIDATION_ERROR');
    const replayed = await count(operatorCtx('key-refused-01', 'fp-a', 'req_second'), 0);
    t.match(replayed, { ok: false, error: { code: 'VALIDATION_ERROR' }, replayed: true, requestId: 'req_first' });

    const before = await counter();
    failNext = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    const down = await count(operatorCtx('key-5xx-0001', 'fp-a'));
    t.equal(!down.ok && down.error.code, 'SERVICE_UNAVAILABLE');
    const retried = await count(operatorCtx('key-5xx-0001', 'fp-a'));
    t.same(retried, { ok: true, status: 201, body: { n: before + 1, secret: 'shown-once-secret' } }, 'the retry runs: not a replay');
  });

  t.test('a refusal the gateway made is kept by the service, and answered from the key afterwards', async (t) => {
    const record = (ctx: RequestContext) =>
      requestOperation(
        svc.nc,
        recordRefusalMessage('answers').subject,
        { ctx, params: {}, query: {}, body: { operation: 'answers.count', error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'JSON only.' } } },
        { prefix },
      );
    const kept = await record(operatorCtx('key-gw-0001', 'fp-a', 'req_gw'));
    t.equal(!kept.ok && kept.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    t.notOk(kept.replayed, 'the first refusal is the key answer, not a replay');
    const after = await count(operatorCtx('key-gw-0001', 'fp-a', 'req_later'));
    t.match(after, { ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' }, replayed: true, requestId: 'req_gw' });
  });

  t.test('admin answers are sealed at rest and replayed in clear', async (t) => {
    const admin: RequestContext = {
      requestId: 'req_admin',
      idempotencyKey: 'admin-key-0001',
      idempotencyFingerprint: 'fp-a',
      scope: { kind: 'admin', actor: 'ana' },
    };
    const first = await count(admin);
    t.equal(first.ok && (first.body as { secret: string }).secret, 'shown-once-secret');
    const [row] = await svc.sql.query<{ body: string }>(
      `select body #>> '{}' as body from answers.processed_requests where scope = 'admin' and idempotency_key = 'admin-key-0001'`,
    );
    t.ok(row!.body.startsWith('v1.') && !row!.body.includes('shown-once-secret'), 'no secret at rest');
    const again = await count(admin);
    t.same(again, { ...first, replayed: true });
    const plain = await svc.sql.query<{ body: string }>(`select body::text as body from answers.processed_requests where idempotency_key = 'key-once-0001'`);
    t.match(plain[0]!.body, /shown-once-secret/, 'an operator answer is kept as sent');
  });

  t.test('an answer that cannot be stored is still sent; the key lapses with its lease', async (t) => {
    const failing: Sql = {
      query: async (text, params) => {
        if (/set status = \?/.test(text)) throw Object.assign(new Error('Connection terminated'), { code: 'ECONNRESET' });
        return svc.sql.query(text, params);
      },
      transaction: (fn, opts) => svc.sql.transaction(fn, opts),
    };
    const errors: string[] = [];
    const store = new AnswerStore({ sql: failing, schema: 'answers', ttlSeconds: 60, leaseSeconds: 1, onError: (_e, what) => errors.push(what) });
    const answer = await store.once(operatorCtx('key-unstored-1', 'fp-a'), 'answers.count', async () => ({ status: 201, body: { ok: true } }));
    t.same(answer, { status: 201, body: { ok: true } });
    t.equal(errors.length, 1, 'the loss is reported');
    const busy = store.once(operatorCtx('key-unstored-1', 'fp-a'), 'answers.count', async () => ({ status: 201, body: { again: true } }));
    await t.rejects(busy, { code: 'IDEMPOTENCY_IN_PROGRESS' }, 'while the lease runs');
    let retried: unknown;
    for (let i = 0; i < 100 && retried === undefined; i++) {
      retried = await store
        .once(operatorCtx('key-unstored-1', 'fp-a'), 'answers.count', async () => ({ status: 201, body: { again: true } }))
        .catch(() => new Promise((r) => setTimeout(() => r(undefined), 50)));
    }
    t.same(retried, { status: 201, body: { again: true } }, 'then a retry takes the key over');
  });
});
