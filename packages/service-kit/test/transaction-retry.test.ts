// A connection that dies under a transaction (a switch of Postgres primary, a lost node): an
// idempotent transaction is run again whole, with exactly one effect; any other is answered 503
// by the serve loop with nothing half-written. Both ways a connection dies are real here: the
// backend terminated mid-transaction (pg_terminate_backend, 57P01), and a COMMIT that committed
// but whose acknowledgement never came back (a proxy drops the connection after the server's
// answer to COMMIT, as a primary lost at that moment does).
import t, { type Test } from 'tap';
import net from 'node:net';
import pg from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { requestOperation, type RequestContext } from '@bo/contracts';
import {
  createLogger,
  handle,
  openDatabase,
  processedRequestsFingerprintSql,
  processedRequestsTableSql,
  runOnce,
  serveOperations,
  sqlOnPool,
  sqlTransactor,
  type Sql,
  type SqlRunner,
} from '../src/index.ts';
import { createTestDatabase, testNatsUrl, testPrefix } from '../src/testing.ts';

const db = await createTestDatabase('txretry');
const admin = new pg.Client({ connectionString: db.url });
await admin.connect();
await admin.query('create schema kit; create table kit.effects (id text primary key, run int not null)');
await admin.query(processedRequestsTableSql('kit'));
await admin.query(processedRequestsFingerprintSql('kit'));
t.teardown(async () => {
  await admin.end();
  await db.drop();
});

/**
 * A proxy in front of the test database that, once armed, lets the next COMMIT through and drops
 * the connection instead of forwarding the server's answer: committed, never acknowledged.
 */
async function commitAckDropper(t: Test): Promise<{ url: string; arm(): void; dropped(): number }> {
  const target = new URL(db.url);
  let armed = false;
  let dropped = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.once('close', () => sockets.delete(s));
    }
    let commitSent = false;
    client.on('data', (d: Buffer) => {
      // A simple-query message: 'Q', length, then the text (sql.ts sends `commit` that way).
      if (armed && d[0] === 0x51 && d.subarray(5).toString().startsWith('commit')) {
        armed = false;
        commitSent = true;
      }
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (!commitSent) return void client.write(d);
      dropped++;
      client.destroy();
      upstream.destroy();
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  const url = new URL(db.url);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    arm: () => {
      armed = true;
    },
    dropped: () => dropped,
  };
}

function sqlAt(t: Test, url: string): Sql {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // As MikroORM's pool does: a connection that dies while checked out says so on its client too.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  t.teardown(() => pool.end());
  return sqlOnPool(pool);
}

/** Terminates the backend of `tx` from another connection, as a fast shutdown or a lost primary does. */
async function terminateBackendOf(tx: SqlRunner): Promise<void> {
  const [row] = await tx.query<{ pid: number }>('select pg_backend_pid() as pid');
  await admin.query('select pg_terminate_backend($1)', [row!.pid]);
}

async function effects(): Promise<Array<{ id: string; run: number }>> {
  return (await admin.query<{ id: string; run: number }>('select id, run from kit.effects order by id')).rows;
}

t.beforeEach(async () => {
  await admin.query('truncate kit.effects, kit.processed_requests');
});

t.test('an idempotent transaction whose backend is terminated mid-way runs again whole: one effect', async (t) => {
  const sql = sqlAt(t, db.url);
  let runs = 0;
  const out = await sql.transaction(
    async (tx) => {
      const run = ++runs;
      await tx.query('insert into kit.effects (id, run) values (?, ?)', ['a', run]);
      if (run === 1) await terminateBackendOf(tx);
      await tx.query('insert into kit.effects (id, run) values (?, ?)', ['b', run]);
      return run;
    },
    { idempotent: true },
  );
  t.equal(runs, 2, 'the function ran again after the connection died');
  t.equal(out, 2, 'the answer is the second run');
  t.same(await effects(), [
    { id: 'a', run: 2 },
    { id: 'b', run: 2 },
  ]);
});

t.test('a keyed runOnce whose COMMIT committed but was never acknowledged runs again and finds its stored answer', async (t) => {
  const proxy = await commitAckDropper(t);
  const sql = sqlAt(t, proxy.url);
  let effectRuns = 0;
  proxy.arm();
  const out = await runOnce(sqlTransactor(sql), 'kit', { scope: 'op', key: 'k-lost-ack' }, 'kit.effect', async (tx) => {
    effectRuns++;
    await tx.query('insert into kit.effects (id, run) values (?, ?)', ['x', effectRuns]);
    return { status: 201, body: { id: 'x' } };
  });
  t.equal(proxy.dropped(), 1, 'the acknowledgement of the COMMIT was lost');
  t.equal(effectRuns, 1, 'the effect ran once: the second run found the stored answer');
  t.same(out, { status: 201, body: { id: 'x' }, replayed: true });
  t.same(await effects(), [{ id: 'x', run: 1 }]);
});

