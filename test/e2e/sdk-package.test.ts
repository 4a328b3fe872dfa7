// The SDK as another project gets it, against the real system. `npm pack -w @bo/sdk` gives a tarball
// that ships only dist/ (ES modules, CommonJS, declarations) and the README and brings no
// dependency; a fresh project installs it and runs the README's quick start, unchanged but for the
// URL, on Node 20, 22 and 24, as ESM twice (each run makes its own player and deposit) and as
// CommonJS, and type-checks it against the installed declarations. A project that installs the
// SDK's directory by path gets dist/ built by npm's prepare step, or a message saying what to do.
import t from 'tap';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nodeRelease, otherNodeReleases, runClean } from './support/node-releases.ts';
import { startStack } from './support/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SDK_DIR = path.join(ROOT, 'packages/sdk');
const TSC = path.join(ROOT, 'node_modules/.bin/tsc');
// Node 20 and 22 as installed with the project (root devDependencies `node20`, `node22`); Node 24 is the pinned one running this test.
const OTHER_NODES = otherNodeReleases().map((r) => r.version);
const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline'];

/** The README's quick start, as written. */
const quickStart = (): string => {
  const readme = readFileSync(path.join(SDK_DIR, 'README.md'), 'utf8');
  return /## Quick start\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
};
const IMPORT_LINE = "import { BackOffice, generateCpf } from '@bo/sdk';\n";
/** The same program for CommonJS: `require`, and the rest in an async function (no top-level await). */
const asCommonJs = (esm: string, requireLine: string) => `${requireLine}\n(async () => {\n${esm.replace(IMPORT_LINE, '')}})();\n`;

/** A command's output, or why it failed (so a failure is an assertion's diff, not a crash). */
const attempt = (run: Promise<string>): Promise<string> =>
  run.catch((e: Error & { stdout?: string; stderr?: string }) => `failed: ${`${e.stdout ?? ''}${e.stderr ?? ''}`.trim() || e.message}`);

/** What one run printed: the confirmed deposit's player, when the wallet shows the credit. */
const outcome = (stdout: string) => ({
  confirmed: /status: 'confirmed'/.test(stdout),
  credited: /available: '100\.00'/.test(stdout),
  playerId: /playerId: '(plr_[^']+)'/.exec(stdout)?.[1] ?? stdout.slice(0, 400),
});

const scratchProject = (dir: string, name: string): string => {
  const app = path.join(dir, name);
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' })}\n`);
  return app;
};

