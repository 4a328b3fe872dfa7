// Public routes answer without authentication and describe the API the gateway really serves.
import t from 'tap';
import { EVENT_TYPES, publicOperations, signRequest, signWebhook } from '@bo/contracts';
import { startHarness } from './support/harness.ts';

t.test('public documentation routes', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const base = `${h.gateways[0]!.publicUrl}/api/v1`;
  const get = async (p: string) => {
    const r = await fetch(`${base}${p}`);
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text(), rid: r.headers.get('x-request-id') };
  };

  const openapi = await get('/openapi.json');
  t.equal(openapi.status, 200);
  t.match(openapi.rid, /^req_/);
  const doc = JSON.parse(openapi.text);
  t.equal(doc.openapi, '3.1.0');
  t.equal(doc.info.version, '1.4.0');
  const opIds = Object.values(doc.paths).flatMap((p: any) => Object.values(p).map((o: any) => o.operationId));
  const publicRoutes = ['getChangelog', 'getDocs', 'getOpenApi', 'getPostmanCollection', 'getSdkReadme', 'getSigningSnippets', 'getTestVectors'];
  t.same(opIds.sort(), [...Object.values(publicOperations).map((o) => o.id), ...publicRoutes].sort(), 'every operation and public route is documented once');
  t.same(
    Object.values(doc.webhooks)
      .map((w: any) => w.post.operationId)
      .sort(),
    EVENT_TYPES.map((type) => `webhook_${type.replaceAll('.', '_')}`).sort(),
    'every event type is documented as a webhook',
  );
  t.ok(doc.paths['/players/{playerId}/deposits'].post.parameters.some((p: any) => p.name === 'Idempotency-Key' && p.required));
  t.ok(doc.components.schemas.Player, 'named schemas are components');

  const index = await fetch(`${h.gateways[0]!.publicUrl}/`);
  t.equal(index.status, 200, 'GET / answers');
  t.match(await index.json(), { documentation: '/api/v1/docs', openapi: '/api/v1/openapi.json' }, 'and points to the documentation');
  const fromBrowser = await fetch(`${h.gateways[0]!.publicUrl}/`, { headers: { accept: 'text/html,*/*' }, redirect: 'manual' });
  t.equal(fromBrowser.status, 302);
  t.equal(fromBrowser.headers.get('location'), '/api/v1/docs', 'a browser is sent to the documentation page');

  const changelog = await get('/changelog');
  t.match(changelog.type, /^text\/markdown/);
  t.match(changelog.text, /## 1\.1\.0/);

  const postman = JSON.parse((await get('/postman.json')).text);
  t.equal(postman.info.schema, 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
  const flowOps = new Set(postman.item[0].item.map((i: any) => `${i.request.method} ${i.request.url.path.join('/')}`));
  t.equal(flowOps.size, Object.keys(publicOperations).length, 'the flow covers every operation');
  const pre = postman.event[0].script.exec.join('\n');
  t.match(pre, /require\('crypto-js'\)/);
  t.notMatch(pre, /CryptoJS\./, 'not the deprecated global');
  // cancel and the end of game sessions take an empty object; every other body (POST, the confirm's payer, the limits' PUT) has fields.
  const withFields = postman.item[0].item.filter((i: any) => i.request.body && !/\/(cancel|end)$/.test(i.request.url.raw));
  t.equal(withFields.length, 27); // with the registration data's PATCH and the marketing consent (issue #60), a data request (issue #69) and the sandbox's harm markers (issue #68)
  for (const item of withFields) t.ok(Object.keys(JSON.parse(item.request.body.raw)).length > 0, `${item.name}: a real body`);

  const snippets = JSON.parse((await get('/signing-snippets.json')).text);
  t.ok(snippets.requestSigning.node && snippets.requestSigning.python && snippets.webhookVerification.node);

  const vectors = JSON.parse((await get('/test-vectors.json')).text);
  for (const v of vectors.requests) t.equal(signRequest(v.secret, v.method, v.path, v.timestamp, v.body), v.signature);
  for (const w of vectors.webhooks) t.equal(signWebhook(w.secret, w.timestamp, w.body), w.signature);
  t.equal(vectors.requests[0].canonicalString.split('\n').length, 4);

  const page = await get('/docs');
  t.match(page.type, /^text\/html/);
  t.match(page.text, /bk_test_/);
  t.match(page.text, /sandbox keys only/);
  t.match((await get('/docs/assets/docs.js')).text, /only accepts sandbox keys/);
  const slash = await get('/docs/');
  t.equal(slash.status, 200, '/docs/ answers too');
});
