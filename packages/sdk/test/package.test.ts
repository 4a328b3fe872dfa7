// Publishable: `npm pack` builds plain JavaScript and declarations into dist/, ships only dist/
// and the README, has no run-time dependencies, and the packed tarball works when installed
// under node_modules (where Node does not strip TypeScript types) for JS and TS consumers.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PKG = path.resolve(import.meta.dirname, '..');
const TSC = path.resolve(PKG, '../../node_modules/.bin/tsc');
// tap's processinfo wraps child_process and puts its loaders back into NODE_OPTIONS, where they
// break the tsc launcher (ERR_REQUIRE_CYCLE_MODULE): a shell drops them before the command runs.
const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync('sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', cmd, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

t.test('npm pack gives a tarball an operator can install and use', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-sdk-pack-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], PKG)) as [{ filename: string; files: { path: string }[] }];
  const files = packed[0].files.map((f) => f.path).sort();
  t.ok(
    files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('README.md') && files.includes('package.json'),
    'dist, README and package.json are shipped',
  );
  t.same(
    files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json'),
    [],
    'nothing else (no sources, tests or scripts)',
  );
  const manifest = JSON.parse(readFileSync(path.join(PKG, 'package.json'), 'utf8')) as Record<string, unknown>;
  t.same([manifest.dependencies, manifest.peerDependencies, manifest.private], [undefined, undefined, undefined], 'no run-time dependencies; not private');

  const app = path.join(dir, 'app');
  mkdirSync(path.join(app, 'node_modules/@bo/sdk'), { recursive: true });
  execFileSync('tar', ['-xzf', path.join(dir, packed[0].filename), '--strip-components=1', '-C', path.join(app, 'node_modules/@bo/sdk')]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', type: 'module', private: true }));
  const consumer = `
    import { BackOffice, signRequest, verifyWebhook, OPERATIONS, API_VERSION } from '@bo/sdk';
    const sdk = new BackOffice({ baseUrl: 'https://api.example.com/api/v1', key: 'bk_test_k', secret: 'sk_test_s' });
    const created: Promise<{ id: string }> = sdk.players.create({ externalId: 'e', name: 'Ana', email: 'a@b.co', cpf: '52998224725', birthDate: '1990-05-17' }, { signal: AbortSignal.abort() });
    created.catch(() => undefined);
    console.log(JSON.stringify({ version: API_VERSION, operations: Object.keys(OPERATIONS).length, sig: signRequest('sk_x', 'GET', '/api/v1/me', '1', '').length, verify: typeof verifyWebhook }));
  `;
  writeFileSync(path.join(app, 'consumer.ts'), consumer);
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
        typeRoots: [path.resolve(PKG, '../../node_modules/@types')],
      },
      files: ['consumer.ts'],
    }),
  );
  // Type-checks against the shipped declarations (skipLibCheck off: they must be valid on their own).
  let tscOutput = '';
  try {
    run(TSC, ['-p', app], app);
  } catch (e) {
    tscOutput = String((e as { stdout?: string }).stdout);
  }
  t.equal(tscOutput, '', 'a TypeScript consumer (with @types/node) type-checks against dist/*.d.ts');
  // And runs as JavaScript from node_modules.
  writeFileSync(path.join(app, 'consumer.mjs'), consumer.replace(/: Promise<\{ id: string \}>/, ''));
  const out = JSON.parse(run(process.execPath, [path.join(app, 'consumer.mjs')], app));
  t.same(out, { version: '1.2.0', operations: 21, sig: 64, verify: 'function' });
});
