// The provider wallet API's documents (docs/providers.md), public like the operators' and built
// the same way at start-up from the contracts: the OpenAPI document (providerOperations through the
// one generator), the reference page with its try-it (the operators' page assets, shared), signing
// snippets and test vectors for X-Provider-Key, and a Postman collection. The gateway registers the
// plugin under /provider/v1, beside the provider API's own routes.
import type { FastifyInstance } from 'fastify';
import { buildProviderOpenApi, PROVIDER_API_PREFIX } from '@bo/contracts';
import { renderProviderDocsPage } from './docs-page.ts';
import { buildProviderPostmanCollection } from './provider-postman.ts';
import { buildProviderTestVectors, PROVIDER_SIGNING_SNIPPETS } from './provider-signing.ts';
import { docsAssetRoutes, documentRoutes, referencePageRoutes } from './public-docs.ts';

export interface ProviderDocsOptions {
  publicBaseUrl: string;
}

/** Registered under the provider API's prefix: `app.register(providerDocsRoutes, { prefix: PROVIDER_API_PREFIX, publicBaseUrl })`. */
export async function providerDocsRoutes(app: FastifyInstance, opts: ProviderDocsOptions): Promise<void> {
  const serverUrl = `${opts.publicBaseUrl.replace(/\/$/, '')}${PROVIDER_API_PREFIX}`;
  documentRoutes(app, [
    ['/openapi.json', 'application/json', JSON.stringify(buildProviderOpenApi(serverUrl))],
    ['/postman.json', 'application/json', JSON.stringify(buildProviderPostmanCollection(serverUrl))],
    ['/signing-snippets.json', 'application/json', JSON.stringify(PROVIDER_SIGNING_SNIPPETS)],
    ['/test-vectors.json', 'application/json', JSON.stringify(buildProviderTestVectors(PROVIDER_API_PREFIX))],
  ]);
  const assets = docsAssetRoutes(app, PROVIDER_API_PREFIX);
  referencePageRoutes(app, renderProviderDocsPage({ serverUrl, apiPrefix: PROVIDER_API_PREFIX, assets }));
}
