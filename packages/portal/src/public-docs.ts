// The developer portal, Fastify plugins the gateway mounts on its public port: public,
// unauthenticated routes under the API prefix (the OpenAPI document, the changelog, a Postman
// collection with a signing pre-request script, signing snippets, test vectors, the SDK's README
// and the API reference: /docs, with its assets, Scalar's standalone bundle from this package's
// dependencies and the signing try-it script), and the index at `/`. All generated from the
// contracts' operation table, so they cannot drift from the API. Every body is built at start-up
// and served compressed (compressed-body.ts); the page's assets under content-hashed names.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildOpenApi, publicOperations, type EventType, type Operation } from '@bo/contracts';
import { buildPostmanCollection } from './postman.ts';
import { SIGNING_SNIPPETS } from './signing-snippets.ts';
import { buildTestVectors } from './test-vectors.ts';
import { compressible, sendCompressed, type CompressibleBody } from './compressed-body.ts';
import {
  DOCS_CSS,
  DOCS_FAVICON,
  DOCS_SCRIPT,
  DOCS_SECURITY_HEADERS,
  loadScalarBundle,
  renderDocsPage,
  sdkQuickStart,
  type DocsPageAssets,
} from './docs-page.ts';

export interface PublicDocsOptions {
  publicBaseUrl: string;
  apiPrefix: string;
}

/** The API's changelog, docs/CHANGELOG.md of the repository this package sits in (the image copies it there too). */
const CHANGELOG = path.join(import.meta.dirname, '../../../docs/CHANGELOG.md');
/** The SDK's README, beside this package (the image copies it, and no other file of the SDK). */
const SDK_README = path.join(import.meta.dirname, '../../sdk/README.md');

/** What each event sent to an operator's webhook URL says, in the order the OpenAPI document lists them. */
const WEBHOOK_EVENT_SUMMARIES: Record<EventType, string> = {
  'kyc.status_changed': 'A player KYC status changed',
  'deposit.confirmed': 'A deposit was confirmed',
  'withdrawal.status_changed': 'A withdrawal changed status',
  'webhook.test': 'A test delivery from POST /webhooks/test',
  'credential.rotated': 'Our team issued a new API key for the environment; the keys it replaces stop at their expiresAt',
  'player.limits.changed': 'A player limit was set, lowered, raised or removed (by the player through you, or by our team)',
  'player.limit.reached': 'A deposit, round or game session was refused because it would pass a limit',
  'player.paused': 'A player paused play',
  'player.self_excluded': 'A player self-excluded (a fixed term or without end)',
  'player.self_exclusion.ended': 'A self-exclusion ended: its term ran out, or our compliance team lifted an indefinite one',
  'credential.revoked': 'Our team revoked an API key of the environment; requests signed with it are refused',
  'deposit.failed': 'A deposit ended failed without credit; refundRequired: the money must go back to its origin (br-spa payer mismatch)',
  'player.restricted': 'br-spa: the player may no longer deposit or play; withdrawals stay open until withdrawalsUntil',
  'player.closed': 'br-spa: the player is closed for good; a balance left goes to their own account',
  'player.status.changed': 'Our team or one of our rules changed the player status (the status only, never why)',
  'sports_bet.placed': 'A third-party sportsbook took a bet of the player (stake, slip)',
  'sports_bet.settled': 'A sports bet closed: settled with its outcome and win, or voided',
  'player.registration_incomplete':
    'br-spa: the player lacks registration data the profile requires (missing): deposits and bets are refused until you complete it',
  'player.registration_completed': 'br-spa: the registration data announced incomplete is now complete; the restriction is lifted',
  'player.marketing_changed':
    "The player's marketing permission changed: consent given or withdrawn, or forced off by a self-exclusion, pause, impediment or closing",
  'player.risk_level_changed': "The player's level of risk of gambling harm moved, with every marker behind it and those that came and went",
  'player.self_exclusion_recommended':
    "Our team, following the player's harm case, recommends that the player self-exclude: tell the player, with your self-exclusion and the SPA's central platform",
};

export const WEBHOOK_EVENTS = Object.entries(WEBHOOK_EVENT_SUMMARIES).map(([type, summary]) => ({
  name: `webhook_${type.replaceAll('.', '_')}`,
  type,
  summary,
}));

