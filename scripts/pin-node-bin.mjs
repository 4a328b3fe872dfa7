// Root postinstall: node_modules/.bin/node is the pinned Node 24 (the `node` devDependency), never
// one of the other releases installed for the SDK's tests (`node20`, `node22`: aliases of the same
// `node` package, so they declare the same `node` bin). npm ci links the `node` package's first
// (it sorts by path), but `npm install` of one package relinks only that package's bins and may
// leave .bin/node on Node 20, which every npm script would then run on.
import { lstatSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const link = path.join(root, 'node_modules/.bin/node');
const target = '../node/bin/node';
let current;
try {
  current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : '(a file)';
} catch {
  current = undefined;
}
if (current !== target) {
  rmSync(link, { force: true });
  symlinkSync(target, link);
  console.error(`[postinstall] node_modules/.bin/node now points to the pinned Node (${target}; it was ${current ?? 'missing'})`);
}
