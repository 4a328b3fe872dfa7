// Chromium for every browser test, driven by playwright-core (never a downloaded browser build): where
// it is (`npm test` finds or installs it and passes CHROMIUM_PATH; scripts/test-browser.ts) and how it
// starts. Node's own modules only, so a workspace without this package's dependencies may take it by path.
import { existsSync } from 'node:fs';

/** Debian's headless shell where it is installed (as `npm test` installs it: scripts/test-browser.ts), else its full browser. */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/** chromium.launch's options: headless in a container (no sandbox, no GPU), and none of Chrome's own traffic or first-run pages (a closed network refuses it). */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM_PATH,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/**
 * CHROMIUM_LAUNCH for a browser whose own language is `lang` (pt-BR, en-US), as a person's is: its date
 * and number inputs are written as that language writes them (29/11/2026 and 1234,5 in Portuguese),
 * which a page's locale (Playwright's `locale`) does not change. Needs the language's pack (Debian's
 * chromium-l10n; without it, en-US).
 */
export function chromiumLaunchIn(lang: string) {
  const posix = lang.replace('-', '_');
  return { ...CHROMIUM_LAUNCH, args: [...CHROMIUM_LAUNCH.args, `--lang=${lang}`], env: { ...process.env, LANGUAGE: posix, LANG: `${posix}.UTF-8` } };
}
