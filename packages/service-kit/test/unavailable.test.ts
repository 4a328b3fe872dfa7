// The outage classifier over errors produced for real (refused and cut connections, a terminated
// backend, a full pool, a role over its connection limit, the ORM's wrappers, NATS without
// responders, answers or connection) and over real faults that are not outages; then the serve
// loop's answer to each kind.
import t, { type Test } from 'tap';
import net from 'node:net';
import pg from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { AppError, requestOperation, type RequestContext } from '@bo/contracts';
import { defineEntity, MikroORM, p } from '@mikro-orm/postgresql';
import { createLogger, handle, isDependencyUnavailable, openSql, serveOperations } from '../src/index.ts';
import { createTestDatabase, testNatsUrl, testPrefix } from '../src/testing.ts';

/** The rejection of `p` (fails the test if it resolves). */
async function rejectionOf(t: Test, p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  t.fail('expected a rejection');
  return undefined;
}

/** A loopback server with `onConnection`, closed with the test; resolves to its port. */
async function tcpServer(t: Test, onConnection: (s: net.Socket) => void): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    onConnection(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * JetStream's API as a cluster that lost a node answers it: a stand-in for the API (under its own
 * prefix) replies to a stream's info with the server's error for the err_code the stream is named
 * after (`e10008`), on the wire as nats-server sends it, read by the real client.
 */
const SERVER_ERRORS: Record<number, { code: number; description: string }> = {
  10008: { code: 503, description: 'JetStream system temporarily unavailable' },
  10023: { code: 503, description: 'insufficient resources' },
  10009: { code: 500, description: 'JetStream cluster can not handle request' },
  10118: { code: 500, description: 'stream is offline' },
  10119: { code: 500, description: 'consumer is offline' },
  10059: { code: 404, description: 'stream not found' },
  10058: { code: 400, description: 'stream name already in use with a different configuration' },
};
async function jetStreamAnswering(t: Test, nc: NatsConnection, prefix: string): Promise<JetStreamManager> {
  const apiPrefix = `${prefix}.JSAPI`;
  const sub = nc.subscribe(`${apiPrefix}.STREAM.INFO.*`, {
    callback: (_err, msg) => {
      const errCode = Number(msg.subject.split('.').at(-1)!.slice(1));
      const e = SERVER_ERRORS[errCode]!;
      msg.respond(
        JSON.stringify({ type: 'io.nats.jetstream.api.v1.stream_info_response', error: { code: e.code, err_code: errCode, description: e.description } }),
      );
    },
  });
  await nc.flush();
  t.teardown(() => {
    if (!nc.isClosed()) sub.unsubscribe();
  });
  return jetstreamManager(nc, { apiPrefix, checkAPI: false });
}

