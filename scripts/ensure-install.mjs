// Runs before `npm start` and `npm test` on whatever Node npm found: installs the project (npm ci)
// when node_modules is missing or was installed from another package-lock.json, so a fresh clone,
// or a pull that changed dependencies, needs only the one command.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const at = (p) => new URL(`../${p}`, import.meta.url);
const lockHash = createHash('sha256')
  .update(readFileSync(at('package-lock.json')))
  .digest('hex');
const stamp = at('node_modules/.bo-installed-lock');
const installed =
  existsSync(at('node_modules/node/bin/node')) &&
  existsSync(at('node_modules/.bin/tap')) &&
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8').trim() === lockHash;

if (!installed) {
  console.error('Installing dependencies (npm ci)…');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: at('') });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(stamp, `${lockHash}\n`);
}
