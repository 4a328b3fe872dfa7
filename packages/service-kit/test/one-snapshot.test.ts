// A resource read from several tables in one snapshot (inOneSnapshot, ormInOneSnapshot): a commit made
// between two of its reads is seen by neither, where two reads on the pool (or in a READ COMMITTED
// transaction) would see it in the second only. Seen: a harm measure shown applied while the case's
// log lacked the interaction the same commit wrote.
import t from 'tap';
import pg from 'pg';
import { inOneSnapshot, openDatabase, ormInOneSnapshot, sqlIn, sqlOnPool, type SqlRunner } from '../src/index.ts';
import { createTestDatabase } from '../src/testing.ts';

const db = await createTestDatabase('snapshot');
const admin = new pg.Client({ connectionString: db.url });
await admin.connect();
await admin.query('create schema snap; create table snap.rows (id serial primary key)');
const pool = new pg.Pool({ connectionString: db.url, max: 3 });
const sql = sqlOnPool(pool);
const orm = await openDatabase({ databaseUrl: db.url, schema: 'snap', entities: [], migrations: [] });
t.teardown(async () => {
  await orm.close();
  await pool.end();
  await admin.end();
  await db.drop();
});

const count = async (on: SqlRunner) => Number((await on.query<{ n: string }>('select count(*) as n from snap.rows'))[0]!.n);
/** Two reads with another connection's commit between them. */
const twoReads = async (on: SqlRunner): Promise<[number, number]> => {
  const first = await count(on);
  await admin.query('insert into snap.rows default values');
  return [first, await count(on)];
};

t.test('two reads in a transaction of its own: the commit between them shows in the second (what the snapshot prevents)', async (t) => {
  const [first, second] = await sql.transaction(twoReads);
  t.equal(second, first + 1);
});

t.test('inOneSnapshot: neither read sees the commit between them; a later read does; nothing can be written', async (t) => {
  const [first, second] = await inOneSnapshot(sql, twoReads);
  t.equal(second, first);
  t.equal(await count(sql), first + 1, 'committed all the same');
  await t.rejects(
    inOneSnapshot(sql, (tx) => tx.query('insert into snap.rows default values')),
    /read-only transaction/,
  );
});

t.test('ormInOneSnapshot: the same through the entity manager', async (t) => {
  const [first, second] = await ormInOneSnapshot(orm, (em) => twoReads(sqlIn(em)));
  t.equal(second, first);
  t.equal(await count(sql), first + 1);
  await t.rejects(
    ormInOneSnapshot(orm, (em) => sqlIn(em).query('insert into snap.rows default values')),
    /read-only transaction/,
  );
});
