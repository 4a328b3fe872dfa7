// groupCommit (the AML watch's batching of in-order deposits): a lone item runs at once, items
// that arrive while a batch runs make the next batch (at most `max`), and a batch that throws
// fails each of its items and none of the next.
import t from 'tap';
import { groupCommit } from '../../src/watch/group-commit.ts';

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
  const run = groupCommit<number, string>(3, async (items) => {
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
  const run = groupCommit<number, number>(2, async (items) => {
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
