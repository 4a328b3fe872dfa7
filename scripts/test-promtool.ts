// The alert rules' tests (test/e2e/alert-rules.test.ts) run Prometheus's promtool: find it, or
// install Debian's `prometheus` package (which ships it) when we may, and hand its path to the tests
// as PROMTOOL_PATH, the way test-browser.ts does for Chromium.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CANDIDATES = ['/usr/bin/promtool', '/usr/local/bin/promtool', '/opt/homebrew/bin/promtool', '/bin/promtool'];

export function findOrInstallPromtool(say: (msg: string) => void): string | undefined {
  const given = process.env.PROMTOOL_PATH;
  if (given) return given;
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  const canApt = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (canApt) {
    say('installing promtool for the alert rules tests (apt-get install prometheus)…');
    const r = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus'], {
      stdio: 'ignore',
    });
    if (r.status === 0 && existsSync('/usr/bin/promtool')) return '/usr/bin/promtool';
  }
  say(
    'No promtool found: the alert rules tests will fail.\n' +
      '  Fix: install it (Debian/Ubuntu: sudo apt-get install prometheus; macOS: brew install prometheus) or set PROMTOOL_PATH.',
  );
  return undefined;
}
