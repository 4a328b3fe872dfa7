// The developer portal, Fastify plugins the gateway mounts on its public port: public,
// unauthenticated routes under the API prefix (the OpenAPI document, the changelog, a Postman
// collection with a signing pre-request script, signing snippets, test vectors and the API
// reference: /docs, with its assets, Scalar's standalone bundle from this package's dependencies
// and the signing try-it script), and the index at `/`. All generated from the contracts'
// operation table, so they cannot drift from the API.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { buildOpenApi, publicOperations, type Operation } from '@bo/contracts';
import { buildPostmanCollection } from './postman.ts';
import { SIGNING_SNIPPETS } from './signing-snippets.ts';
import { buildTestVectors } from './test-vectors.ts';
import { DOCS_CSS, DOCS_SCRIPT, DOCS_SECURITY_HEADERS, loadScalarBundle, renderDocsPage } from './docs-page.ts';

export interface PublicDocsOptions {
  publicBaseUrl: string;
  apiPrefix: string;
}

/** The API's changelog, docs/CHANGELOG.md of the repository this package sits in (the image copies it there too). */
const CHANGELOG = path.join(import.meta.dirname, '../../../docs/CHANGELOG.md');

export const WEBHOOK_EVENTS = [
  { name: 'webhook_kyc_status_changed', type: 'kyc.status_changed', summary: 'A player KYC status changed' },
  { name: 'webhook_deposit_confirmed', type: 'deposit.confirmed', summary: 'A deposit was confirmed' },
  { name: 'webhook_withdrawal_status_changed', type: 'withdrawal.status_changed', summary: 'A withdrawal changed status' },
  { name: 'webhook_webhook_test', type: 'webhook.test', summary: 'A test delivery from POST /webhooks/test' },
  {
    name: 'webhook_credential_rotated',
    type: 'credential.rotated',
    summary: 'Our team issued a new API key for the environment; the keys it replaces stop at their expiresAt',
  },
  {
    name: 'webhook_credential_revoked',
    type: 'credential.revoked',
    summary: 'Our team revoked an API key of the environment; requests signed with it are refused',
  },
];

/** Registered under the API prefix: `app.register(publicDocsRoutes, { prefix: apiPrefix, publicBaseUrl, apiPrefix })`. */
export async function publicDocsRoutes(app: FastifyInstance, opts: PublicDocsOptions): Promise<void> {
  const serverUrl = `${opts.publicBaseUrl.replace(/\/$/, '')}${opts.apiPrefix}`;
  const operations = publicOperations as Record<string, Operation>;
  const openapi = JSON.stringify(buildOpenApi(operations, { serverUrl, webhookEvents: WEBHOOK_EVENTS }));
  const changelog = readFileSync(CHANGELOG, 'utf8');
  const postman = JSON.stringify(buildPostmanCollection(operations, serverUrl));
  const snippets = JSON.stringify(SIGNING_SNIPPETS);
  const vectors = JSON.stringify(buildTestVectors(opts.apiPrefix));
  const scalar = loadScalarBundle();
  const page = renderDocsPage({ serverUrl, apiPrefix: opts.apiPrefix, hasReference: scalar !== undefined });

  app.get('/openapi.json', async (_req, reply) => reply.type('application/json').send(openapi));
  app.get('/changelog', async (_req, reply) => reply.type('text/markdown; charset=utf-8').send(changelog));
  app.get('/postman.json', async (_req, reply) => reply.type('application/json').send(postman));
  app.get('/signing-snippets.json', async (_req, reply) => reply.type('application/json').send(snippets));
  app.get('/test-vectors.json', async (_req, reply) => reply.type('application/json').send(vectors));
  // The reference page and its assets: same-origin only, never framed, no MIME sniffing.
  const docs = (type: string, body: string, cache: string) => async (_req: unknown, reply: FastifyReply) =>
    reply.headers(DOCS_SECURITY_HEADERS).header('cache-control', cache).type(type).send(body);
  app.get('/docs', docs('text/html; charset=utf-8', page, 'no-cache'));
  app.get('/docs/', docs('text/html; charset=utf-8', page, 'no-cache'));
  app.get('/docs/assets/docs.js', docs('text/javascript; charset=utf-8', DOCS_SCRIPT, 'no-cache'));
  app.get('/docs/assets/docs.css', docs('text/css; charset=utf-8', DOCS_CSS, 'no-cache'));
  if (scalar) app.get('/docs/assets/scalar.js', docs('text/javascript; charset=utf-8', scalar, 'public, max-age=3600'));
}

/**
 * `GET /` on the public port: where to start. A browser is sent to the documentation page; any
 * other client gets a small JSON index of the public documents.
 */
export function apiIndexRoute(app: FastifyInstance, opts: { apiPrefix: string }): void {
  const index = {
    name: 'Operator Gaming Back-Office API',
    api: opts.apiPrefix,
    documentation: `${opts.apiPrefix}/docs`,
    openapi: `${opts.apiPrefix}/openapi.json`,
    changelog: `${opts.apiPrefix}/changelog`,
    postman: `${opts.apiPrefix}/postman.json`,
    health: '/healthz',
  };
  app.get('/', async (req, reply) => {
    if (/\btext\/html\b/.test(req.headers.accept ?? '')) return reply.redirect(index.documentation, 302);
    return reply.header('link', `<${index.documentation}>; rel="service-doc", <${index.openapi}>; rel="service-desc"`).send(index);
  });
}
