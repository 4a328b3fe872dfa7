// Runs before `npm start` and `npm test` on whatever Node npm found: installs the project when
// node_modules (with the pinned Node 24) is missing, so a fresh clone needs only one command.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync(new URL('../node_modules/node/bin/node', import.meta.url)) || !existsSync(new URL('../node_modules/.bin/tap', import.meta.url))) {
  console.error('Installing dependencies (npm ci)…');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
