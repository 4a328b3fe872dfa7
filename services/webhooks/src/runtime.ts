// What handlers and loops of the webhooks service share, built once in service.ts.
import type { ServiceDeps } from '@bo/service-kit';
import type { WebhooksConfig } from './config.ts';
import type { UrlPolicy } from './domain/url-policy.ts';
import type { AttemptSettings } from './delivery/attempt.ts';

export interface WebhooksRuntime {
  deps: ServiceDeps;
  config: WebhooksConfig;
  /** Delays after failed attempts 1..7. */
  schedule: number[];
  maxAttempts: number;
  policy: UrlPolicy;
  attempt: AttemptSettings;
  /** Lease of a claimed delivery: the HTTP timeout plus a grace period. */
  leaseMs: number;
  /** Wake the delivery worker (something became due). */
  pokeWorker(): void;
}