const urlAt = (port: number, database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;

/** Terminates the backends whose application_name is `app`, as an administrator (or a fast shutdown) does: 57P01. */
async function terminate(databaseUrl: string, app: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    // Wait until the statement is running, so the termination hits it rather than an idle backend.
    for (;;) {
      const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where application_name = $1 and state = 'active'`, [
        app,
      ]);
      if (rows[0]!.n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [app]);
  } finally {
    await admin.end();
  }
}

const Thing = defineEntity({ name: 'Thing', tableName: 'things', properties: { id: p.integer().primary() } });

t.test('what counts as an unavailable dependency', async (t) => {
  const db = await createTestDatabase('unavail');
  t.teardown(() => db.drop());

  t.test('the database cannot be reached or goes away: real pg errors', async (t) => {
    const refused = await rejectionOf(t, new pg.Client({ connectionString: urlAt(await deadPort()) }).connect());
    t.match(refused, { code: 'ECONNREFUSED' });
    t.ok(isDependencyUnavailable(refused), 'connection refused (ECONNREFUSED)');

    const cutPort = await tcpServer(t, (s) => s.destroy());
    const cut = await rejectionOf(t, new pg.Client({ connectionString: urlAt(cutPort) }).connect());
    t.match(cut, { message: 'Connection terminated unexpectedly' });
    t.ok(isDependencyUnavailable(cut), 'connection cut by the other side');

    const silentPort = await tcpServer(t, () => undefined);
    const silent = await rejectionOf(t, new pg.Client({ connectionString: urlAt(silentPort), connectionTimeoutMillis: 100 }).connect());
    t.ok(isDependencyUnavailable(silent), `no answer to the connection (${(silent as Error).message})`);

    // The pool's one connection is opened with a loaded machine's deadline (100 ms to sign in failed CI
    // at 99% CPU); only the wait for a second one, which can never be served, gets 100 ms. pg-pool reads
    // connectionTimeoutMillis from its options at each connect.
    const pool = new pg.Pool({ connectionString: db.url, max: 1, connectionTimeoutMillis: 30_000 });
    const held = await pool.connect();
    pool.options.connectionTimeoutMillis = 100;
    const full = await rejectionOf(t, pool.query('select 1'));
    held.release();
    await pool.end();
    t.match(full, { message: 'timeout exceeded when trying to connect' });
    t.ok(isDependencyUnavailable(full), 'no pool connection in time');

    const victim = new pg.Client({ connectionString: db.url, application_name: 'unavail-victim' });
    victim.on('error', () => undefined);
    await victim.connect();
    const sleeping = rejectionOf(t, victim.query('select pg_sleep(60)'));
    await terminate(db.url, 'unavail-victim');
    const terminated = await sleeping;
    t.match(terminated, { code: '57P01' });
    t.ok(isDependencyUnavailable(terminated), 'a statement whose backend was terminated (57P01 admin_shutdown)');
    const afterwards = await rejectionOf(t, victim.query('select 1'));
    t.ok(isDependencyUnavailable(afterwards), `the next statement on that client (${(afterwards as Error).message})`);

    const closed = new pg.Client({ connectionString: db.url });
    await closed.connect();
    await closed.end();
    const onClosed = await rejectionOf(t, closed.query('select 1'));
    t.match(onClosed, { message: 'Client was closed and is not queryable' });
    t.ok(isDependencyUnavailable(onClosed), 'a closed client');

    const role = `unavail_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    // With a password: a server that authenticates by password (the embedded Postgres) checks the
    // role's connection limit only once it has signed in.
    await admin.query(`create role ${role} login nosuperuser connection limit 0 password 'limit-zero'`);
    const asRole = new URL(db.url);
    asRole.username = role;
    asRole.password = 'limit-zero';
    const tooMany = await rejectionOf(t, new pg.Client({ connectionString: asRole.toString() }).connect());
    await admin.query(`drop role ${role}`);
    await admin.end();
    t.match(tooMany, { code: '53300' });
    t.ok(isDependencyUnavailable(tooMany), 'too many connections (53300)');

    const wrapped = new Error('the deposit could not be confirmed', { cause: terminated });
    t.ok(isDependencyUnavailable(wrapped), 'found through a cause chain');
  });

  t.test('the codes of a server starting or going down, and of a connection exception (class 08)', async (t) => {
    // Not cheap to cause for real on a shared server: the shapes pg gives them (DatabaseError with the SQLSTATE as code).
    for (const code of ['57P02', '57P03', '08000', '08001', '08003', '08006', '08P01']) {
      t.ok(isDependencyUnavailable(Object.assign(new pg.DatabaseError('the database system is starting up', 0, 'error'), { code })), code);
    }
  });

  t.test('through the ORM and the kit: what service code sees', async (t) => {
    const orm = await MikroORM.init({ clientUrl: db.url, entities: [Thing], ensureDatabase: false, allowGlobalContext: false });
    t.teardown(() => orm.close());
    await (await openSql(orm)).query('create table if not exists things (id int primary key)');
    const missing = await rejectionOf(t, orm.em.fork().find(Thing, {}, { schema: 'nowhere' }));
    t.equal((missing as Error).name, 'TableNotFoundException', 'the ORM wraps driver errors');
    t.notOk(isDependencyUnavailable(missing), 'a missing table is a fault, not an outage');

    const sql = await openSql(orm);
    const sleeping = rejectionOf(
      t,
      sql.transaction(async (tx) => {
        await tx.query(`set application_name = 'unavail-tx'`);
        await tx.query('select pg_sleep(60)');
      }),
    );
    await terminate(db.url, 'unavail-tx');
    const inTransaction = await sleeping;
    t.match(inTransaction, { code: '57P01' });
    t.ok(isDependencyUnavailable(inTransaction), 'a kit transaction whose backend was terminated');

    const down = await MikroORM.init({ clientUrl: urlAt(await deadPort()), entities: [Thing], ensureDatabase: false, allowGlobalContext: false });
    t.teardown(() => down.close());
    const viaOrm = await rejectionOf(t, down.em.fork().find(Thing, {}));
    t.equal((viaOrm as Error).name, 'DriverException', 'wrapped by the ORM');
    t.ok(isDependencyUnavailable(viaOrm), 'the ORM on a database that refuses connections');
  });

  t.test('NATS: no responders, no answer in time, no connection', async (t) => {
    const nc = await connect({ servers: testNatsUrl() });
    const prefix = testPrefix('unavail');
    const noResponders = await rejectionOf(t, nc.request(`${prefix}.nobody`, 'x', { timeout: 5000 }));
    t.ok(isDependencyUnavailable(noResponders), `no responders (${(noResponders as Error).name})`);
    const silent = nc.subscribe(`${prefix}.silent`, { callback: () => undefined });
    await nc.flush();
    const timeout = await rejectionOf(t, nc.request(`${prefix}.silent`, 'x', { timeout: 100 }));
    t.ok(isDependencyUnavailable(timeout), `no answer in time (${(timeout as Error).name})`);
    silent.unsubscribe();
    const invalid = await rejectionOf(t, nc.request('', 'x', { timeout: 100 }));
    t.notOk(isDependencyUnavailable(invalid), `an invalid subject is a fault (${(invalid as Error).name})`);
    await nc.close();
    const closed = await rejectionOf(t, nc.request(`${prefix}.silent`, 'x', { timeout: 100 }));
    t.ok(isDependencyUnavailable(closed), `a closed connection (${(closed as Error).name})`);
  });

  t.test('JetStream: a cluster that cannot serve now (a node lost, a leader being elected), not a request it refuses', async (t) => {
    const nc = await connect({ servers: testNatsUrl() });
    t.teardown(() => nc.close());
    const jsm = await jetStreamAnswering(t, nc, testPrefix('unavail'));
    for (const [errCode, outage] of [
      [10008, true],
      [10023, true],
      [10009, true],
      [10118, true],
      [10119, true],
      [10059, false],
      [10058, false],
    ] as const) {
      const err = await rejectionOf(t, jsm.streams.info(`e${errCode}`));
      t.equal(isDependencyUnavailable(err), outage, `${errCode} ${SERVER_ERRORS[errCode]!.description} (${(err as Error).name})`);
    }
  });

  t.test('faults that are not outages', async (t) => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    t.teardown(() => c.end());
    await c.query('create table if not exists uniq (id int primary key)');
    await c.query('insert into uniq values (1) on conflict do nothing');
    t.notOk(isDependencyUnavailable(await rejectionOf(t, c.query('insert into uniq values (1)'))), 'a unique violation (23505)');
    t.notOk(isDependencyUnavailable(await rejectionOf(t, c.query('selec 1'))), 'a syntax error (42601)');
    t.notOk(isDependencyUnavailable(await rejectionOf(t, c.query('select 1/0'))), 'a division by zero (22012)');
    t.notOk(isDependencyUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')")), 'a bug');
    t.notOk(isDependencyUnavailable(new AppError('INTERNAL_ERROR')), 'an AppError');
    for (const v of [undefined, null, 'ECONNREFUSED', 42]) t.notOk(isDependencyUnavailable(v), `${String(v)}`);
    const loop: Error & { cause?: unknown } = new Error('a cycle');
    loop.cause = loop;
    t.notOk(isDependencyUnavailable(loop), 'a cause cycle ends');
  });
});

