// scripts/ensure-install.mjs (run before `npm start` / `npm test`): an install done by `npm ci`
// counts (npm's own node_modules/.package-lock.json against package-lock.json), so `npm ci &&
// npm test` installs once; a changed lock is installed with the reason said; one install at a
// time (a lock held by another ensure-install, or an `npm ci` started by hand, is waited for).
// The script runs from a copy in a scratch project, with a stand-in `npm` first on PATH that
// records its calls and writes what a finished npm install leaves.
import t, { type Test } from 'tap';
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '../..');

const LOCK = {
  name: 'scratch',
  lockfileVersion: 3,
  packages: {
    '': { name: 'scratch', workspaces: ['packages/*'] },
    'packages/a': { name: 'a', version: '1.0.0' },
    'node_modules/a': { resolved: 'packages/a', link: true },
    'node_modules/left-pad': { version: '1.3.0', resolved: 'https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz', integrity: 'sha512-x' },
    'node_modules/@biomejs/cli-darwin-arm64': { version: '2.5.15', optional: true, os: ['darwin'] },
  },
};

// What npm leaves when it finishes: its record of the tree (no root entry, no package skipped on
// this platform), the pinned Node and tap. It waits for a file first when asked to, to stay "running".
const FAKE_NPM = `
const fs = require('node:fs');
const path = require('node:path');
const root = process.cwd();
// Real npm names its process after its command (process.title), which overwrites its command line.
if (process.env.FAKE_NPM_TITLE) process.title = process.env.FAKE_NPM_TITLE;
fs.appendFileSync(path.join(root, 'npm-calls'), process.argv.slice(2).join(' ') + '\\n');
const go = process.env.FAKE_NPM_WAIT_FOR;
const finish = () => {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const packages = {};
  for (const [k, v] of Object.entries(lock.packages)) if (k !== '' && !v.optional) packages[k] = v;
  fs.mkdirSync(path.join(root, 'node_modules/node/bin'), { recursive: true });
  fs.mkdirSync(path.join(root, 'node_modules/.bin'), { recursive: true });
  fs.writeFileSync(path.join(root, 'node_modules/node/bin/node'), '');
  fs.writeFileSync(path.join(root, 'node_modules/.bin/tap'), '');
  fs.writeFileSync(path.join(root, 'node_modules/.package-lock.json'), JSON.stringify({ ...lock, packages }));
};
if (!go) finish();
else {
  console.log('npm: installing');
  const timer = setInterval(() => { if (fs.existsSync(go)) { clearInterval(timer); finish(); } }, 20);
}
`;

