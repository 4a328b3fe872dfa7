// statementGroup on a real Postgres: concurrent items share one statement (one transaction), each
// reads its own rows, and a batch one item of which fails is run again item by item, so only that
// item fails. The items are handed in within one tick and a long window holds the batch open,
// so the batches here are certain, not a matter of timing.
import t from 'tap';
import pg from 'pg';
import { Registry } from 'prom-client';
import { createTestDatabase } from '../src/testing.ts';
import { sqlOnPool } from '../src/sql.ts';
import { combinedStatement, registerGroupCommitMetrics, statementGroup, type StatementPart } from '../src/statement-group.ts';

interface Item {
  id: string;
  amount: number;
}
/** An item's part: insert its row (a duplicate id violates the key) and return it. */
const part = (i: Item, s: string): StatementPart => ({
  ctes: `ins${s} as (insert into items (id, amount) values (?, ?) returning id, amount)`,
  params: [i.id, i.amount],
  select: `id, amount from ins${s}`,
});

t.test('combinedStatement: every part’s CTEs, then one select per part', async (t) => {
  const { text, params } = combinedStatement([part({ id: 'a', amount: 1 }, '_0'), part({ id: 'b', amount: 2 }, '_1')]);
  t.match(
    text,
    /^with ins_0 as \(.*\),\nins_1 as \(.*\)\n\(select 0 as batch_item, id, amount from ins_0\)\nunion all \(select 1 as batch_item, id, amount from ins_1\)$/s,
  );
  t.same(params, ['a', 1, 'b', 2], 'parameters in text order');
  t.throws(() => combinedStatement([{ ctes: 'x as (select 1)', params: [], select: '? from x' }]), /no parameters/);
});

t.test('on Postgres', async (t) => {
  const db = await createTestDatabase('stmtgroup');
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  t.teardown(async () => {
    await pool.end();
    await db.drop();
  });
  await pool.query('create table items (id text primary key, amount int not null)');
  const sql = sqlOnPool(pool);
  const registry = new Registry();
  const metrics = registerGroupCommitMetrics(registry, ['items']);
  const counts = async () => {
    const read = async (name: string) => (await registry.getSingleMetric(name)!.get()).values.find((v) => v.labels.group === 'items')?.value;
    return {
      batches: await read('bo_group_commit_batches_total'),
      items: await read('bo_group_commit_items_total'),
      alone: await read('bo_group_commit_retried_alone_total'),
    };
  };
  t.same(await counts(), { batches: 0, items: 0, alone: 0 }, 'the series are there at zero before any write');
  const insert = statementGroup<Item, { id: string; amount: number }>(sql, {
    name: 'items',
    settings: { max: 8, windowMs: 200 },
    keyOf: (i) => i.id,
    part,
    metrics,
  });
  const xids = async () => (await pool.query<{ n: string }>('select count(distinct xmin::text)::int as n from items')).rows[0]!.n;

  t.test('items handed in together share one statement, each with its own rows', async (t) => {
    const out = await Promise.all([1, 2, 3, 4].map((n) => insert({ id: `a${n}`, amount: n })));
    t.same(out, [[{ id: 'a1', amount: 1 }], [{ id: 'a2', amount: 2 }], [{ id: 'a3', amount: 3 }], [{ id: 'a4', amount: 4 }]]);
    t.equal(await xids(), 1, 'all four rows written by one transaction');
    t.same(await counts(), { batches: 1, items: 4, alone: 0 });
  });

  t.test('one item fails: the batch runs again item by item, and only that item fails', async (t) => {
    const out = await Promise.all(
      ['b1', 'a2', 'b3', 'b4'].map((id, n) =>
        insert({ id, amount: 10 + n }).then(
          (rows) => ({ rows }),
          (err: { code?: string }) => ({ code: err.code }),
        ),
      ),
    );
    t.same(
      out,
      [{ rows: [{ id: 'b1', amount: 10 }] }, { code: '23505' }, { rows: [{ id: 'b3', amount: 12 }] }, { rows: [{ id: 'b4', amount: 13 }] }],
      'the duplicate gets its unique violation; the others are written',
    );
    t.same(
      (await pool.query('select id from items order by id')).rows.map((r) => r.id),
      ['a1', 'a2', 'a3', 'a4', 'b1', 'b3', 'b4'],
    );
    t.same(await counts(), { batches: 2, items: 8, alone: 4 }, 'the failed batch counted, its four items run again alone');
  });

  t.test('items of one key go in separate statements, in order', async (t) => {
    const out = await Promise.all(
      [
        { id: 'c1', amount: 1 },
        { id: 'c1', amount: 2 },
        { id: 'c2', amount: 3 },
      ].map((i) =>
        insert(i).then(
          (rows) => ({ rows }),
          (err: { code?: string }) => ({ code: err.code }),
        ),
      ),
    );
    t.same(out, [{ rows: [{ id: 'c1', amount: 1 }] }, { code: '23505' }, { rows: [{ id: 'c2', amount: 3 }] }], 'the first of the key was written first');
  });
});

t.test('parts are ordered by shape, then key: a batch’s text depends on how many of each shape it holds', async (t) => {
  const texts: string[] = [];
  // A recording runner (no database): it answers one row per part, by batch_item.
  const sql = {
    query: async <R>(text: string): Promise<R[]> => {
      texts.push(text);
      return [...text.matchAll(/\(select (\d+) as batch_item, '(\w+)' as id/g)].map((m) => ({ batch_item: Number(m[1]), id: m[2] }) as R);
    },
  };
  const shaped = (i: { id: string; shape: string }, s: string): StatementPart => ({
    ctes: `c${s} as (select 1)`,
    params: [],
    select: `'${i.id}' as id, '${i.shape}' as shape from c${s}`,
  });
  const run = statementGroup<{ id: string; shape: string }, { id: string }>(sql, {
    name: 'shapes',
    settings: { max: 8, windowMs: 100 },
    keyOf: (i) => i.id,
    shapeOf: (i) => i.shape,
    part: shaped,
  });
  const out = await Promise.all([run({ id: 'd', shape: 'y' }), run({ id: 'a', shape: 'x' }), run({ id: 'c', shape: 'x' }), run({ id: 'b', shape: 'y' })]);
  t.same(
    out.map((rows) => rows.map((r) => r.id)),
    [['d'], ['a'], ['c'], ['b']],
    'each item still gets its own row',
  );
  t.same(
    [...texts[0]!.matchAll(/'(\w)' as shape/g)].map((m) => m[1]),
    ['x', 'x', 'y', 'y'],
    'the shapes together',
  );
  t.same(
    [...texts[0]!.matchAll(/'(\w)' as id/g)].map((m) => m[1]),
    ['a', 'c', 'b', 'd'],
    'and in key order within a shape',
  );
});
