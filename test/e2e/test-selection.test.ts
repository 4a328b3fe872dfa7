// `npm test -- <names>` (issue #57's fast path): a name is a workspace, by its package name, its
// folder's name or its path, or a piece of test files' paths; the files are grouped by workspace;
// a name that matches nothing is said. Read against this repository's own workspaces and files.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { selectTests } from '../../scripts/test-selection.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const runsOf = (names: string[]) => selectTests(ROOT, names).runs.map((r) => [r.name, r.files ?? 'all']);

t.test('a workspace by its package name, folder name or path: all of its files', async (t) => {
  for (const name of ['@bo/players', 'players', 'services/players', 'services/players/']) t.same(runsOf([name]), [['@bo/players', 'all']], name);
  t.same(runsOf(['e2e']), [['@bo/e2e', 'all']], 'the e2e suite');
});

t.test('a piece of a path: every test file holding it, grouped by workspace', async (t) => {
  t.same(runsOf(['players/test/standing.test.ts']), [['@bo/players', ['test/standing.test.ts']]]);
  t.same(
    runsOf(['test-timings', 'sdk/test/errors']),
    [
      ['@bo/sdk', ['test/errors.test.ts']],
      ['@bo/e2e', ['test-timings.test.ts']],
    ],
    'in the order of the workspaces',
  );
  const standing = selectTests(ROOT, ['standing']).runs;
  t.same(
    standing.map((r) => r.name),
    ['@bo/players', '@bo/e2e'],
    'one name, files in two workspaces',
  );
  t.ok(
    standing.every((r) => r.files?.length && r.files.every((f) => f.includes('standing'))),
    'only the files that hold it',
  );
  t.same(runsOf(['players', 'players/test/kyc']), [['@bo/players', 'all']], 'a whole workspace takes in its files named too');
});

t.test('a name that matches nothing is said, and npm test stops with the fix', async (t) => {
  t.same(selectTests(ROOT, ['players', 'no-such-suite']).unmatched, ['no-such-suite']);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/test.ts'), 'no-such-suite'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env } });
  t.equal(r.status, 1);
  t.match(r.stderr, 'no workspace or test file matches "no-such-suite"');
  t.match(r.stdout.trim().split('\n').at(-1), '0 passed, 1 failed');
});
