// The provider wallet API's documents on their own (a bare Fastify with the plugin under
// /provider/v1): the OpenAPI document covers every provider operation with the provider's security
// scheme and no Idempotency-Key, its examples match the contracts' schemas, the test vectors are
// what the gateway's signing code computes and docs/providers.md's signing example is the first of
// them, the snippets sign with X-Provider-Key, and the reference page configures its try-it for
// provider keys. Against the running system: test/e2e/provider-portal.test.ts.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { createSecretKey } from 'node:crypto';
import {
  compilePart,
  openApiPath,
  ERROR_CATALOGUE,
  PROVIDER_OPERATION_EXAMPLES,
  providerOperations,
  signRequest,
  verifyRequestSignature,
  type ErrorCode,
  type Operation,
} from '@bo/contracts';
import { buildProviderTestVectors, PROVIDER_SIGNING_SNIPPETS, providerDocsRoutes } from '../src/index.ts';

const ops = providerOperations as Record<string, Operation>;

t.test('the provider documents', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  await app.register(providerDocsRoutes, { prefix: '/provider/v1', publicBaseUrl: 'https://api.example.com/' });
  const get = (url: string) => app.inject({ method: 'GET', url });

  const doc = (await get('/provider/v1/openapi.json')).json();
  t.same(
    doc.servers.map((s: { url: string }) => s.url),
    ['https://api.example.com/provider/v1'],
  );
  t.equal(doc.info.title, 'Provider Wallet API');
  t.same(doc.security, [{ providerKey: [], timestamp: [], signature: [] }]);
  t.equal(doc.components.securitySchemes.providerKey.name, 'X-Provider-Key');
  t.notOk(doc.webhooks, 'no webhooks');
  t.same(Object.keys(doc.components.headers).sort(), ['Retry-After', 'X-Request-Id'], 'no RateLimit-* or Idempotent-Replayed headers');
  for (const op of Object.values(ops)) {
    const o = doc.paths[openApiPath(op.path)]?.[op.method.toLowerCase()];
    t.ok(o, `${op.id}: documented at ${op.path}`);
    t.notOk(
      (o.parameters ?? []).some((p: { name: string }) => p.name === 'Idempotency-Key'),
      `${op.id}: no Idempotency-Key (the transactionId is the key)`,
    );
    const codes = Object.values(o.responses).flatMap((r: any) => r.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? []);
    t.same(
      [...(op.errors ?? []), 'INVALID_CREDENTIALS', 'INVALID_SIGNATURE', 'VALIDATION_ERROR'].filter((c) => !codes.includes(c)),
      [],
      `${op.id}: every code it answers is listed`,
    );
    t.notOk(codes.includes('IDEMPOTENCY_CONFLICT') || codes.includes('RATE_LIMITED'), `${op.id}: nothing of the operators' idempotency or rate limits`);
    t.notOk('RateLimit-Limit' in o.responses['200'].headers, `${op.id}: no RateLimit-* headers`);
    const ex = PROVIDER_OPERATION_EXAMPLES[op.id]!;
    // A read (GET, issue #59: reconciliation) has no body.
    if (op.body) t.notOk('error' in compilePart(op.body, 'body')(ex.body), `${op.id}: the example body matches the schema`);
    t.notOk('error' in compilePart(op.response, 'body')(ex.response), `${op.id}: the example answer matches the schema`);
    if (op.body) t.same(o.requestBody.content['application/json'].example, ex.body);
  }
  t.same(
    Object.keys(doc.paths).filter((p) => doc.paths[p].get?.security?.length === 0),
    ['/openapi.json', '/postman.json', '/signing-snippets.json', '/test-vectors.json', '/docs'],
    'the public documents, without security',
  );

  const vectors = (await get('/provider/v1/test-vectors.json')).json();
  t.same(vectors, JSON.parse(JSON.stringify(buildProviderTestVectors('/provider/v1'))));
  for (const v of vectors.requests) {
    t.equal(v.signature, signRequest(v.secret, v.method, v.path, v.timestamp, v.body), `${v.path}: the gateway's signing`);
    t.match(v.key, /^pk_test_[A-Za-z0-9]{16,64}$/);
  }
  const guide = readFileSync(path.join(import.meta.dirname, '../../../docs/providers.md'), 'utf8');
  const first = vectors.requests[0];
  for (const part of [first.secret, first.timestamp, first.body, first.canonicalString, `X-Signature: ${first.signature}`]) {
    t.ok(guide.includes(part), `docs/providers.md's signing example shows ${part.slice(0, 40)}`);
  }

  const snippets = (await get('/provider/v1/signing-snippets.json')).json();
  t.same(snippets, JSON.parse(JSON.stringify(PROVIDER_SIGNING_SNIPPETS)));
  for (const [lang, code] of Object.entries(snippets.requestSigning) as [string, string][]) {
    t.notOk(/X-Operator-Key|Idempotency-Key|\/api\/v1/.test(code), `${lang}: no operator header, Idempotency-Key or /api/v1`);
    if (lang !== 'go') t.match(code, 'X-Provider-Key', `${lang}: sends X-Provider-Key`);
  }

  const postman = (await get('/provider/v1/postman.json')).json();
  t.equal(postman.variable.find((v: { key: string }) => v.key === 'baseUrl').value, 'https://api.example.com/provider/v1');
  const flowOps = postman.item[0].item.map((i: any) => /operationId `(\w+)`/.exec(i.request.description)![1]);
  t.same([...new Set(flowOps)].sort(), Object.keys(ops).sort(), 'the flow runs every provider operation');
  t.match(postman.event[0].script.exec.join('\n'), "pm.request.headers.upsert({ key: 'X-Provider-Key'");

  const page = await get('/provider/v1/docs');
  t.same([page.statusCode, page.headers['x-frame-options'], page.headers['cache-control']], [200, 'DENY', 'no-cache']);
  t.match(page.body, 'data-key-header="X-Provider-Key" data-test-key-prefix="pk_test_" data-live-key-prefix="pk_live_" data-idempotency="false"');
  const assets = [...page.body.matchAll(/(?:src|href)="(\/provider\/v1\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  t.equal(assets.length, 4, 'the icon, styles and scripts');
  for (const url of assets) t.equal((await get(url)).statusCode, 200, `${url} is served`);
  t.equal((await get('/provider/v1/docs/')).statusCode, 200);
});

// issue #56: the guide's error-code table is every code a provider can receive and no other, each at
// its catalogue status. What a provider can receive is derived from the code: every code the served
// OpenAPI document lists for the provider operations (their own errors, the edge's and the body's,
// from the operation table and the provider surface), and NOT_FOUND, which the gateway answers for a
// path under /provider/v1 that is no operation (test/e2e/provider-inputs.test.ts sends one).
t.test("docs/providers.md's error-code table is the provider API's codes, each at its status", async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  await app.register(providerDocsRoutes, { prefix: '/provider/v1', publicBaseUrl: 'https://api.example.com/' });
  const doc = (await app.inject({ method: 'GET', url: '/provider/v1/openapi.json' })).json();
  const answered = new Set<string>(['NOT_FOUND']);
  for (const op of Object.values(ops)) {
    const responses = doc.paths[openApiPath(op.path)][op.method.toLowerCase()].responses;
    for (const r of Object.values(responses) as any[]) {
      for (const c of r.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? []) answered.add(c);
    }
  }
  const guide = readFileSync(path.join(import.meta.dirname, '../../../docs/providers.md'), 'utf8');
  const section = guide.slice(guide.indexOf('\n## Error codes\n'), guide.indexOf('\n## ', guide.indexOf('\n## Error codes\n') + 1));
  const rows = [...section.matchAll(/^\| (\d{3}) \| `([A-Z_]+)` \|/gm)].map((m) => ({ status: Number(m[1]), code: m[2]! }));
  t.ok(rows.length > 20, `the table is found (${rows.length} rows)`);
  const listed = rows.map((r) => r.code);
  t.same(
    listed.filter((c, i) => listed.indexOf(c) !== i),
    [],
    'each code once',
  );
  t.same([...answered].filter((c) => !listed.includes(c)).sort(), [], 'every code a provider can receive is in the table');
  t.same(listed.filter((c) => !answered.has(c)).sort(), [], 'and no code it cannot receive');
  t.same(
    rows.filter((r) => ERROR_CATALOGUE[r.code as ErrorCode]?.status !== r.status).map((r) => `${r.status} ${r.code}`),
    [],
    "each at the catalogue's status",
  );
  t.same(
    rows.map((r) => r.status),
    rows.map((r) => r.status).sort((a, b) => a - b),
    'by status',
  );
});

