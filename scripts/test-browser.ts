// The browser tests drive Chromium through playwright-core (never `playwright install`, which
// downloads a browser build): find one, or install Debian's package when we may, and hand its
// path to the tests as CHROMIUM_PATH. Debian's headless shell first (chromium-headless-shell: Blink
// and V8 without the browser's UI, what Playwright itself runs headless): the same pages for about
// two thirds of the full browser's CPU, and the suite's browser tests are a third of its CPU
// (docs/testing.md, 2026-11-29).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CANDIDATES = [
  HEADLESS_SHELL,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** Debian's Portuguese pack for Chromium (the full browser's and the headless shell's), from chromium-l10n. */
const LANGUAGE_PACK = '/usr/lib/chromium/locales/pt-BR.pak';

const install = (packages: string) =>
  spawnSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`], { stdio: 'ignore' }).status === 0;

export function findOrInstallChromium(say: (msg: string) => void): string | undefined {
  const given = process.env.CHROMIUM_PATH;
  if (given) return given;
  const canApt = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  let found = CANDIDATES.find((p) => existsSync(p));
  if (found && found !== HEADLESS_SHELL && canApt && found.startsWith('/usr/bin/chromium')) {
    say("installing Chromium's headless shell for the browser tests (apt-get install chromium-headless-shell chromium-l10n)…");
    if (install('chromium-headless-shell chromium-l10n') && existsSync(HEADLESS_SHELL)) found = HEADLESS_SHELL;
  }
  if (found) {
    // Debian's Chromium speaks en-US only without its language packs: the console's page test opens a
    // browser in Portuguese too, whose date inputs are then written dd/mm/aaaa as a Brazilian's are.
    if (found.startsWith('/usr/bin/chromium') && canApt && !existsSync(LANGUAGE_PACK)) {
      say("installing Chromium's language packs for the browser tests (apt-get install chromium-l10n)…");
      install('chromium-l10n');
    }
    return found;
  }
  if (canApt) {
    say('installing Chromium for the browser tests (apt-get install chromium-headless-shell chromium-l10n)…');
    if (install('chromium-headless-shell chromium-l10n') && existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  }
  say(
    'No Chromium found: the browser tests will fail.\n' +
      '  Fix: install it (Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium) or set CHROMIUM_PATH.',
  );
  return undefined;
}