function scratch(t: Test) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-ensure-install-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync(path.join(ROOT, 'scripts/ensure-install.mjs'), path.join(dir, 'scripts/ensure-install.mjs'));
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(LOCK));
  mkdirSync(path.join(dir, 'bin'));
  writeFileSync(path.join(dir, 'bin/npm'), `#!${process.execPath}\n${FAKE_NPM}`);
  chmodSync(path.join(dir, 'bin/npm'), 0o755);
  const env = { ...process.env, PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env.PATH}` };
  const calls = () => (existsSync(path.join(dir, 'npm-calls')) ? readFileSync(path.join(dir, 'npm-calls'), 'utf8').trim().split('\n') : []);
  /** `npm ci` as a person runs it (our stand-in): done when `go` exists; `title` as real npm sets it. */
  const npmCi = (go: string, title?: string) =>
    spawn(path.join(dir, 'bin/npm'), ['ci'], {
      cwd: dir,
      env: { ...env, FAKE_NPM_WAIT_FOR: go, ...(title ? { FAKE_NPM_TITLE: title } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  return { dir, env, calls, npmCi };
}

type Run = { child: ChildProcess; lines: string[]; done: Promise<number | null>; line: (re: RegExp) => Promise<string> };
function ensureInstall(dir: string, env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, [path.join(dir, 'scripts/ensure-install.mjs')], { cwd: dir, env, stdio: ['ignore', 'inherit', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<{ re: RegExp; resolve: (l: string) => void }> = [];
  readline.createInterface({ input: child.stderr! }).on('line', (l) => {
    lines.push(l);
    for (const w of waiters.splice(0)) {
      if (w.re.test(l)) w.resolve(l);
      else waiters.push(w);
    }
  });
  const done = new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  const line = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((l) => re.test(l));
      if (seen) return resolve(seen);
      waiters.push({ re, resolve });
      void done.then(() => reject(new Error(`ended without ${re}: ${lines.join('\n')}`)));
    });
  return { child, lines, done, line };
}

const firstLine = (p: ChildProcess) => new Promise<void>((r) => readline.createInterface({ input: p.stdout! }).once('line', () => r()));

t.test('npm ci then npm test: the install npm ci did counts, nothing installs twice', async (t) => {
  const s = scratch(t);
  const hand = s.npmCi(path.join(s.dir, 'no-wait'));
  writeFileSync(path.join(s.dir, 'no-wait'), '');
  await new Promise((r) => hand.once('close', r));
  const run = ensureInstall(s.dir, s.env);
  t.equal(await run.done, 0);
  t.same(s.calls(), ['ci'], 'only the npm ci run by hand');
  t.same(run.lines, [], 'and nothing said');
});

t.test('a changed package-lock.json is installed, saying why; then it is current', async (t) => {
  const s = scratch(t);
  const first = ensureInstall(s.dir, s.env);
  t.equal(await first.done, 0);
  t.match(first.lines.join('\n'), /installing dependencies \(npm ci\): node_modules is missing/);
  const lock = structuredClone(LOCK);
  lock.packages['node_modules/left-pad'].version = '1.3.1';
  writeFileSync(path.join(s.dir, 'package-lock.json'), JSON.stringify(lock));
  const second = ensureInstall(s.dir, s.env);
  t.equal(await second.done, 0);
  t.match(second.lines.join('\n'), 'package-lock.json changed since the last install (1 package: node_modules/left-pad 1.3.0 → 1.3.1)');
  const third = ensureInstall(s.dir, s.env);
  t.equal(await third.done, 0);
  t.same(s.calls(), ['ci --no-audit --no-fund', 'ci --no-audit --no-fund'], 'one npm ci per change');
  t.notOk(existsSync(path.join(s.dir, '.install-lock')), 'the lock is released');
});

t.test('while an npm ci started by hand is installing, it waits for it instead of installing too', async (t) => {
  const s = scratch(t);
  const go = path.join(s.dir, 'go');
  const hand = s.npmCi(go);
  await firstLine(hand);
  const run = ensureInstall(s.dir, s.env);
  t.match(await run.line(/waiting/), `waiting: ${path.join(s.dir, 'bin/npm')} ci (pid ${hand.pid}) is installing into this node_modules`);
  writeFileSync(go, '');
  t.equal(await run.done, 0);
  t.same(s.calls(), ['ci'], 'one install: the one by hand');
  t.match(run.lines.join('\n'), 'node_modules was installed meanwhile, from this package-lock.json');
});

t.test('an npm ci that titled its process "npm ci" (as npm does) is found and waited for', async (t) => {
  const s = scratch(t);
  const go = path.join(s.dir, 'go');
  const hand = s.npmCi(go, 'npm ci');
  await firstLine(hand);
  t.equal(readFileSync(`/proc/${hand.pid}/cmdline`, 'utf8').replace(/\0+$/, ''), 'npm ci', 'its command line is the title: one string, no NUL between words');
  const run = ensureInstall(s.dir, s.env);
  t.match(await run.line(/waiting/), `waiting: npm ci (pid ${hand.pid}) is installing into this node_modules`);
  writeFileSync(go, '');
  t.equal(await run.done, 0);
  t.same(s.calls(), ['ci'], 'one install: the one by hand');
});

t.test('while another ensure-install holds the lock, it waits; a lock left by a dead process is taken over', async (t) => {
  const s = scratch(t);
  const lockDir = path.join(s.dir, '.install-lock');
  mkdirSync(lockDir);
  writeFileSync(path.join(lockDir, 'pid'), `${process.pid}\n`);
  const run = ensureInstall(s.dir, s.env);
  t.match(await run.line(/waiting/), `waiting: another install (pid ${process.pid}) holds .install-lock/`);
  t.same(s.calls(), [], 'no install while it waits');
  rmSync(lockDir, { recursive: true });
  t.equal(await run.done, 0);
  t.same(s.calls(), ['ci --no-audit --no-fund'], 'then it installs, once');

  // A holder that is gone: a child that has exited.
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => gone.once('close', r));
  rmSync(path.join(s.dir, 'node_modules'), { recursive: true });
  mkdirSync(lockDir);
  writeFileSync(path.join(lockDir, 'pid'), `${gone.pid}\n`);
  const again = ensureInstall(s.dir, s.env);
  t.equal(await again.done, 0);
  t.match(again.lines.join('\n'), `taking over the install lock of pid ${gone.pid}, which is gone`);
  t.equal(s.calls().length, 2, 'and installs');
});

// The same with the real npm, as a person would in two terminals: `npm ci` in one, `npm start` in the
// other. The scratch project's own postinstall holds the npm ci open until the test lets it go (and
// leaves the pinned-Node and tap files installState looks for); its one dependency comes from npm's
// cache (installed with the project).
t.test('a real npm ci by hand, then npm start: start waits for it, and both finish with a working node_modules', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-ensure-install-real-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync(path.join(ROOT, 'scripts/ensure-install.mjs'), path.join(dir, 'scripts/ensure-install.mjs'));
  const yaml = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')).packages['node_modules/yaml'];
  const pkg = {
    name: 'scratch-real',
    version: '1.0.0',
    private: true,
    dependencies: { yaml: yaml.version },
    scripts: {
      postinstall: 'node scripts/hold.cjs',
      prestart: 'node scripts/ensure-install.mjs',
      start: `node -e "console.log('started with yaml ' + require('yaml').stringify({ ok: true }).trim())"`,
    },
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
  writeFileSync(
    path.join(dir, 'package-lock.json'),
    JSON.stringify({
      name: pkg.name,
      version: pkg.version,
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: pkg.name, version: pkg.version, dependencies: pkg.dependencies }, 'node_modules/yaml': yaml },
    }),
  );
  writeFileSync(
    path.join(dir, 'scripts/hold.cjs'),
    `const fs = require('node:fs');
