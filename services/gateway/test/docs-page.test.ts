// /docs in a real Chromium: the Scalar reference renders from /openapi.json with nothing loaded
// from another origin and no CSP violation, its bundle compressed under a hashed name, the page
// fits a phone, the try-it signs in the browser (a sandbox GET /me answers 200; an idempotent POST
// with an empty body carries Idempotency-Key), refuses live keys, and the secret never appears in
// any request. Weight, console and controls at two widths: packages/portal/test/docs-browser.test.ts.
import t from 'tap';
import { chromium, type Request } from 'playwright-core';
import { CHROMIUM_LAUNCH } from '@bo/test-support';
import { startHarness } from './support/harness.ts';

t.test('API reference page in Chromium', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const origin = h.gateways[0]!.publicUrl;
  const op = await h.createOperator({ name: 'Docs Bets' });

  const head = await fetch(`${origin}/api/v1/docs`);
  t.equal(head.status, 200);
  const csp = head.headers.get('content-security-policy') ?? '';
  t.match(csp, /frame-ancestors 'none'/);
  t.match(csp, /script-src 'self'(;|$)/, 'no inline or remote scripts');
  t.match(csp, /connect-src 'self'/);
  t.equal(head.headers.get('x-content-type-options'), 'nosniff');
  t.equal(head.headers.get('x-frame-options'), 'DENY');
  const bundle = await fetch(`${origin}/api/v1/docs/assets/scalar.js`, { headers: { 'accept-encoding': 'br, gzip' } });
  t.equal(bundle.status, 200, 'the reference bundle is served by the gateway');
  t.match(bundle.url, /\/api\/v1\/docs\/assets\/scalar\.[0-9a-f]{16}\.js$/, 'under its content-hashed name');
  t.match(bundle.headers.get('content-type'), /javascript/);
  t.same(
    [bundle.headers.get('content-encoding'), bundle.headers.get('cache-control')],
    ['br', 'public, max-age=31536000, immutable'],
    'compressed, cached for good',
  );
  await bundle.arrayBuffer();

  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const requests: Request[] = [];
  page.on('request', (r) => {
    requests.push(r);
  });
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => reportViolation(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber))",
  );

  const res = await page.goto(`${origin}/api/v1/docs/`);
  t.equal(res?.status(), 200, '/docs/ with a trailing slash works');
  await page.waitForSelector('body[data-try-it-ready="true"]');
  // Scalar renders the operations from the document (lazily, as the reader scrolls).
  await page.locator('#reference').getByText('Identity of the calling credential').first().waitFor({ state: 'attached' });
  t.ok((await page.locator('#reference').getByText('Server-to-server back-office API').count()) > 0, 'the reference shows the document');
  t.equal(await page.locator('#bo-body-label').isVisible(), false, 'no body field for a GET');

  const widths = (await page.evaluate('({ scroll: document.documentElement.scrollWidth })')) as { scroll: number };
  t.ok(widths.scroll <= 390, `no horizontal scrolling on a 390 px phone (scrollWidth ${widths.scroll})`);

  // The floating button opens the try-it on the operation being read (Scalar's hash).
  t.equal(await page.locator('#try-it').getAttribute('open'), null, 'the try-it starts closed');
  await page.evaluate(`location.hash = '#tag/deposits/POST/deposits/{depositId}/confirm'`);
  await page.click('#bo-try-button');
  t.equal(
    await page.locator('#bo-op option:checked').textContent(),
    'POST /deposits/{depositId}/confirm · Confirm a pending deposit and credit the wallet',
    'Try it follows the operation being read',
  );
  t.equal(await page.locator('#try-it').getAttribute('open'), '', 'and opens the panel');
  t.equal(await page.locator('#reference').getByText('Ask AI').count(), 0, 'no remote AI agent');

  const out = page.locator('#bo-out');
  const before = requests.length;
  await page.fill('#bo-key', 'bk_live_0123456789abcdef');
  await page.fill('#bo-secret', 'sk_live_should_never_be_used');
  await page.click('#bo-send');
  await out.filter({ hasText: 'Refused' }).waitFor();
  t.equal(requests.slice(before).filter((r) => r.url().includes('/api/v1/me')).length, 0, 'a live key sends nothing');

  await page.fill('#bo-key', op.sandbox.key);
  await page.fill('#bo-secret', op.sandbox.secret);
  await page.selectOption('#bo-op', { label: 'GET /me · Identity of the calling credential' });
  const meResponse = page.waitForResponse((r) => r.url().endsWith('/api/v1/me'));
  await page.click('#bo-send');
  t.equal((await meResponse).status(), 200, 'the browser-signed GET /me is accepted');
  await page.locator('#bo-out[data-status="200"]').waitFor();
  t.match(await out.textContent(), /"environment": "sandbox"/);

  await page.selectOption('#bo-op', { label: 'POST /deposits/{depositId}/confirm · Confirm a pending deposit and credit the wallet' });
  // The example names the payer (required under br-spa); the body may be emptied (optional under off).
  t.match(JSON.parse(await page.inputValue('#bo-body')), { payer: { cpf: /\d/ } }, 'the example body of confirm names the payer');
  await page.fill('#bo-params input[data-name="depositId"]', 'dep_does_not_exist');
  await page.fill('#bo-body', '');
  const confirmRequest = page.waitForRequest((r) => r.url().includes('/deposits/dep_does_not_exist/confirm'));
  const confirmResponse = page.waitForResponse((r) => r.url().includes('/deposits/dep_does_not_exist/confirm'));
  await page.click('#bo-send');
  const sent = await confirmRequest;
  t.match(sent.headers()['idempotency-key'], /^docs-[0-9a-f-]{36}$/, 'an idempotent POST with an empty body carries Idempotency-Key');
  const confirmStatus = (await confirmResponse).status();
  t.notOk([400, 401].includes(confirmStatus), `signed and keyed: not refused by authentication or idempotency (${confirmStatus})`);

  const leaks = requests.filter((r) =>
    [r.url(), JSON.stringify(r.headers()), r.postData() ?? ''].some((s) => s.includes(op.sandbox.secret) || s.includes('sk_live_should_never_be_used')),
  );
  t.equal(leaks.length, 0, 'the secret is in no request');
  t.same(
    requests.filter((r) => !r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')).map((r) => r.url()),
    [],
    'nothing is loaded from another origin',
  );
  t.same([...violations, ...consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e))], [], 'no CSP violations');
});
