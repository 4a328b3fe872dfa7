import type { AdminIdentity, Operation } from '@bo/contracts';
import type { Span } from '@opentelemetry/api';
import type { CachedCredential } from '../auth/credential-cache.ts';
import type { ProviderCredential } from '../auth/provider-credentials.ts';
import type { ClaimedKey } from '../idempotency/keys-in-flight.ts';

declare module 'fastify' {
  interface FastifyRequest {
    credential?: CachedCredential;
    /** The provider wallet API's caller (provider-guard.ts). */
    providerCredential?: ProviderCredential;
    /** Set when this request claimed an idempotency key: the owning service keeps its answer. */
    idempotency?: ClaimedKey;
    /** The owning service answered (its answer, or its stored answer to the key). */
    answeredByService?: boolean;
    /** A replayed refusal keeps the id of the request that was first refused. */
    replayedRequestId?: string;
    /** The request's server span (HTTP's instrumentation's, when tracing is on); its context travels to the services in NATS headers. */
    span?: Span;
    /** Admin API: who is calling, with which role (set by the admin guard). */
    adminIdentity?: AdminIdentity;
  }
  interface FastifyContextConfig {
    op?: Operation;
    admin?: boolean;
  }
}
