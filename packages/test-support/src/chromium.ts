// Chromium for every browser test, driven by playwright-core (never a downloaded browser build): where
// it is (`npm test` finds or installs it and passes CHROMIUM_PATH; scripts/test-browser.ts) and how it
// starts. No import here, so a workspace without this package's dependencies may take it by path.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** chromium.launch's options: headless in a container (no sandbox, no GPU), and none of Chrome's own traffic or first-run pages (a closed network refuses it). */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM_PATH,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};
