// groupCommit (the AML watch's batching of in-order deposits): a lone item runs at once, items
// that arrive while a batch runs make the next batch (at most `max`), and a batch that throws
// fails each of its items and none of the next.
import t from 'tap';
import { groupCommit } from '../src/group-commit.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

t.test('batches are what arrived while the one before ran, at most max', async (t) => {
  const batches: number[][] = [];
  const first = gate();
  const run = groupCommit<number, string>({ max: 3 }, async (items) => {
    batches.push(items);
    if (items[0] === 1) await first.opened;
    return items.map((i) => `#${i}`);
  });
  const answers = [run(1), run(2), run(3), run(4), run(5), run(6)];
  t.same(batches, [[1]], 'a lone item runs at once');
  first.open();
  t.same(await Promise.all(answers), ['#1', '#2', '#3', '#4', '#5', '#6'], 'each item gets its own answer');
  t.same(batches, [[1], [2, 3, 4], [5, 6]], 'the rest in batches of at most 3, in order');
});

t.test('a batch that throws fails its items only', async (t) => {
  const boom = new Error('boom');
  const first = gate();
  const run = groupCommit<number, number>({ max: 2 }, async (items) => {
    if (items[0] === 1) await first.opened;
    if (items.includes(2)) throw boom;
    return items;
  });
  const answers = [run(1), run(2), run(3), run(4)].map((p) =>
    p.then(
      (v) => ({ v }),
      (err: unknown) => ({ err }),
    ),
  );
  first.open();
  t.same(await Promise.all(answers), [{ v: 1 }, { err: boom }, { err: boom }, { v: 4 }], 'the batch [2, 3] failed; 1 and 4 went through');
});

t.test('items of one key never share a batch, and keep their order', async (t) => {
  const batches: string[][] = [];
  const first = gate();
  const run = groupCommit<string, string>({ max: 8, keyOf: (s) => s[0]! }, async (items) => {
    batches.push(items);
    if (items[0] === 'a1') await first.opened;
    return items;
  });
  const answers = ['a1', 'a2', 'b1', 'a3', 'c1', 'b2'].map(run);
  first.open();
  t.same(await Promise.all(answers), ['a1', 'a2', 'b1', 'a3', 'c1', 'b2']);
  t.same(batches, [['a1'], ['a2', 'b1', 'c1'], ['a3', 'b2']], 'a key waits for the next batch; the batch after takes it first');
});

t.test('a window gathers the items that come within it; a full batch does not wait', async (t) => {
  const batches: number[][] = [];
  const run = groupCommit<number, number>({ max: 3, windowMs: 1000 }, async (items) => {
    batches.push(items);
    return items;
  });
  const full = [run(1), run(2), run(3)];
  t.same(batches, [[1, 2, 3]], 'three items fill the batch: it runs without waiting the window');
  await Promise.all(full);
  const started = Date.now();
  const alone = run(4);
  await new Promise((r) => setImmediate(r));
  t.same(batches.length, 1, 'a lone item waits for company');
  const late = run(5);
  t.same(await Promise.all([alone, late]), [4, 5]);
  t.same(
    batches,
    [
      [1, 2, 3],
      [4, 5],
    ],
    'what came within the window shares its batch',
  );
  t.ok(Date.now() - started >= 900, 'and the window was waited');
});

t.test('lanes: that many batches run at once', async (t) => {
  const first = gate();
  let running = 0;
  let most = 0;
  const run = groupCommit<number, number>({ max: 1, lanes: 2 }, async (items) => {
    running++;
    most = Math.max(most, running);
    await first.opened;
    running--;
    return items;
  });
  const answers = [1, 2, 3, 4].map(run);
  await new Promise((r) => setImmediate(r));
  t.equal(running, 2, 'two batches run while the others wait');
  first.open();
  t.same(await Promise.all(answers), [1, 2, 3, 4]);
  t.equal(most, 2);
});

t.test('powers of two: a batch takes 1, 2, 4, 8… items, and the rest waits for the next', async (t) => {
  const batches: number[][] = [];
  const first = gate();
  const run = groupCommit<number, number>({ max: 8, powersOfTwo: true }, async (items) => {
    batches.push(items);
    if (items[0] === 1) await first.opened;
    return items;
  });
  const answers = [1, 2, 3, 4, 5, 6, 7, 8].map(run);
  first.open();
  t.same(await Promise.all(answers), [1, 2, 3, 4, 5, 6, 7, 8]);
  t.same(batches, [[1], [2, 3, 4, 5], [6, 7], [8]], '7 waiting make a batch of 4, then 2, then 1');
});
