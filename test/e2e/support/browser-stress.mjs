// A browser test's timing, shaken on purpose (docs/testing.md, "Browser tests under stress"). Loaded
// with `--import` into a browser test's process, it changes when playwright-core acts, never what:
//
//   BROWSER_STRESS=settle   each locator or frame action waits BROWSER_STRESS_MS (default 700 ms) first,
//                           so the page has settled: a locator that matches several elements once
//                           everything has loaded fails strict mode every time, not on a slow day only.
//   BROWSER_STRESS=slownet  each request but a static asset is held 0 to BROWSER_STRESS_MS (default
//                           900 ms) at random: a value read before the request that brings it has
//                           answered is read wrong every few runs, not on a slow day only.
//
// Not part of `npm test` (it makes each browser file several times slower): run after changing a
// browser test or a console page, and when CI failed a browser file that passes here.
import playwright from 'playwright-core';

const mode = process.env.BROWSER_STRESS;
const ms = Number(process.env.BROWSER_STRESS_MS ?? (mode === 'slownet' ? 900 : 700));
const sleep = (n) => new Promise((resolve) => setTimeout(resolve, n));
const STATIC_ASSET = /\.(js|css|svg|png|ico|woff2?)$/;

/** Each named method of `proto` waits `ms` before it runs. */
function delayed(proto, names) {
  for (const name of names) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    proto[name] = async function (...args) {
      await sleep(ms);
      return original.apply(this, args);
    };
  }
}

const LOCATOR_ACTIONS = [
  'waitFor',
  'click',
  'dblclick',
  'fill',
  'type',
  'pressSequentially',
  'press',
  'check',
  'uncheck',
  'selectOption',
  'setInputFiles',
  'hover',
  'focus',
  'textContent',
  'innerText',
  'innerHTML',
  'getAttribute',
  'inputValue',
  'isVisible',
  'isChecked',
  'isEnabled',
  'isDisabled',
  'count',
  'allTextContents',
  'allInnerTexts',
  'evaluate',
  'evaluateAll',
];
const FRAME_ACTIONS = [
  'waitForSelector',
  'click',
  'fill',
  'type',
  'press',
  'check',
  'uncheck',
  'selectOption',
  'setInputFiles',
  'hover',
  'textContent',
  'innerText',
  'getAttribute',
  'inputValue',
  'isVisible',
  '$eval',
  '$$eval',
];

if (mode === 'settle' || mode === 'slownet') {
  // playwright-core bundles its classes: their prototypes are reached through the first browser's objects.
  const launch = playwright.chromium.launch.bind(playwright.chromium);
  let shaken = false;
  playwright.chromium.launch = async (...args) => {
    const browser = await launch(...args);
    if (shaken) return browser;
    shaken = true;
    if (mode === 'settle') {
      const context = await browser.newContext();
      const page = await context.newPage();
      delayed(Object.getPrototypeOf(page.locator('body')), LOCATOR_ACTIONS);
      delayed(Object.getPrototypeOf(page.mainFrame()), FRAME_ACTIONS);
      await context.close();
    } else {
      // browser.newPage() opens its context through newContext too.
      const proto = Object.getPrototypeOf(browser);
      const newContext = proto.newContext;
      proto.newContext = async function (...args) {
        const context = await newContext.apply(this, args);
        await context.route(
          (url) => !STATIC_ASSET.test(url.pathname),
          async (route) => {
            await sleep(Math.random() * ms);
            await route.fallback();
          },
        );
        return context;
      };
    }
    return browser;
  };
}