// issue #56: the signature and the body's type as the guide states them. Hex is compared
// case-insensitively, as on /api/v1 (docs/decisions.md): the guide says so, and the one verifier of
// both APIs does so. The body's type: `application/json` only (the gateway's provider guard; through
// the gateway: test/e2e/provider-inputs.test.ts).
t.test('docs/providers.md states the signature comparison, the ids shared by both environments and the body type the gateway applies', async (t) => {
  const guide = readFileSync(path.join(import.meta.dirname, '../../../docs/providers.md'), 'utf8');
  const row = guide.split('\n').find((l) => l.startsWith('| `X-Signature` |')) ?? '';
  t.match(row, /lowercase hex .*compare the hex case-insensitively/, 'the signing table: send lowercase, compared case-insensitively');
  const v = buildProviderTestVectors('/provider/v1').requests[0]!;
  const key = createSecretKey(Buffer.from(v.secret, 'utf8'));
  t.ok(verifyRequestSignature(key, v.method, v.path, v.timestamp, Buffer.from(v.body), v.signature.toUpperCase()), 'an upper-case signature verifies');
  t.match(
    guide,
    /### One id space for both environments\n\nYour transaction ids are yours across your sandbox and production keys[\s\S]*We chose this over an id space per environment because/,
    'the guide says that transaction ids are shared by the sandbox and production keys, and why',
  );
  t.match(
    guide,
    /sent as `Content-Type: application\/json`, parameters allowed[\s\S]{0,80}any other type, `\+json` types[\s\S]{0,80}included, is 415 `UNSUPPORTED_MEDIA_TYPE`/,
  );
});
