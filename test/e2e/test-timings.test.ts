// `npm run test:timings` (issue #57): npm test keeps each test file's wall time (from the end of its
// workspace's previous file, so its process start counts) and the phases the test helpers note;
// the report names the slowest files with their phases. Fed a run made up here, with its clock.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { failureDetails, failureRecap, TapProgress } from '../../scripts/tap-progress.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

t.test('each file is timed from the end of the one before it in its workspace', async (t) => {
  let now = 1_000;
  const printed: string[] = [];
  const progress = new TapProgress(
    (l) => printed.push(l),
    () => now,
  );
  const feed = (ws: string, line: string, at: number) => {
    now = at;
    progress.line(`${ws}:test: ${line}`);
  };
  feed('@bo/a', 'TAP version 14', 1_000);
  feed('@bo/b', 'TAP version 14', 1_500);
  feed('@bo/a', '# Subtest: test/one.test.ts', 1_200);
  feed('@bo/a', '    ok 1 - works', 2_000);
  feed('@bo/a', 'ok 1 - test/one.test.ts # time=700ms', 3_000);
  feed('@bo/b', '# Subtest: test/other.test.ts', 2_000);
  feed('@bo/b', '    not ok 1 - broke', 3_500);
  feed('@bo/b', 'not ok 1 - test/other.test.ts # time=900ms', 4_500);
  feed('@bo/a', '# Subtest: test/two.test.ts', 3_100);
  feed('@bo/a', '    ok 1 - also', 3_200);
  feed('@bo/a', 'ok 2 - test/two.test.ts # time=100ms', 5_000);
  t.same(progress.timings(), [
    { workspace: '@bo/a', file: 'test/one.test.ts', ok: true, assertions: 1, wallMs: 2_000, tapMs: 700 },
    { workspace: '@bo/b', file: 'test/other.test.ts', ok: false, assertions: 1, wallMs: 3_000, tapMs: 900 },
    { workspace: '@bo/a', file: 'test/two.test.ts', ok: true, assertions: 1, wallMs: 2_000, tapMs: 100 },
  ]);
  t.match(printed[0], '[test] ok   @bo/a test/one.test.ts  (1 assertions, 0.7 s)');
  t.same(progress.failures(), [{ file: '@bo/b test/other.test.ts', details: ['not ok - broke'] }], "a failed file keeps its reason for the run's last lines");
});

t.test("a failure's recap at the run's end: its assertion and its diff, the source and the stack left out", async (t) => {
  // As tap 21 prints a failed assertion (in a clean-clone run of 2026-11-27 the recap's 12 lines ended before the diff).
  const lines = [
    '    # Subtest: rollbacks',
    '        not ok 1 - the player is back where the bets started',
    '          ---',
    '          compare: ===',
    '          at:',
    '            fileName: test/connector-betsy.test.ts',
    '            lineNumber: 668',
    '            columnNumber: 7',
    '            typeName: Test',
    '          stack: |',
    '            Test.<anonymous> (test/connector-betsy.test.ts:668:7)',
    '          source: >2',
    '                const owed = 0;',
    '            ------^',
    '          diff: |',
    '            --- expected',
    '            +++ actual',
    '            @@ -1,1 +1,1 @@',
    '            -100',
    '            +135',
    '          ...',
    '        1..1',
  ];
  t.same(failureRecap(failureDetails(lines)), [
    'rollbacks › not ok - the player is back where the bets started',
    '  compare: ===',
    '  at: test/connector-betsy.test.ts:668',
    '  diff: |',
    '    --- expected',
    '    +++ actual',
    '    @@ -1,1 +1,1 @@',
    '    -100',
    '    +135',
  ]);
});

t.test('the report: totals, workspaces, the slowest files first with their noted phases', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-test-timings-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files = [
    { workspace: '@bo/e2e', file: 'journey.test.ts', ok: true, assertions: 40, wallMs: 90_000, tapMs: 80_000 },
    { workspace: '@bo/players', file: 'test/kyc.test.ts', ok: true, assertions: 96, wallMs: 4_000, tapMs: 1_100 },
    { workspace: '@bo/e2e', file: 'console.test.ts', ok: false, assertions: 12, wallMs: 60_000, tapMs: 58_000 },
  ];
  writeFileSync(
    path.join(dir, 'test-timings.json'),
    JSON.stringify({
      startedAt: '2026-11-26T12:00:00.000Z',
      seconds: 100,
      cpuBusy: 0.874,
      filters: [],
      passed: 148,
      failed: 1,
      checks: [{ label: 'typecheck', ms: 1500, ok: true }],
      files,
    }),
  );
  const e2e = (f: string) => path.join(ROOT, 'test/e2e', f);
  writeFileSync(
    path.join(dir, 'test-phases.jsonl'),
    [
      { file: e2e('journey.test.ts'), phase: 'system start', ms: 20_000 },
      { file: e2e('journey.test.ts'), phase: 'wait', ms: 5_000 },
      { file: e2e('journey.test.ts'), phase: 'wait', ms: 2_500 },
      { file: e2e('console.test.ts'), phase: 'chromium', ms: 1_200 },
      { file: path.join(ROOT, 'services/players/test/kyc.test.ts'), phase: 'service start', ms: 800 },
      // kyc's process noted its own life: its wall time (the 4,000 ms its line took to come is not used)
      { file: path.join(ROOT, 'services/players/test/kyc.test.ts'), phase: 'process', ms: 5_000 },
    ]
      .map((n) => JSON.stringify(n))
      .join('\n') + '\nnot json\n',
  );
  const run = (...args: string[]) => spawnSync(process.execPath, [path.join(ROOT, 'scripts/test-timings.ts'), '--data', dir, ...args], { encoding: 'utf8' });
  const json = run('--json', '--top', '2');
  t.equal(json.status, 0, json.stderr);
  const r = JSON.parse(json.stdout);
  t.match(r, { seconds: 100, cpuBusy: 0.874, passed: 148, failed: 1, checksMs: 1500, files: 3, fileWallSumMs: 155_000 });
  t.match(r.phaseTotalsMs, { 'system start': 20_000, wait: 7_500, chromium: 1_200, 'service start': 800 });
  t.same(
    r.workspaces.map((w: { name: string; ms: number; files: number }) => [w.name, w.ms, w.files]),
    [
      ['@bo/e2e', 150_000, 2],
      ['@bo/players', 5_000, 1],
    ],
  );
  t.same(
    r.slowest.map((f: { path: string }) => f.path),
    ['test/e2e/journey.test.ts', 'test/e2e/console.test.ts'],
    'the top 2, slowest first',
  );
  const text = run();
  t.equal(text.status, 0);
  t.match(text.stdout, '100 s in all (cores 87% busy), 148 passed, 1 failed', "how busy the machine's cores were");
  t.match(text.stdout, /90\.0 s\s+test\/e2e\/journey\.test\.ts\s+40 assertions\s+system start 20\.0 s, wait 7\.5 s/);
  t.match(text.stdout, /5\.0 s\s+services\/players\/test\/kyc\.test\.ts\s+96 assertions\s+service start 0\.8 s/);
  const none = spawnSync(process.execPath, [path.join(ROOT, 'scripts/test-timings.ts'), '--data', path.join(dir, 'nothing')], { encoding: 'utf8' });
  t.equal(none.status, 1);
  t.match(none.stderr, 'No timings yet: run npm test');
});