t.test('the serve loop: an outage is 503 SERVICE_UNAVAILABLE, a fault 500 INTERNAL_ERROR, neither with internals', async (t) => {
  const nc: NatsConnection = await connect({ servers: testNatsUrl() });
  const prefix = testPrefix('unavail');
  const port = await deadPort();
  const log = createLogger('unavail', 'silent');
  const jsm = await jetStreamAnswering(t, nc, prefix);
  const server = serveOperations({
    nc,
    prefix,
    service: 'unavail',
    log,
    handlers: {
      ...handle({ subject: 'unavail.read' }, async () => {
        await new pg.Client({ connectionString: urlAt(port) }).connect();
        return { body: {} };
      }),
      ...handle({ subject: 'unavail.stream' }, async () => {
        await jsm.streams.info('e10008');
        return { body: {} };
      }),
      ...handle({ subject: 'unavail.bug' }, async () => {
        throw new TypeError(`connect ECONNREFUSED 127.0.0.1:${port}`);
      }),
    },
  });
  t.teardown(async () => {
    await server.stop();
    await nc.close();
  });
  const ctx: RequestContext = { requestId: 'req_unavail', scope: { kind: 'internal', service: 'test' } };
  const send = (subject: string) => requestOperation(nc, subject, { ctx, params: {}, query: {}, body: {} }, { prefix });

  const down = await send('unavail.read');
  t.same(down, { ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable; retry shortly.' } });
  t.same(await send('unavail.stream'), down, 'JetStream temporarily unavailable inside a handler (an outbox, a bucket): 503 too');
  const bug = await send('unavail.bug');
  t.same(bug, { ok: false, error: { code: 'INTERNAL_ERROR', message: 'Internal error.' } }, 'the words of an outage in a bug do not make it one');
  const rebuilt = AppError.fromBody((down as { error: { code: 'SERVICE_UNAVAILABLE'; message: string } }).error);
  t.same(rebuilt.headers, { 'retry-after': '1' }, 'a 503 rebuilt from the reply carries Retry-After');
});
