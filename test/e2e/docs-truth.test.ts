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
  // The SDK operators install is versioned as a package of its own (a change to its methods that breaks a
  // caller is a new major version: 2.0.0 speaks API 1.4.0); its README says which API each version speaks.
  const sdk = 'packages/sdk/package.json';
  t.same(
    Object.entries(versions).filter(([p, v]) => p !== sdk && v !== API_VERSION),
    [],
    `root and workspace versions are the API version ${API_VERSION} (packages/contracts API_VERSION), the SDK aside`,
  );
  t.match(read('packages/sdk/README.md'), `- ${versions[sdk]} (API ${API_VERSION})`, "the SDK's README says which API its version speaks");
  const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version?: string }> };
  t.equal(lock.version, API_VERSION, 'and package-lock.json agrees');
});

t.test("one true paragraph about the game page's heartbeat, the same in docs/games.md and docs/responsible-gaming.md", async (t) => {
  const paragraphOf = (file: string) => {
    const text = read(file);
    const start = text.indexOf("**The page's heartbeat.**");
    t.ok(start >= 0, `${file} has the paragraph`);
    // Up to the sentence that points at the other doc.
    return text.slice(start, text.indexOf(' The same paragraph is in', start)).replace(/\s+/g, ' ');
  };
  const games = paragraphOf('docs/games.md');
  t.equal(games, paragraphOf('docs/responsible-gaming.md'), 'word for word the same');
  for (const file of ['docs/games.md', 'docs/responsible-gaming.md']) t.notMatch(read(file), /no heartbeat/i, `${file} never says there is none`);
  // What it says is what the page and the wallet do.
  const page = read('packages/play/assets/play.js');
  t.match(
    page,
    /setInterval\(\(\) => \{\s*if \(Date\.now\(\) - lastInput < 5 \* 60000 && document\.visibilityState !== 'hidden'\) heartbeat\(\);\s*\}, 60000\)/,
  );
  t.match(games, /once a minute while the player used the page \(a pointer or key input\) in the last 5 minutes and the page is visible/);
  t.match(page, /const hb = await heartbeat\(\);/, 'and one at each reality check');
  t.match(games, /once more at each reality check/);
  t.match(page, /body: JSON\.stringify\(\{ realityCheck: 'acknowledged' \}\)/, 'and one when the player acknowledges it');
  t.match(games, /once when the player acknowledges a reality check to play on/);
  const wallet = read('services/wallet/src/games/handlers/play-heartbeat.ts');
  t.match(wallet, /session\.mode === 'real'\) await recordActivity/);
  t.match(wallet, /else if \(needsRoundGuard\(state\.rg, now\)\) await recordDemoActivity/);
  t.match(games, /on the player's account for a real session, whatever the player's rules/);
  t.match(games, /on demo play's own record for a demo \(sandbox\) session of a player with rules/);
});
