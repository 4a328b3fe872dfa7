// Every browser module of the console parses as an ES module. A syntax error in one asset (a name
// declared twice by two pages' edits, say) stops the whole console in the browser before any page
// renders; the browser tests find it only minutes later and as a sign-in timeout.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const ASSETS = path.join(import.meta.dirname, '../assets');
const modules = readdirSync(ASSETS).filter((f) => f.endsWith('.js'));

t.ok(modules.length >= 20, `${modules.length} browser modules`);
const broken = modules.flatMap((file) => {
  // --check parses without running: the bare imports (preact) are not resolved.
  // (this package is "type": "module", so each file parses as an ES module, as the browser loads it).
  const check = spawnSync(process.execPath, ['--check', path.join(ASSETS, file)], { encoding: 'utf8' });
  return check.status === 0 ? [] : [`${file}: ${check.stderr.split('\n').slice(0, 5).join(' ')}`];
});
t.same(broken, [], 'every asset parses');
