// What the README and docs/operations.md say about the system matches the repository: the domain
// services they count and name are the folders under services/ (the gateway aside), operations.md's
// capacity table has a row for every process, and every package.json carries the API version.
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { API_VERSION } from '@bo/contracts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (p: string) => readFileSync(path.join(ROOT, p), 'utf8');
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

const components = readdirSync(path.join(ROOT, 'services'))
  .filter((d) => existsSync(path.join(ROOT, 'services', d, 'package.json')))
  .sort();
const domain = components.filter((c) => c !== 'gateway');

t.test('the services the README and docs/operations.md count and name are the ones under services/', async (t) => {
  t.ok(domain.length >= 6, `services/ holds the gateway and ${domain.length} domain services`);
  for (const file of ['README.md', 'docs/operations.md']) {
    const text = read(file).replace(/\s+/g, ' ');
    // Every "<number> services" / "<number> domain services" is the count, and a list in parentheses after it names them.
    const counts = [...text.matchAll(/\b(\w+) (?:domain )?services\b(?: \(([^)]*)\))?/g)].filter((m) => NUMBERS.includes(m[1]!.toLowerCase()));
    for (const m of counts) {
      t.equal(m[1]!.toLowerCase(), NUMBERS[domain.length], `${file}: "${m[0].slice(0, 60)}" counts ${domain.length}`);
      if (m[2] !== undefined) t.same(m[2].split(/,\s*/).sort(), domain, `${file}: the list names every domain service`);
    }
    if (file === 'README.md') t.ok(counts.length >= 2, 'README.md says how many services there are');
  }
  // docs/operations.md's capacity table ("how it scales"): one row per process.
  const rows = read('docs/operations.md')
    .split('\n')
    .map((l) => /^\| ([a-z-]+) \|/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined);
  t.same(
    components.filter((c) => !rows.includes(c)),
    [],
    "docs/operations.md's capacity table has a row for the gateway and every service",
  );
});

t.test('every package.json carries the API version', async (t) => {
  const manifests = [
    'package.json',
    ...['packages', 'services'].flatMap((dir) =>
      readdirSync(path.join(ROOT, dir))
        .map((d) => `${dir}/${d}/package.json`)
        .filter((p) => existsSync(path.join(ROOT, p))),
    ),
    'test/e2e/package.json',
  ];
  const versions = Object.fromEntries(manifests.map((p) => [p, (JSON.parse(read(p)) as { version?: string }).version]));
  t.same(
    Object.entries(versions).filter(([, v]) => v !== API_VERSION),
    [],
    `root and workspace versions are the API version ${API_VERSION} (packages/contracts API_VERSION)`,
  );
  const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version?: string }> };
  t.equal(lock.version, API_VERSION, 'and package-lock.json agrees');
});
