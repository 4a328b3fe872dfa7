import t from 'tap';
import { jetstream, jetstreamManager, DeliverPolicy } from '@nats-io/jetstream';
import { requestOperation, eventsStreamName, type RequestContext, AppError } from '@bo/contracts';
import {
  BaseConfigSchema,
  Migration,
  startServiceWith,
  outboxTableSql,
  processedRequestsFingerprintSql,
  processedRequestsTableSql,
  eventInsertFrom,
  writeEvent,
  ormRunner,
  runOnce,
  ormTransactor,
  sqlIn,
  requestKeyOf,
  type ServiceDefinition,
} from '../src/index.ts';
import { createTestDatabase, testPrefix, cleanupNatsPrefix, testNatsUrl, waitFor } from '../src/testing.ts';

class Init extends Migration {
  override async up() {
    this.addSql(outboxTableSql('kit'));
    this.addSql(processedRequestsTableSql('kit'));
    this.addSql(processedRequestsFingerprintSql('kit'));
    this.addSql('create table kit.counter (id int primary key, n int not null)');
    this.addSql('insert into kit.counter values (1, 0)');
    this.addSql('create table kit.audit (note text not null)');
  }
}

const ctx = (key?: string): RequestContext => ({
  requestId: 'req_1',
  idempotencyKey: key,
  scope: { kind: 'operator', operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox', currency: 'BRL' },
});

const def: ServiceDefinition = {
  name: 'kit',
  schema: 'kit',
  config: BaseConfigSchema,
  entities: [],
  migrations: [{ name: 'Init', class: Init }],
  handlers: (deps) => ({
    'kit.bump': async (req) =>
      runOnce(ormTransactor(deps.orm.em), 'kit', requestKeyOf(req.ctx), 'bump', async (tx) => {
        await sqlIn(tx).query('update kit.counter set n = n + 1 where id = 1');
        const [row] = await sqlIn(tx).query<{ n: number }>('select n from kit.counter where id = 1');
        await writeEvent(ormRunner(tx), 'kit', { operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox' }, 'webhook.test', { message: `n=${row!.n}` });
        return { status: 201, body: { n: row!.n } };
      }),
    // runOnce's withAnswer: an audit row the effect leaves to commit with its answer.
    'kit.audited': async (req) => {
      let row: { text: string; params: unknown[] } | undefined;
      return runOnce(
        ormTransactor(deps.orm.em),
        'kit',
        requestKeyOf(req.ctx),
        'audited',
        async () => {
          const note = (req.body as { note: string }).note;
          row = { text: 'insert into kit.audit (note) values (?)', params: [note] };
          if (note === 'refused') throw new AppError('PLAYER_NOT_FOUND');
          return { status: 201, body: { note } };
        },
        { withAnswer: () => row },
      );
    },
    'kit.fail': async () => {
      throw new AppError('PLAYER_NOT_FOUND');
    },
    'kit.boom': async () => {
      throw new Error('secret internals');
    },
  }),
};

t.test('service kit against real Postgres and NATS', async (t) => {
  const db = await createTestDatabase('kit');
  const prefix = testPrefix('kit');
  const svc = await startServiceWith(def, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 3000, OUTBOX_POLL_MS: 50 });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const send = (subject: string, key?: string) => requestOperation(svc.nc, subject, { ctx: ctx(key), params: {}, query: {}, body: {} }, { prefix });

  t.test('errors travel as the catalogue body; unknown errors hide internals', async (t) => {
    const a = await send('kit.fail');
    t.same(a, { ok: false, error: { code: 'PLAYER_NOT_FOUND', message: 'Player not found.' } });
    const b = await send('kit.boom');
    t.equal(b.ok, false);
    t.equal(!b.ok && b.error.code, 'INTERNAL_ERROR');
    t.notMatch(JSON.stringify(b), /secret internals/);
  });

  t.test('one key, twenty racing requests: one effect, one result', async (t) => {
    const replies = await Promise.all(Array.from({ length: 20 }, () => send('kit.bump', 'key-race-0001')));
    // One ran; the others are its answer, given again (the gateway marks them Idempotent-Replayed).
    t.same(
      replies.map(({ replayed: _, ...answer }) => answer),
      replies.map(() => ({ ok: true, status: 201, body: { n: 1 } })),
    );
    t.equal(replies.filter((r) => !r.replayed).length, 1, 'one answer is the first, the rest are replays');
    const [row] = await svc.sql.query<{ n: number }>('select n from kit.counter');
    t.equal(row!.n, 1);
    const again = await send('kit.bump', 'key-race-0002');
    t.same(again.ok && again.body, { n: 2 });
  });

  t.test("withAnswer: the effect's audit row commits with its answer, once; alone without a key; not at all when it fails", async (t) => {
    const audited = (note: string, key?: string) =>
      requestOperation(svc.nc, 'kit.audited', { ctx: ctx(key), params: {}, query: {}, body: { note } }, { prefix });
    const replies = await Promise.all(Array.from({ length: 5 }, () => audited('keyed', 'key-audit-0001')));
    t.ok(
      replies.every((r) => r.ok && r.status === 201),
      'every copy answered 201',
    );
    t.match(await audited('unkeyed'), { ok: true, status: 201 });
    t.match(await audited('refused', 'key-audit-0002'), { ok: false, error: { code: 'PLAYER_NOT_FOUND' } });
    const rows = await svc.sql.query<{ note: string }>('select note from kit.audit order by note');
    t.same(
      rows.map((r) => r.note),
      ['keyed', 'unkeyed'],
      'one row for the keyed request, one for the unkeyed, none for the refused',
    );
    const [stored] = await svc.sql.query<{ n: number }>("select count(*)::int as n from kit.processed_requests where operation = 'audited' and status = 201");
    t.equal(stored!.n, 1, 'the keyed answer stored once');
  });

  t.test('outbox rows reach JetStream once, with msgID = event id', async (t) => {
    await waitFor(async () => (await svc.sql.query<{ c: string }>('select count(*) c from kit.outbox where published_at is null'))[0]!.c === '0', {
      what: 'outbox drained',
    });
    const jsm = await jetstreamManager(svc.nc);
    const info = await jsm.streams.info(eventsStreamName(prefix));
    t.equal(info.state.messages, 2);
    // A re-send of a published row (a crash between publish and mark) is a duplicate, dropped.
    await svc.sql.query('update kit.outbox set published_at = null');
    await svc.outbox.drainOnce();
    const after = await jsm.streams.info(eventsStreamName(prefix));
    t.equal(after.state.messages, 2);
    const js = jetstream(svc.nc);
    const c = await js.consumers.get(eventsStreamName(prefix), { deliver_policy: DeliverPolicy.All });
    const m = await c.next({ expires: 2000 });
    t.ok(m);
    const body = m!.json<{ id: string; type: string; environment: string }>();
    t.equal(m!.headers?.get('Nats-Msg-Id'), body.id);
    t.equal(body.type, 'webhook.test');
    t.equal(body.environment, 'sandbox');
  });

  t.test('an event no wake-up announced (a process died after its commit) is found by the polls, slowed while idle', async (t) => {
    const jsm = await jetstreamManager(svc.nc);
    const before = (await jsm.streams.info(eventsStreamName(prefix))).state.messages;
    const out = eventInsertFrom('kit', 'one', { operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox' }, 'webhook.test', { message: 'unannounced' });
    // Written, committed, and neither handed over nor poked: only a poll finds it.
    await svc.sql.query(`with one as (select 1), o as (${out.text}) select 1`, out.params);
    await waitFor(
      async () => (await svc.sql.query<{ at: Date | null }>('select published_at as at from kit.outbox where event_id = ?', [out.event.id]))[0]?.at != null,
      { what: 'the unannounced event published by a poll' },
    );
    t.equal((await jsm.streams.info(eventsStreamName(prefix))).state.messages, before + 1, 'in the stream once');
  });

  t.test('an event handed over after its commit is published once, marked, and never again by the relay', async (t) => {
    const jsm = await jetstreamManager(svc.nc);
    const before = (await jsm.streams.info(eventsStreamName(prefix))).state.messages;
    const out = eventInsertFrom('kit', 'one', { operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox' }, 'webhook.test', { message: 'direct' });
    await svc.sql.query(`with one as (select 1), o as (${out.text}) select 1`, out.params);
    svc.outbox.publishCommitted([out.row]);
    const published = async () =>
      (await svc.sql.query<{ at: Date | null }>('select published_at as at from kit.outbox where event_id = ?', [out.event.id]))[0]?.at != null;
    await waitFor(published, { what: 'the handed-over event marked published' });
    await svc.outbox.drainOnce();
    t.equal((await jsm.streams.info(eventsStreamName(prefix))).state.messages, before + 1, 'one message in the stream');
    const js = jetstream(svc.nc);
    const c = await js.consumers.get(eventsStreamName(prefix), { deliver_policy: DeliverPolicy.Last });
    const m = await c.next({ expires: 2000 });
    t.equal(m?.headers?.get('Nats-Msg-Id'), out.event.id, 'msgID = event id');
  });
});
