// The events consumer's batches of what it took (src/delivery/intake-batches.ts): settle() returns only
// once every item taken is stored. The consumer's stop awaits it before the connection drains; before,
// the stop waited only for the batches already started, so an event taken in the same turn as the stop
// was stored, delivered and acknowledged after the connection had closed, and JetStream handed it to the
// next consumer: the restore drill's "after-T event sent again" (docs/testing.md, "A ghost after the restore").
import t from 'tap';
import { IntakeBatches } from '../src/delivery/intake-batches.ts';

interface Item {
  id: string;
  n: number;
}

function batchesOf(o: { parallel?: number; maxBatch?: number; fail?: (batch: Item[]) => boolean } = {}) {
  const stored: Item[][] = [];
  const errors: unknown[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const batches = new IntakeBatches<Item>({
    async store(batch) {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      // A real store answers later (Postgres, then the acks): a few turns of the loop.
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      running--;
      if (o.fail?.(batch)) throw new Error('the connection closed before the ack');
      stored.push(batch);
    },
    idOf: (i) => i.id,
    parallel: o.parallel ?? 2,
    maxBatch: o.maxBatch ?? 3,
    onError: (err) => errors.push(err),
  });
  return { batches, stored, errors, mostAtOnce: () => mostAtOnce };
}

t.test('a stop in the same turn as the last items taken: settle() returns once all of them are stored', async (t) => {
  const { batches, stored } = batchesOf();
  for (let n = 0; n < 10; n++) batches.add({ id: `evt_${n}`, n });
  // No batch has started yet (they start once this turn is over): exactly the stop's moment in the drill.
  t.same(batches.size, { waiting: 10, storing: 0 }, 'taken, none being stored yet');
  await batches.settle();
  t.same(
    stored.flat().map((i) => i.n),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    'every item stored before settle() returned, in the order taken',
  );
  t.same(batches.size, { waiting: 0, storing: 0 }, 'nothing left');
});

t.test('batches of distinct ids, at most maxBatch each and parallel at once; a repeat waits for the next batch', async (t) => {
  const { batches, stored, mostAtOnce } = batchesOf({ parallel: 2, maxBatch: 3 });
  for (const id of ['a', 'a', 'b', 'c', 'd', 'a', 'e']) batches.add({ id, n: 0 });
  await batches.settle();
  t.ok(
    stored.every((b) => b.length <= 3 && new Set(b.map((i) => i.id)).size === b.length),
    `each batch at most 3, ids distinct (${JSON.stringify(stored.map((b) => b.map((i) => i.id)))})`,
  );
  t.equal(stored.flat().length, 7, 'every item stored once');
  t.equal(stored.flat().filter((i) => i.id === 'a').length, 3, "each of a's three copies in a batch of its own");
  t.ok(mostAtOnce() <= 2, `at most 2 batches at once (${mostAtOnce()})`);
});

t.test('a batch whose store throws is reported, not an unhandled rejection, and the others go on', async (t) => {
  const { batches, stored, errors } = batchesOf({ maxBatch: 2, fail: (b) => b.some((i) => i.id === 'x') });
  for (const id of ['p', 'x', 'q', 'r']) batches.add({ id, n: 0 });
  await batches.settle();
  t.equal(errors.length, 1, 'the failing batch reported once');
  t.same(
    stored
      .flat()
      .map((i) => i.id)
      .sort(),
    ['q', 'r'],
    'the other batch stored',
  );
});

t.test('room(): the consumer waits while batches are full and every place is taken', async (t) => {
  const { batches } = batchesOf({ parallel: 1, maxBatch: 2 });
  for (let n = 0; n < 2; n++) batches.add({ id: `a${n}`, n });
  await new Promise((r) => setImmediate(r));
  for (let n = 0; n < 2; n++) batches.add({ id: `b${n}`, n });
  t.same(batches.size, { waiting: 2, storing: 1 }, 'one batch storing, a full one waiting');
  await batches.room();
  t.ok(batches.size.waiting < 2 || batches.size.storing < 1, 'room once the first batch is stored');
  await batches.settle();
});
