// What `npm test -- <names>` runs (issue #57, a fast path for a change): each name is a workspace
// (`@bo/players`, `players`, `services/players`, `e2e`) or a test file pattern, a piece of a test
// file's path from the repository root (`standing`, `players/test/kyc.test.ts`, `e2e/console`),
// matching every test file whose path holds it. The files are grouped by workspace, so each runs
// with its own tap settings.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Workspace {
  name: string;
  /** Absolute. */
  dir: string;
}

export interface Selection {
  /** Each workspace to run, with the files chosen in it (relative to its folder), or all of them (`files` absent). */
  runs: Array<Workspace & { files?: string[] }>;
  /** Names that matched no workspace and no test file. */
  unmatched: string[];
}

export function workspacesOf(root: string): Workspace[] {
  const out: Workspace[] = [];
  for (const parent of ['packages', 'services']) {
    for (const entry of readdirSync(path.join(root, parent)).sort()) {
      const pkg = path.join(root, parent, entry, 'package.json');
      if (existsSync(pkg)) out.push({ name: JSON.parse(readFileSync(pkg, 'utf8')).name, dir: path.join(root, parent, entry) });
    }
  }
  out.push({ name: JSON.parse(readFileSync(path.join(root, 'test/e2e/package.json'), 'utf8')).name, dir: path.join(root, 'test/e2e') });
  return out;
}

/** A workspace's test files, relative to its folder (what its tap `include` finds: `*.test.ts` outside node_modules). */
function testFilesOf(ws: Workspace): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return walk(p);
      return e.name.endsWith('.test.ts') ? [path.relative(ws.dir, p)] : [];
    });
  return walk(ws.dir).sort();
}

export function selectTests(root: string, names: string[]): Selection {
  const workspaces = workspacesOf(root);
  const whole = new Set<string>();
  const files = new Map<string, Set<string>>();
  const unmatched: string[] = [];
  for (const name of names) {
    const ws = workspaces.find((w) => w.name === name || path.basename(w.dir) === name || path.relative(root, w.dir) === name.replace(/\/$/, ''));
    if (ws) {
      whole.add(ws.name);
      continue;
    }
    let found = false;
    for (const w of workspaces) {
      for (const f of testFilesOf(w)) {
        if (!path.relative(root, path.join(w.dir, f)).includes(name)) continue;
        found = true;
        files.set(w.name, (files.get(w.name) ?? new Set()).add(f));
      }
    }
    if (!found) unmatched.push(name);
  }
  const runs = workspaces
    .filter((w) => whole.has(w.name) || files.has(w.name))
    .map((w) => (whole.has(w.name) ? w : { ...w, files: [...files.get(w.name)!].sort() }));
  return { runs, unmatched };
}
