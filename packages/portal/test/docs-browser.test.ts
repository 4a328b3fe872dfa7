// /docs in a real Chromium, at 1280 and 390 px, each a first visit (an empty cache), served by the
// portal plugins on a bare Fastify: everything the page loads weighs at most 1.5 MB over the wire
// (Scalar's bundle compressed), nothing fails (no console error, CSP violation, failed or refused
// request: the favicon is served), no control needs the internet (Scalar's MCP generation, its
// website), the SDK's quick start is the README's, and a phone never scrolls sideways. A second
// visit takes the hashed assets from the cache. PORTAL_SCREENSHOTS=<dir> keeps a screenshot per width.
// Through the gateway with the try-it: services/gateway/test/docs-page.test.ts.
import t from 'tap';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { chromium } from 'playwright-core';
import { apiIndexRoute, publicDocsRoutes } from '../src/index.ts';
// Chromium's launch, shared by every browser test (this workspace does not depend on test-support: taken by path).
import { CHROMIUM_LAUNCH } from '../../test-support/src/chromium.ts';

const SHOTS = process.env.PORTAL_SCREENSHOTS;
const FIRST_LOAD_LIMIT = 1_500_000;
const SERVER_URL = 'https://api.example.com/api/v1';

/** The README's quick start, read line by line: the first fenced block after its heading. */
function readmeQuickStart(): string {
  const lines = readFileSync(path.join(import.meta.dirname, '../../sdk/README.md'), 'utf8').split('\n');
  const open = lines.findIndex((l, i) => l.startsWith('```') && i > lines.indexOf('## Quick start'));
  const close = lines.findIndex((l, i) => i > open && l === '```');
  return lines.slice(open + 1, close).join('\n');
}

t.test('the API reference in Chromium', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  apiIndexRoute(app, { apiPrefix: '/api/v1' });
  await app.register(publicDocsRoutes, { prefix: '/api/v1', publicBaseUrl: 'https://api.example.com', apiPrefix: '/api/v1' });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  t.teardown(() => browser.close());
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  const quickStart = readmeQuickStart();
  t.match(quickStart, /new BackOffice\(/, "the README's quick start was found");

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    t.test(`${viewport.width} px`, async (t) => {
      const mobile = viewport.width < 600;
      const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
      t.teardown(() => context.close());
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.exposeFunction('reportViolation', (v: string) => problems.push(`CSP: ${v}`));
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => reportViolation(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber))",
      );
      // Bytes received per request (headers and encoded body), from Chromium's network layer.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      // Each request counts for the visit that sent it: a request of the first visit that ends during the
      // second (the page's own fetch of its icon, say) is not the second visit's download.
      let visit = 1;
      const received = new Map<string, number>();
      const urls = new Map<string, string>();
      const sentIn = new Map<string, number>();
      cdp.on('Network.requestWillBeSent', (e) => {
        urls.set(e.requestId, e.request.url);
        sentIn.set(e.requestId, visit);
      });
      cdp.on('Network.loadingFinished', (e) => {
        if (sentIn.get(e.requestId) === visit) received.set(urls.get(e.requestId) ?? e.requestId, e.encodedDataLength);
      });
      // Failures seen by the network layer: it also sees the browser's own request for the tab's icon.
      cdp.on('Network.responseReceived', (e) => {
        if (e.response.status >= 400) problems.push(`${e.response.status}: ${e.response.url}`);
      });
      cdp.on('Network.loadingFailed', (e) => problems.push(`failed: ${urls.get(e.requestId)} ${e.errorText}`));

      await page.goto(`${origin}/api/v1/docs`);
      await page.waitForSelector('body[data-try-it-ready="true"]');
      await page.locator('#reference').getByText('Identity of the calling credential').first().waitFor({ state: 'attached' });
      await page.locator('#reference').getByText('Download OpenAPI Document').first().waitFor();

      const total = [...received.values()].reduce((sum, n) => sum + n, 0);
      const bundle = [...received].find(([url]) => /\/scalar\.[0-9a-f]{16}\.js$/.test(url));
      t.ok(bundle && bundle[1] < 1_300_000, `Scalar's bundle arrives compressed (${bundle?.[1]} bytes)`);
      t.ok(total <= FIRST_LOAD_LIMIT, `the first load is ${total} bytes over the wire, at most ${FIRST_LOAD_LIMIT}`);
      t.same(
        [...received.keys()].filter((url) => !url.startsWith(`${origin}/`)),
        [],
        'everything comes from this origin',
      );

      t.equal(await page.getByText(/Generate MCP|Connect MCP/).count(), 0, "no MCP control (Scalar's cloud)");
      t.equal(await page.getByRole('button', { name: /VS Code|Cursor/ }).count(), 0, 'no MCP install buttons');
      t.equal(await page.getByText('Ask AI').count(), 0, 'no remote AI agent');
      const outbound = (await page.evaluate(`[...document.querySelectorAll('a[href]')]
        .filter((a) => a.checkVisibility() && /^https?:/.test(a.href) && new URL(a.href).origin !== location.origin)
        .map((a) => a.href)`)) as string[];
      t.same(
        outbound.filter((href) => !href.startsWith(SERVER_URL)),
        [],
        "no visible link leaves the portal but to the document's own server",
      );

      const icon = await page
        .locator('link[rel="icon"]')
        .getAttribute('href', { timeout: 10_000 })
        .catch(() => null);
      t.match(icon, /^\/api\/v1\/docs\/assets\/favicon\.[0-9a-f]{16}\.svg$/, 'the page links its favicon');
      t.same(
        await page.evaluate(`fetch(${JSON.stringify(icon)}).then(async (r) => (await r.arrayBuffer(), [r.status, r.headers.get('content-type')]))`),
        [200, 'image/svg+xml'],
        'and it is served',
      );

      t.equal(
        await page
          .locator('#sdk-quick-start')
          .textContent({ timeout: 10_000 })
          .catch(() => null),
        quickStart,
        "the SDK's quick start is the README's",
      );
      t.ok((await page.locator('a[href="/api/v1/sdk"]').count()) >= 1, "the page links the SDK's README");
      await page.evaluate(`document.getElementById('sdk')?.setAttribute('open', '')`);
      const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })')) as {
        scroll: number;
        inner: number;
      };
      t.ok(widths.scroll <= widths.inner, `no sideways scrolling, SDK open (scrollWidth ${widths.scroll}, innerWidth ${widths.inner})`);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `docs-${viewport.width}.png`) });
      t.same(problems, [], 'no console error, CSP violation, failed or refused request');

      // A second visit downloads the page and the document again, not the hashed assets.
      received.clear();
      visit = 2;
      await page.goto(`${origin}/api/v1/docs`);
      await page.waitForSelector('body[data-try-it-ready="true"]');
      const assets = [...received].filter(([url]) => url.includes('/docs/assets/'));
      t.ok(assets.length >= 3, `the second visit uses the assets (${assets.length})`);
      t.same(
        assets.filter(([, bytes]) => bytes > 0),
        [],
        'and takes them from the cache',
      );
    });
  }
});
