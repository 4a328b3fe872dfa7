// startLoop's pace (the outbox relay's, the reconcilers', the delivery worker's): the interval after a
// pass, doubled per failure or per idle pass in a row up to their ceilings, and back to the interval
// once a pass finds work; a pass that says more work is waiting runs again at once.
import t from 'tap';
import { startLoop, waitBeforeNextPass } from '../src/loop.ts';

t.test('the wait after a pass', async (t) => {
  const o = { intervalMs: 50, idleMaxMs: 2000, maxBackoffMs: 400 };
  t.same(
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map((idle) => waitBeforeNextPass(o, 0, idle)),
    [50, 50, 100, 200, 400, 800, 1600, 2000, 2000],
    'idle passes in a row: the interval doubled per pass, at most idleMaxMs',
  );
  t.same(
    [1, 2, 3, 4, 5].map((failures) => waitBeforeNextPass(o, failures, 3)),
    [50, 100, 200, 400, 400],
    'failures in a row: their own backoff, whatever the idle passes before',
  );
  t.equal(waitBeforeNextPass({ intervalMs: 50 }, 0, 9), 50, 'without idleMaxMs an idle pass changes nothing');
  t.equal(waitBeforeNextPass({ intervalMs: 500, idleMaxMs: 100 }, 0, 3), 500, 'never under the interval');
});

t.test('idle passes slow the loop down; a pass that finds work brings it back to its interval', async (t) => {
  // Found: nothing four times, then work (false), then nothing again. Only lower bounds on the gaps
  // between passes: a busy machine makes a timer late, never early.
  const answers: Array<'idle' | false> = ['idle', 'idle', 'idle', 'idle', false, 'idle'];
  const at: number[] = [];
  let done!: () => void;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const loop = startLoop({
    name: 'test loop',
    intervalMs: 20,
    idleMaxMs: 1000,
    log: { warn: () => undefined },
    run: async () => {
      at.push(performance.now());
      if (at.length === answers.length + 1) done();
      return answers[at.length - 1] ?? 'idle';
    },
  });
  t.teardown(() => loop.stop());
  await finished;
  await loop.stop();
  const gaps = at.slice(1).map((a, i) => a - at[i]!);
  // After passes 1-4 (idle: waits 20, 40, 80, 160), pass 5 (work: 20), pass 6 (idle again: 20).
  const least = [20, 40, 80, 160, 20, 20];
  t.same(
    gaps.map((g, i) => g >= least[i]! - 2),
    least.map(() => true),
    `each wait at least its share (${gaps.map((g) => Math.round(g)).join(', ')} ms)`,
  );
});

t.test('a poke runs a pass at once, whatever the idle passes before', async (t) => {
  let passes = 0;
  let poked!: () => void;
  const seen = new Promise<void>((r) => {
    poked = r;
  });
  const loop = startLoop({
    name: 'test loop',
    // An hour between passes: only the first pass and the poke's can run while the test waits.
    intervalMs: 3_600_000,
    idleMaxMs: 7_200_000,
    log: { warn: () => undefined },
    run: async () => {
      passes++;
      if (passes === 2) poked();
      return 'idle';
    },
  });
  t.teardown(() => loop.stop());
  while (passes === 0) await new Promise((r) => setImmediate(r));
  loop.poke();
  await seen;
  t.equal(passes, 2, 'the first pass, then the poke');
});