fs.writeFileSync('held', '');
const timer = setInterval(() => {
  if (!fs.existsSync('go')) return;
  clearInterval(timer);
  for (const f of ['node_modules/node/bin/node', 'node_modules/.bin/tap']) { fs.mkdirSync(require('node:path').dirname(f), { recursive: true }); fs.writeFileSync(f, ''); }
}, 20);
`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  delete env.npm_config_prefix;
  const output = (p: ChildProcess) => {
    let text = '';
    p.stdout?.on('data', (d: Buffer) => (text += d));
    p.stderr?.on('data', (d: Buffer) => (text += d));
    return () => text;
  };
  const hand = spawn('npm', ['ci', '--prefer-offline'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const handOut = output(hand);
  const handDone = new Promise<number | null>((r) => hand.once('close', r));
  // npm ci has reached its postinstall: it is mid-install.
  while (!existsSync(path.join(dir, 'held'))) {
    if (hand.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.ok(existsSync(path.join(dir, 'held')), `npm ci reached its postinstall (${handOut().slice(-500)})`);
  const start = spawn('npm', ['start'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const startOut = output(start);
  const startDone = new Promise<number | null>((r) => start.once('close', r));
  while (!/\[install\] waiting: npm ci/.test(startOut()) && start.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  t.match(startOut(), `[install] waiting: npm ci`, 'npm start waits for the npm ci run by hand');
  writeFileSync(path.join(dir, 'go'), '');
  t.equal(await handDone, 0, `the npm ci by hand finishes (${handOut().slice(-500)})`);
  t.equal(await startDone, 0, `npm start finishes (${startOut().slice(-500)})`);
  t.match(startOut(), 'started with yaml ok: true', 'with a working node_modules');
  t.notMatch(startOut(), 'installing dependencies', 'and installs nothing itself');
});