t.test('the packed SDK in a fresh project: ESM, CommonJS and types, on Node 20, 22 and 24, against the system', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-sdk-package-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The system starts while the package is built and installed; stopped whatever happens next.
  const stackStarting = startStack();
  t.teardown(() =>
    stackStarting.then(
      (s) => s.close(),
      () => undefined,
    ),
  );
  const nodes = [...OTHER_NODES.map((v) => [v, nodeRelease(v)] as const), [process.versions.node, process.execPath] as const];

  const packed = JSON.parse(await runClean('npm', ['pack', '-w', '@bo/sdk', '--json', '--pack-destination', dir], { cwd: ROOT })) as [
    { filename: string; files: { path: string }[] },
  ];
  const files = packed[0].files.map((f) => f.path);
  t.same(
    ['dist/index.js', 'dist/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json', 'README.md', 'package.json'].filter(
      (f) => !files.includes(f),
    ),
    [],
    'ES modules, CommonJS, declarations, the README and package.json are shipped',
  );
  t.same(
    files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json'),
    [],
    'nothing else (no sources, tests or scripts)',
  );

  const app = scratchProject(dir, 'app');
  await runClean('npm', [...NPM_INSTALL, path.join(dir, packed[0].filename)], { cwd: app });
  const installed = JSON.parse(readFileSync(path.join(app, 'node_modules/@bo/sdk/package.json'), 'utf8')) as Record<string, unknown>;
  t.same(
    {
      modules: readdirSync(path.join(app, 'node_modules')).filter((f) => !f.startsWith('.')),
      dependencies: installed.dependencies ?? null,
      peerDependencies: installed.peerDependencies ?? null,
      private: installed.private ?? null,
    },
    { modules: ['@bo'], dependencies: null, peerDependencies: null, private: null },
    'the tarball alone is installed: no run-time dependencies',
  );

  const code = quickStart();
  t.ok(
    code.startsWith(IMPORT_LINE) && code.includes('process.env.BO_KEY') && code.includes('https://api.example.com/api/v1'),
    'the README has the quick start',
  );
  // Type-checked as a TypeScript project writes it (strict, so the environment variables asserted
  // present), as an ES module and as CommonJS, against the installed declarations (skipLibCheck off).
  const typed = code.replace(/process\.env\.(BO_KEY|BO_SECRET)/g, 'process.env.$1!');
  writeFileSync(path.join(app, 'quick-start.ts'), typed);
  writeFileSync(path.join(app, 'quick-start.cts'), asCommonJs(typed, IMPORT_LINE));
  writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
      },
      files: ['quick-start.ts', 'quick-start.cts'],
    }),
  );
  const tscOutput = await attempt(runClean(TSC, ['-p', app], { cwd: app }));
  t.equal(tscOutput, '', 'the quick start type-checks as ESM and as CommonJS TypeScript');
  // A project without @types/node (the default libraries only) compiles against the declarations,
  // and they refuse a method or a currency the API would refuse (422) at compile time.
  writeFileSync(
    path.join(app, 'no-node-types.ts'),
    [
      "import { BackOffice, generateCpf, verifyWebhook, type CreateDeposit, type EventType } from '@bo/sdk';",
      "const sdk = new BackOffice({ baseUrl: 'https://api.example.com/api/v1', key: 'bk_test_x', secret: 'sk_test_x' });",
      "const ok: CreateDeposit = { amount: '1.00', currency: 'BRL', method: 'pix', externalReference: 'r' };",
      '// @ts-expect-error: not a method the contract offers',
      "const bitcoin: CreateDeposit = { amount: '1.00', currency: 'BRL', method: 'bitcoin', externalReference: 'r' };",
      "// @ts-expect-error: not the brand's currency",
      "const usd: CreateDeposit = { amount: '1.00', currency: 'USD', method: 'pix', externalReference: 'r' };",
      "const event: EventType = 'deposit.confirmed';",
      "export const used = [sdk.deposits.confirm('dep_1', { payer: { cpf: generateCpf() } }), ok, bitcoin, usd, event, verifyWebhook];",
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(app, 'tsconfig.no-node.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files: ['no-node-types.ts'],
    }),
  );
  t.equal(
    await attempt(runClean(TSC, ['-p', path.join(app, 'tsconfig.no-node.json')], { cwd: app })),
    '',
    'the declarations compile without @types/node, and refuse method "bitcoin" and currency "USD"',
  );
  // The same exports through import and require.
  writeFileSync(
    path.join(app, 'surface.mjs'),
    "import { createRequire } from 'node:module';\nconst esm = Object.keys(await import('@bo/sdk')).sort();\nconst cjs = Object.keys(createRequire(import.meta.url)('@bo/sdk')).filter((k) => k !== '__esModule').sort();\nconsole.log(JSON.stringify({ same: JSON.stringify(esm) === JSON.stringify(cjs), hasClient: esm.includes('BackOffice') && esm.includes('verifyWebhook') }));\n",
  );

  const stack = await stackStarting;
  // As the demo operator `npm start` creates: compliance profile br-spa.
  const op = await stack.createOperator('SDK Package');
  t.equal(
    (
      await stack.admin(
        'PUT',
        `/admin/operators/${op.operator.id}/compliance`,
        { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        'compliance',
      )
    ).status,
    200,
  );
  const baseUrl = `${stack.publicUrl}/api/v1`;
  writeFileSync(path.join(app, 'quick-start.mjs'), code.replace('https://api.example.com/api/v1', baseUrl));
  writeFileSync(
    path.join(app, 'quick-start.cjs'),
    asCommonJs(code.replace('https://api.example.com/api/v1', baseUrl), "const { BackOffice, generateCpf } = require('@bo/sdk');"),
  );
  const env = { ...process.env, BO_KEY: op.sandbox.key, BO_SECRET: op.sandbox.secret };

  const players: string[] = [];
  for (const [version, node] of nodes) {
    const ran = {
      version: (await runClean(node, ['--version'], { cwd: app })).trim(),
      surface: (await attempt(runClean(node, ['surface.mjs'], { cwd: app, env }))).trim(),
      esmFirst: outcome(await attempt(runClean(node, ['quick-start.mjs'], { cwd: app, env }))),
      esmSecond: outcome(await attempt(runClean(node, ['quick-start.mjs'], { cwd: app, env }))),
      commonJs: outcome(await attempt(runClean(node, ['quick-start.cjs'], { cwd: app, env }))),
    };
    const run = { confirmed: true, credited: true, playerId: /^plr_/ };
    t.match(
      ran,
      { version: `v${version}`, surface: '{"same":true,"hasClient":true}', esmFirst: run, esmSecond: run, commonJs: run },
      `Node ${version}: registers, deposits, confirms and reads the wallet, twice as ESM and once as CommonJS`,
    );
    players.push(ran.esmFirst.playerId, ran.esmSecond.playerId, ran.commonJs.playerId);
  }
  t.equal(
    new Set(players.filter((p) => p.startsWith('plr_'))).size,
    3 * nodes.length,
    'every run registered its own player (the quick start can be run again)',
  );
});

