// The portal plugins on their own: a bare Fastify with the documents under the API prefix and the
// index at `/`. The documents are built for the given base URL, the changelog and the SDK's README
// are the repository's, the reference page's Scalar bundle is the one this package's own dependency
// ships, and the page's assets are named by their content, cached for good and served compressed.
// Through the gateway, linted and in a browser: services/gateway/test/{public-docs,openapi-lint,docs-page}.
import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { publicOperations } from '@bo/contracts';
import { apiIndexRoute, buildTestVectors, publicDocsRoutes } from '../src/index.ts';

t.test('documents, reference page and index', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  apiIndexRoute(app, { apiPrefix: '/api/v1' });
  await app.register(publicDocsRoutes, { prefix: '/api/v1', publicBaseUrl: 'https://api.example.com/', apiPrefix: '/api/v1' });
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  const openapi = (await get('/api/v1/openapi.json')).json();
  t.same(
    openapi.servers.map((s: { url: string }) => s.url),
    ['https://api.example.com/api/v1'],
    'the base URL, its trailing slash dropped',
  );
  t.ok(
    Object.values(publicOperations).every((op) => openapi.paths[op.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[op.method.toLowerCase()]),
    'every operation of the contracts',
  );
  const postman = (await get('/api/v1/postman.json')).json();
  t.equal(postman.variable.find((v: { key: string }) => v.key === 'baseUrl').value, 'https://api.example.com/api/v1');
  t.same((await get('/api/v1/test-vectors.json')).json(), JSON.parse(JSON.stringify(buildTestVectors('/api/v1'))));
  t.ok((await get('/api/v1/signing-snippets.json')).json().requestSigning.node);

  const changelog = await get('/api/v1/changelog');
  t.equal(changelog.headers['content-type'], 'text/markdown; charset=utf-8');
  t.equal(changelog.body, readFileSync(path.join(import.meta.dirname, '../../../docs/CHANGELOG.md'), 'utf8'), "the repository's docs/CHANGELOG.md");

  const readme = readFileSync(path.join(import.meta.dirname, '../../sdk/README.md'), 'utf8');
  const sdk = await get('/api/v1/sdk');
  t.same([sdk.statusCode, sdk.headers['content-type']], [200, 'text/markdown; charset=utf-8']);
  t.equal(sdk.body, readme, "the SDK's README");

  const bundle = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js'));
  const hash = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
  let html = '';
  for (const url of ['/api/v1/docs', '/api/v1/docs/']) {
    const page = await get(url);
    t.equal(page.statusCode, 200, url);
    t.match(page.headers['content-security-policy'], /^default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';/);
    t.same(
      [page.headers['x-frame-options'], page.headers['x-content-type-options'], page.headers['referrer-policy'], page.headers['cache-control']],
      ['DENY', 'nosniff', 'no-referrer', 'no-cache'],
    );
    t.match(page.body, `<script src="/api/v1/docs/assets/scalar.${hash}.js" defer></script>`, 'the installed bundle, named by its content');
    html = page.body;
  }
  const assetUrls = [...html.matchAll(/(?:src|href)="(\/api\/v1\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  t.same(
    assetUrls.map((u) => u.replace(/\.[0-9a-f]{16}\./, '.*.')),
    ['/api/v1/docs/assets/favicon.*.svg', '/api/v1/docs/assets/docs.*.css', '/api/v1/docs/assets/docs.*.js', '/api/v1/docs/assets/scalar.*.js'],
    'the icon, the styles and the scripts, each named by its content',
  );
  t.match(html, '<link rel="icon" type="image/svg+xml" href="/api/v1/docs/assets/favicon.');
  t.ok(html.indexOf('docs.') < html.indexOf('scalar.'), 'docs.js runs before Scalar (it configures it)');
  const snippet = /^## Quick start\n\n```js\n([\s\S]*?)\n```$/m.exec(readme)![1]!;
  const unescaped = (s: string) => s.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);
  t.equal(unescaped(/<pre id="sdk-quick-start"><code>([\s\S]*?)<\/code><\/pre>/.exec(html)![1]!), snippet, "the SDK's quick start, from its README");
  t.match(html, '<a href="/api/v1/sdk">', "and a link to the SDK's README");

  // Every asset: compressed as the client accepts, cached for a year under its hashed name.
  for (const url of assetUrls) {
    const plain = await get(url);
    t.same(
      [plain.statusCode, plain.headers['cache-control'], plain.headers.vary, plain.headers['content-encoding'], plain.headers['x-frame-options']],
      [200, 'public, max-age=31536000, immutable', 'accept-encoding', undefined, 'DENY'],
      `${url}: immutable, as it is for a client that accepts no encoding`,
    );
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    t.equal(br.headers['content-encoding'], 'br', `${url}: brotli when accepted`);
    t.ok(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload), `${url}: the same bytes once decoded`);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    t.equal(gz.headers['content-encoding'], 'gzip', `${url}: gzip when that is all`);
    t.ok(gunzipSync(gz.rawPayload).equals(plain.rawPayload), `${url}: the same bytes once decoded`);
    const unhashed = await get(url.replace(/\.[0-9a-f]{16}\./, '.'));
    t.same(
      [unhashed.statusCode, unhashed.headers.location, unhashed.headers['cache-control']],
      [302, url, 'no-cache'],
      `${url}: its name without hash leads to it`,
    );
  }
  const scalar = await get(`/api/v1/docs/assets/scalar.${hash}.js`, { 'accept-encoding': 'br' });
  t.equal(scalar.headers['content-type'], 'text/javascript; charset=utf-8');
  t.ok(brotliDecompressSync(scalar.rawPayload).equals(bundle), "Scalar's standalone bundle, from this package's dependency");
  t.ok(scalar.rawPayload.length < bundle.length / 3, `compressed to ${scalar.rawPayload.length} bytes of ${bundle.length}`);
  t.equal((await get(`/api/v1/docs/assets/scalar.${'0'.repeat(16)}.js`)).statusCode, 404, 'another hash is not this bundle');
  const script = (await get(assetUrls[2]!)).body;
  t.match(script, /only accepts sandbox keys/);
  t.match(script, /mcp: \{ disabled: true \}/, "no MCP control: Scalar's MCP generation is a remote service");
  t.match(script, /__zod_globalConfig[^\n]*jitless: true/, "Scalar's validator compiles nothing with eval (the CSP forbids it)");
  t.equal((await get(assetUrls[0]!)).headers['content-type'], 'image/svg+xml');
  t.equal((await get(assetUrls[1]!)).headers['content-type'], 'text/css; charset=utf-8');
  const openapiBr = await get('/api/v1/openapi.json', { 'accept-encoding': 'br' });
  t.same([openapiBr.headers['content-encoding'], openapiBr.headers.vary], ['br', 'accept-encoding'], 'the documents are served compressed too');
  t.same(JSON.parse(brotliDecompressSync(openapiBr.rawPayload).toString('utf8')), openapi);

  t.match((await get('/')).json(), { api: '/api/v1', documentation: '/api/v1/docs', openapi: '/api/v1/openapi.json', sdk: '/api/v1/sdk', health: '/healthz' });
  const browser = await get('/', { accept: 'text/html' });
  t.same([browser.statusCode, browser.headers.location], [302, '/api/v1/docs'], 'a browser goes to the reference');
});
