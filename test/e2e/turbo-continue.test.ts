// `npm test` runs the workspaces' suites through turbo with scripts/turbo-test-args.ts: on a scratch
// monorepo of two workspaces, one whose suite fails at once and one still running, the running one
// finishes (it is not sent SIGINT) and turbo reports one failure and one success.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { turboTestArgs } from '../../scripts/turbo-test-args.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

t.test('one failing suite does not stop the others', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-turbo-continue-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const write = (p: string, content: unknown) => {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), typeof content === 'string' ? content : JSON.stringify(content));
  };
  write('package.json', { name: 'scratch', private: true, packageManager: 'npm@11.19.1', workspaces: ['packages/*'] });
  write('turbo.json', { tasks: { test: { cache: false } } });
  // Finishes once the test has seen turbo report the other suite's failure (then writes the marker):
  // it is still running when that one fails. Without --continue turbo sends it SIGINT before that report.
  write(
    'packages/slow/wait.cjs',
    `
const fs = require('node:fs');
process.on('SIGINT', () => { console.log('slow: interrupted'); process.exit(130); });
const timer = setInterval(() => { if (fs.existsSync(${JSON.stringify(path.join(dir, 'failed'))})) { clearInterval(timer); console.log('slow: finished'); } }, 20);
`,
  );
  write('packages/slow/package.json', { name: 'slow', scripts: { test: 'node wait.cjs' } });
  write('packages/fails/package.json', { name: 'fails', scripts: { test: 'node -e "process.exit(1)"' } });

  const turbo = spawn(path.join(ROOT, 'node_modules/.bin/turbo'), turboTestArgs([]), {
    cwd: dir,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const seen = (d: Buffer) => {
    out += d;
    if (/fails#test:\s+(WARNING|ERROR)/.test(out)) writeFileSync(path.join(dir, 'failed'), '');
  };
  turbo.stdout.on('data', seen);
  turbo.stderr.on('data', seen);
  const code = await new Promise<number | null>((resolve) => turbo.once('close', resolve));
  t.not(code, 0, 'turbo reports the failure');
  t.match(out, /slow:test: slow: finished/, 'the running suite finished');
  t.notMatch(out, /interrupted/, 'and was never sent SIGINT');
  t.match(out, /Tasks:\s+1 successful, 2 total/, 'one success, one failure: the real results');
});