t.test('installing the SDK directory by path builds it, or says what to do', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-sdk-path-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const node20 = nodeRelease(OTHER_NODES[0]!);
  // As in a fresh clone: nothing built.
  rmSync(path.join(SDK_DIR, 'dist'), { recursive: true, force: true });
  // npm run on Node 20, as the other project's (the build itself uses the monorepo's tools). npm's own log
  // level, whatever the caller's: under `npm run -s …` (npm_config_loglevel=silent) the failure below said nothing.
  const env = { ...process.env, PATH: `${path.dirname(node20)}:${process.env.PATH}`, npm_config_loglevel: 'notice' };
  const app = scratchProject(dir, 'app');
  await runClean('npm', [...NPM_INSTALL, SDK_DIR], { cwd: app, env });
  const esm = await attempt(
    runClean(node20, ['--input-type=module', '-e', "const m = await import('@bo/sdk'); console.log(typeof m.BackOffice)"], { cwd: app }),
  );
  const cjs = await attempt(runClean(node20, ['-e', "console.log(typeof require('@bo/sdk').BackOffice)"], { cwd: app }));
  t.same([esm.trim(), cjs.trim()], ['function', 'function'], 'imported and required on Node 20 from the linked directory');

  // Outside the repository (no TypeScript to build with): the install fails and says why.
  const copy = path.join(dir, 'sdk-source');
  for (const part of ['package.json', 'scripts', 'src', 'tsconfig.build.json', 'tsconfig.build.cjs.json']) {
    cpSync(path.join(SDK_DIR, part), path.join(copy, part), { recursive: true });
  }
  const other = scratchProject(dir, 'other');
  const failure = await runClean('npm', [...NPM_INSTALL, copy], { cwd: other, env }).then(
    () => 'installed',
    // Its output and how it ended, whole.
    (e: { stderr?: string; stdout?: string; code?: unknown; signal?: unknown }) =>
      `${e.stderr ?? ''}${e.stdout ?? ''}\n(npm exited with ${String(e.code)}, signal ${String(e.signal)})`,
  );
  t.match(failure, /cannot build dist\/ because TypeScript is not installed[\s\S]*npm pack -w @bo\/sdk/, 'the error names the cause and the fix');
});
