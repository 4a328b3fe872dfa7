// The portal plugins on their own: a bare Fastify with the documents under the API prefix and the
// index at `/`. The documents are built for the given base URL, the changelog is the repository's,
// and the reference page's Scalar bundle is the one this package's own dependency ships.
// Through the gateway, linted and in a browser: services/gateway/test/{public-docs,openapi-lint,docs-page}.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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

  for (const url of ['/api/v1/docs', '/api/v1/docs/']) {
    const page = await get(url);
    t.equal(page.statusCode, 200, url);
    t.match(page.headers['content-security-policy'], /^default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';/);
    t.same(
      [page.headers['x-frame-options'], page.headers['x-content-type-options'], page.headers['referrer-policy'], page.headers['cache-control']],
      ['DENY', 'nosniff', 'no-referrer', 'no-cache'],
    );
    t.match(page.body, '<script src="/api/v1/docs/assets/scalar.js"></script>', 'the reference bundle is installed');
  }
  const scalar = await get('/api/v1/docs/assets/scalar.js');
  const bundle = path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');
  t.same([scalar.headers['content-type'], scalar.headers['cache-control']], ['text/javascript; charset=utf-8', 'public, max-age=3600']);
  t.ok(scalar.body === readFileSync(bundle, 'utf8'), "Scalar's standalone bundle, from this package's dependency");
  t.match((await get('/api/v1/docs/assets/docs.js')).body, /only accepts sandbox keys/);
  t.equal((await get('/api/v1/docs/assets/docs.css')).headers['content-type'], 'text/css; charset=utf-8');

  t.match((await get('/')).json(), { api: '/api/v1', documentation: '/api/v1/docs', openapi: '/api/v1/openapi.json', health: '/healthz' });
  const browser = await get('/', { accept: 'text/html' });
  t.same([browser.statusCode, browser.headers.location], [302, '/api/v1/docs'], 'a browser goes to the reference');
});
