// Builds what the package ships: dist/ (ES modules + .d.ts) and dist/cjs/ (CommonJS + .d.ts, with a
// package.json saying so), with the monorepo's TypeScript. Run by `npm run build` and by npm's
// `prepare` step, which npm runs before `npm pack` / `npm publish` and, in this directory, when
// another project installs it by path (`npm install ../back-office/packages/sdk`, a `file:`
// dependency): npm links the directory and nothing else would build dist/. Plain JavaScript: in a
// checkout that was never installed it runs on the other project's Node, which may be 20 (no
// TypeScript type stripping), and must still say what to do.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The monorepo's TypeScript compiler: the nearest node_modules/typescript above this package. */
function findTsc(from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    if (existsSync(tsc)) return tsc;
    if (path.dirname(dir) === dir) return undefined;
  }
}

const tsc = findTsc(pkgDir);
if (!tsc) {
  console.error(
    [
      '@bo/sdk: cannot build dist/ because TypeScript is not installed in the back-office repository.',
      `This directory (${pkgDir}) is the SDK's source. Either run \`npm ci\` at the repository root and install it again,`,
      'or install the packed SDK instead: `npm pack -w @bo/sdk` at the repository root, then `npm install <path to bo-sdk-*.tgz>`.',
    ].join('\n'),
  );
  process.exit(1);
}

const dist = path.join(pkgDir, 'dist');
rmSync(dist, { recursive: true, force: true });
for (const config of ['tsconfig.build.json', 'tsconfig.build.cjs.json']) {
  execFileSync(process.execPath, [tsc, '-p', config], { cwd: pkgDir, stdio: 'inherit' });
}
// Files under dist/cjs are CommonJS whatever this package's "type" says (for Node and for TypeScript).
writeFileSync(path.join(dist, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