t.test('through the serve loop: idempotent transactions retried whole, the others 503 with nothing half-written', async (t) => {
  const sql = sqlAt(t, db.url);
  const proxy = await commitAckDropper(t);
  const lossy = sqlAt(t, proxy.url);
  const nc: NatsConnection = await connect({ servers: testNatsUrl() });
  const prefix = testPrefix('txretry');
  let keyedRuns = 0;
  let plainRuns = 0;
  const server = serveOperations({
    nc,
    prefix,
    service: 'txretry',
    log: createLogger('txretry', 'silent'),
    handlers: {
      // A keyed effect (runOnce with the request's key: declared effect-way), killed mid-way on its first run.
      ...handle(
        { subject: 'txretry.keyed' },
        async () =>
          runOnce(sqlTransactor(sql), 'kit', { scope: 'op', key: 'k-keyed' }, 'txretry.keyed', async (tx) => {
            const run = ++keyedRuns;
            await tx.query('insert into kit.effects (id, run) values (?, ?)', ['keyed-1', run]);
            if (run === 1) await terminateBackendOf(tx);
            await tx.query('insert into kit.effects (id, run) values (?, ?)', ['keyed-2', run]);
            return { status: 201, body: { run } };
          }),
        { answers: 'effect' },
      ),
      // Not declared idempotent: two rows, its backend terminated between them.
      ...handle({ subject: 'txretry.plain' }, async () => {
        await sql.transaction(async (tx) => {
          plainRuns++;
          await tx.query('insert into kit.effects (id, run) values (?, ?)', ['plain-1', plainRuns]);
          await terminateBackendOf(tx);
          await tx.query('insert into kit.effects (id, run) values (?, ?)', ['plain-2', plainRuns]);
        });
        return { body: {} };
      }),
      // Not declared idempotent, its COMMIT acknowledgement lost: committed whole, answered 503.
      ...handle({ subject: 'txretry.plain-lost-ack' }, async () => {
        proxy.arm();
        await lossy.transaction(async (tx) => {
          plainRuns++;
          await tx.query('insert into kit.effects (id, run) values (?, ?)', ['ack-1', plainRuns]);
          await tx.query('insert into kit.effects (id, run) values (?, ?)', ['ack-2', plainRuns]);
        });
        return { body: {} };
      }),
    },
  });
  t.teardown(async () => {
    await server.stop();
    await nc.close();
  });
  const ctx: RequestContext = { requestId: 'req_txretry', scope: { kind: 'internal', service: 'test' } };
  const send = (subject: string) => requestOperation(nc, subject, { ctx, params: {}, query: {}, body: {} }, { prefix, timeoutMs: 30_000 });

  t.same(await send('txretry.keyed'), { ok: true, status: 201, body: { run: 2 } }, 'the keyed effect is answered by its second, whole run');
  t.equal(keyedRuns, 2);
  const unavailable = { ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable; retry shortly.' } };
  t.same(await send('txretry.plain'), unavailable, 'a transaction not declared idempotent is answered 503');
  t.same(await send('txretry.plain-lost-ack'), unavailable, 'so is one whose COMMIT went unacknowledged');
  t.equal(plainRuns, 2, 'neither ran again');
  t.equal(proxy.dropped(), 1);
  t.same(
    await effects(),
    [
      { id: 'ack-1', run: 2 },
      { id: 'ack-2', run: 2 },
      { id: 'keyed-1', run: 2 },
      { id: 'keyed-2', run: 2 },
    ],
    'the keyed effect once, the terminated one not at all, the unacknowledged one whole',
  );
});

t.test('a service starting while its database is away waits for it instead of exiting', async (t) => {
  // A port nothing listens on yet; the database appears there a moment later (the new primary).
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const target = new URL(db.url);
  const url = new URL(db.url);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  let settled = false;
  const opening = openDatabase({ databaseUrl: url.toString(), schema: 'kit_start', entities: [], migrations: [] }).finally(() => {
    settled = true;
  });
  // Let it meet the refusals; a start that gives up has settled by then.
  await new Promise((r) => setTimeout(r, 800));
  const waiting = !settled;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    proxy.close();
  });
  const orm = await opening;
  t.ok(waiting, 'still waiting while the database was away');
  const [row] = await orm.em
    .getConnection()
    .execute<Array<{ n: number }>>(`select count(*)::int as n from information_schema.schemata where schema_name = 'kit_start'`);
  t.equal(row?.n, 1, 'the start went on once the database answered: its schema is there');
  await orm.close();
});