/** Assets are named by their content: a browser may keep one for a year and never ask again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Registered under the API prefix: `app.register(publicDocsRoutes, { prefix: apiPrefix, publicBaseUrl, apiPrefix })`. */
export async function publicDocsRoutes(app: FastifyInstance, opts: PublicDocsOptions): Promise<void> {
  const serverUrl = `${opts.publicBaseUrl.replace(/\/$/, '')}${opts.apiPrefix}`;
  const operations = publicOperations as Record<string, Operation>;
  const sdkReadme = readFileSync(SDK_README, 'utf8');
  const documents: [string, string, string][] = [
    ['/openapi.json', 'application/json', JSON.stringify(buildOpenApi(operations, { serverUrl, webhookEvents: WEBHOOK_EVENTS }))],
    ['/changelog', 'text/markdown; charset=utf-8', readFileSync(CHANGELOG, 'utf8')],
    ['/postman.json', 'application/json', JSON.stringify(buildPostmanCollection(operations, serverUrl))],
    ['/signing-snippets.json', 'application/json', JSON.stringify(SIGNING_SNIPPETS)],
    ['/test-vectors.json', 'application/json', JSON.stringify(buildTestVectors(opts.apiPrefix))],
    ['/sdk', 'text/markdown; charset=utf-8', sdkReadme],
  ];
  documentRoutes(app, documents);

  const assets = docsAssetRoutes(app, opts.apiPrefix);
  referencePageRoutes(app, renderDocsPage({ serverUrl, apiPrefix: opts.apiPrefix, assets, sdkQuickStart: sdkQuickStart(sdkReadme) }));
}

/** Public documents, each [url, content type, text], built once and served compressed. */
export function documentRoutes(app: FastifyInstance, documents: [string, string, string][]): void {
  for (const [url, type, text] of documents) {
    const body = compressible(text);
    app.get(url, async (req, reply) => sendCompressed(req, reply.type(type), body));
  }
}

/** The reference page's assets, built once for every surface (the operators' and the providers' pages share them). */
let sharedAssets: { name: string; type: string; body: CompressibleBody; file: string }[] | undefined;
function pageAssets() {
  if (sharedAssets) return sharedAssets;
  const scalar = loadScalarBundle();
  sharedAssets = [
    { name: 'docs.js', type: 'text/javascript; charset=utf-8', body: compressible(DOCS_SCRIPT) },
    { name: 'docs.css', type: 'text/css; charset=utf-8', body: compressible(DOCS_CSS) },
    { name: 'favicon.svg', type: 'image/svg+xml', body: compressible(DOCS_FAVICON) },
    ...(scalar === undefined ? [] : [{ name: 'scalar.js', type: 'text/javascript; charset=utf-8', body: compressible(scalar) }]),
  ].map((a) => ({ ...a, file: a.name.replace(/\.(\w+)$/, `.${a.body.hash}.$1`) }));
  return sharedAssets;
}

// The reference page and its assets: same-origin only, never framed, no MIME sniffing.
const docsReply = (type: string, body: CompressibleBody, cache: string) => async (req: FastifyRequest, reply: FastifyReply) =>
  sendCompressed(req, reply.headers(DOCS_SECURITY_HEADERS).header('cache-control', cache).type(type), body);

/** Serves the page's assets under `<prefix>/docs/assets` (the plugin is registered under `prefix`); answers their URLs. */
export function docsAssetRoutes(app: FastifyInstance, prefix: string): DocsPageAssets {
  const base = `${prefix}/docs/assets`;
  const assets = pageAssets();
  const urlOf = (name: string) => {
    const asset = assets.find((a) => a.name === name);
    return asset && `${base}/${asset.file}`;
  };
  for (const a of assets) {
    app.get(`/docs/assets/${a.file}`, docsReply(a.type, a.body, IMMUTABLE));
    // The name without its hash (pages and bookmarks from before) leads to the current content.
    app.get(`/docs/assets/${a.name}`, async (_req, reply) => reply.header('cache-control', 'no-cache').redirect(`${base}/${a.file}`, 302));
  }
  return { scalar: urlOf('scalar.js'), script: urlOf('docs.js')!, css: urlOf('docs.css')!, favicon: urlOf('favicon.svg')! };
}

/** `/docs` and `/docs/`: the page's HTML, never cached (its assets are). */
export function referencePageRoutes(app: FastifyInstance, html: string): void {
  const page = compressible(html);
  app.get('/docs', docsReply('text/html; charset=utf-8', page, 'no-cache'));
  app.get('/docs/', docsReply('text/html; charset=utf-8', page, 'no-cache'));
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
    sdk: `${opts.apiPrefix}/sdk`,
    health: '/healthz',
  };
  app.get('/', async (req, reply) => {
    if (/\btext\/html\b/.test(req.headers.accept ?? '')) return reply.redirect(index.documentation, 302);
    return reply.header('link', `<${index.documentation}>; rel="service-doc", <${index.openapi}>; rel="service-desc"`).send(index);
  });
}
