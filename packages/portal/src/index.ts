// The developer portal: Fastify plugins the gateway mounts on its public port (the documents and
// the API reference under the API prefix, the index at `/`), and the signing test vectors.
export { apiIndexRoute, publicDocsRoutes, type PublicDocsOptions } from './public-docs.ts';
export { buildTestVectors } from './test-vectors.ts';
export { providerDocsRoutes, type ProviderDocsOptions } from './provider-docs.ts';
export { buildProviderTestVectors, PROVIDER_SIGNING_SNIPPETS } from './provider-signing.ts';
