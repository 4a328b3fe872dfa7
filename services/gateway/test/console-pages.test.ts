// The console's pages and modules on the admin port: one shell per page under a CSP that allows
// only the console's own scripts and its import map (by hash); Preact, its hooks and htm come from
// the installed packages; nothing else is served (no traversal, no unknown asset, nothing public).
import t from 'tap';
import { createHash } from 'node:crypto';
import { startHarness } from './support/harness.ts';

t.test('console pages', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;

  // The scripts and styles under the one version the shells name (packages/console: kept immutable).
  let base = '';
  for (const page of ['kyc', 'withdrawals', 'players', 'operators', 'webhooks', 'aml', 'impediments', 'audit', 'ledger', 'account']) {
    const res = await fetch(`${gw.adminUrl}/${page}`);
    const html = await res.text();
    t.equal(res.status, 200, `/${page} is served`);
    const named = html.match(/<script type="module" src="(\/console\/v\/[A-Za-z0-9_-]{16})\/app\.js"><\/script>/)?.[1];
    t.ok(named && (base === '' || named === base), `/${page} names app.js under the one version of the assets`);
    base = named ?? base;
    const map = html.match(/<script type="importmap">(.*?)<\/script>/)?.[1] ?? '';
    const hash = createHash('sha256').update(map).digest('base64');
    t.match(res.headers.get('content-security-policy'), `script-src 'self' 'sha256-${hash}';`, 'the import map is the only inline script allowed');
    t.equal(res.headers.get('x-frame-options'), 'DENY');
    t.equal((await fetch(`${gw.publicUrl}/${page}`)).status, 404, 'not on the public port');
  }

  for (const [path, pattern] of [
    ['/app.js', /from '\.\/kit\.js'/],
    ['/page-withdrawals.js', /FOUR_EYES_REQUIRED/],
    ['/vendor/preact.mjs', /export\s*\{/],
    ['/vendor/hooks.mjs', /from\s*"preact"/],
    ['/vendor/htm.mjs', /export default function/],
  ] as const) {
    const res = await fetch(`${gw.adminUrl}${base}${path}`);
    t.equal(res.status, 200, path);
    t.match(res.headers.get('content-type'), /^text\/javascript/);
    t.match(await res.text(), pattern);
  }
  t.match((await fetch(`${gw.adminUrl}${base}/console.css`)).headers.get('content-type'), /^text\/css/);
  for (const path of ['/console/nope.js', '/console/..%2Fconsole-routes.ts', '/console/vendor/react.mjs', '/console/APP.JS']) {
    const res = await fetch(`${gw.adminUrl}${path}`);
    t.equal(res.status, 404, `${path} is not served`);
    t.equal(((await res.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  }
});
