// The packages the services need at run time, and the image's pruning step (Dockerfile). npm
// cannot install them alone here: `npm ci --omit=dev` keeps every workspace and what the
// workspaces' devDependencies pull in (test-support brings tap, TypeScript and more; npm/cli#6670),
// and the root's own dependencies are the local tools' (embedded Postgres, testcontainers). So the
// image installs everything, then keeps the closure of the services' `dependencies` (with their
// `optionalDependencies` where installed, and their peers unless optional, as npm installs them),
// resolved the way Node resolves them, and deletes the rest of node_modules.
//
//   node deploy/k8s/runtime-dependencies.ts           lists what it would keep and remove, and sizes
//   node deploy/k8s/runtime-dependencies.ts --prune   removes what the services do not need
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';

interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** The workspaces the image runs: every one under services/ (they bring contracts and service-kit). */
export function runtimeWorkspaces(root: string): string[] {
  return readdirSync(path.join(root, 'services'))
    .map((d) => path.join(root, 'services', d))
    .filter((d) => existsSync(path.join(d, 'package.json')));
}

/** Where Node finds `name` from a package in `fromDir`: the nearest node_modules up the tree. */
export function resolvePackage(name: string, fromDir: string, root: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

export interface RuntimeClosure {
  /** Real paths of every package the workspaces need, the workspaces included. */
  keep: Set<string>;
  /** Names of required dependencies that are not installed (a broken install). */
  missing: string[];
}

export function runtimeClosure(root: string, workspaces = runtimeWorkspaces(root)): RuntimeClosure {
  const keep = new Set<string>();
  const missing: string[] = [];
  const queue = workspaces.map((w) => realpathSync(w));
  while (queue.length > 0) {
    const dir = queue.pop()!;
    if (keep.has(dir)) continue;
    keep.add(dir);
    const m = readManifest(dir);
    const optional = Object.keys(m.optionalDependencies ?? {});
    const required = [
      ...Object.keys(m.dependencies ?? {}).filter((n) => !optional.includes(n)),
      ...Object.keys(m.peerDependencies ?? {}).filter((n) => m.peerDependenciesMeta?.[n]?.optional !== true),
    ];
    for (const name of [...required, ...optional]) {
      const found = resolvePackage(name, dir, root);
      if (found) queue.push(realpathSync(found));
      else if (required.includes(name)) missing.push(`${name} (from ${m.name ?? dir})`);
    }
  }
  return { keep, missing };
}

/** Package folders under a node_modules folder, scoped ones included, and their own nested node_modules. */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const full = path.join(nodeModules, entry);
    const names = entry.startsWith('@') ? readdirSync(full).map((e) => path.join(full, e)) : [full];
    for (const p of names) {
      out.push(p);
      if (!lstatSync(p).isSymbolicLink()) out.push(...installedPackages(path.join(p, 'node_modules')));
    }
  }
  return out;
}

/** What to remove: installed packages outside the closure (workspace links included), and `.bin`. */
export function unneededPackages(root: string, closure = runtimeClosure(root)): string[] {
  const remove = installedPackages(path.join(root, 'node_modules')).filter((p) => {
    const real = lstatSync(p).isSymbolicLink() ? realpathSync(p) : p;
    return !closure.keep.has(real);
  });
  // A removed package takes its nested node_modules with it: list only the outermost.
  const outermost = remove.filter((p) => !remove.some((q) => q !== p && p.startsWith(`${q}${path.sep}`)));
  const bin = path.join(root, 'node_modules', '.bin');
  return existsSync(bin) ? [bin, ...outermost] : outermost;
}

function sizeOf(p: string): number {
  const st = lstatSync(p);
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.size;
  return readdirSync(p).reduce((sum, e) => sum + sizeOf(path.join(p, e)), 0);
}

if (import.meta.main) {
  const root = path.resolve(import.meta.dirname, '../..');
  const closure = runtimeClosure(root);
  if (closure.missing.length > 0) {
    console.error(`runtime dependencies not installed: ${closure.missing.join(', ')}`);
    process.exit(1);
  }
  const remove = unneededPackages(root, closure);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  if (process.argv.includes('--prune')) {
    for (const p of remove) rmSync(p, { recursive: true, force: true });
    console.log(`kept ${closure.keep.size} packages (node_modules now ${mb(sizeOf(path.join(root, 'node_modules')))}); removed ${remove.length}`);
  } else {
    const total = sizeOf(path.join(root, 'node_modules'));
    const removed = remove.reduce((sum, p) => sum + sizeOf(p), 0);
    console.log(
      `node_modules ${mb(total)}; the services need ${closure.keep.size} packages, ${mb(total - removed)}; ${remove.length} removable, ${mb(removed)}`,
    );
  }
}
