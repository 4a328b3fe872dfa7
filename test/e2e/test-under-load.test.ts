// `npm run test:load` (issue #71): the suite run several times with CPU-bound processes beside it. Its
// command line, the count it reads from each run's output, and the closing table that names each failed
// file with the runs it failed in; a bad command line is refused before anything runs.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { closingCount, loadSummary, parseLoadArgs } from '../../scripts/test-under-load.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

t.test('the command line: runs, burners and the names passed on to npm test', async (t) => {
  t.same(parseLoadArgs([]), { runs: 3, burners: 2, names: [] }, 'three runs beside two CPU-bound processes, the whole suite');
  t.same(parseLoadArgs(['--runs', '5', '--burners', '0', '--', 'players', 'wallet/test/games']), {
    runs: 5,
    burners: 0,
    names: ['players', 'wallet/test/games'],
  });
  t.throws(() => parseLoadArgs(['--runs', '0']), /--runs takes a whole number of at least 1/);
  t.throws(() => parseLoadArgs(['--burners', 'many']), /--burners takes a whole number/);
});

t.test("each run's count is its output's last closing line", async (t) => {
  t.same(closingCount('[test] ok typecheck\n12 passed, 0 failed\n[test] again\n40 passed, 2 failed\n'), { passed: 40, failed: 2 });
  t.equal(closingCount('[test] stopped before the end\n'), undefined, 'no closing line: the caller counts the run as failed');
});

t.test('the closing table names each failed file with the runs it failed in', async (t) => {
  const lines = loadSummary(
    [
      { run: 1, passed: 100, failed: 0, seconds: 60, maxLoad: 4.25, failedFiles: [] },
      { run: 2, passed: 99, failed: 1, seconds: 70, maxLoad: 6, failedFiles: ['@bo/players test/a.test.ts'] },
      { run: 3, passed: 98, failed: 2, seconds: 65, maxLoad: 5, failedFiles: ['@bo/players test/a.test.ts', '@bo/wallet test/b.test.ts'] },
    ],
    2,
  );
  t.same(lines, [
    'run 1: 100 passed, 0 failed in 60 s (2 CPU-bound processes beside it, load average up to 4.3)',
    'run 2: 99 passed, 1 failed in 70 s (2 CPU-bound processes beside it, load average up to 6.0)',
    'run 3: 98 passed, 2 failed in 65 s (2 CPU-bound processes beside it, load average up to 5.0)',
    'failed: @bo/players test/a.test.ts (run 2, 3)',
    'failed: @bo/wallet test/b.test.ts (run 3)',
    '1 of 3 runs green',
  ]);
});

t.test('a bad command line is refused before any run', async (t) => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/test-under-load.ts'), '--runs', 'x'], { encoding: 'utf8' });
  t.equal(r.status, 2);
  t.match(r.stderr, '--runs takes a whole number of at least 1: npm run test:load -- [--runs N] [--burners K] [names…]');
});
