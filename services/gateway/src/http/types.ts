import type { Operation } from '@bo/contracts';
import type { CachedCredential } from '../auth/credential-cache.ts';
import type { IdemScope } from '../idempotency/idempotency-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
    credential?: CachedCredential;
    /** Set when this request claimed an idempotency key: its response is stored (or released on 5xx). */
    idempotency?: IdemScope;
  }
  interface FastifyContextConfig {
    op?: Operation;
    admin?: boolean;
  }
}
export {};
