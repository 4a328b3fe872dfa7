import type { FastifyInstance } from 'fastify';

export interface PublicDocsOptions { publicBaseUrl: string; apiPrefix: string }

// Placeholder until the docs routes land (openapi, changelog, postman, snippets, vectors, docs page).
export async function publicDocsRoutes(_app: FastifyInstance, _opts: PublicDocsOptions): Promise<void> {}
