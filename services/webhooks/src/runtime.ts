// What the handlers and loops of the webhooks service share: built once by the service's setup
// step (service.ts) from its configuration.
import type { ServiceDeps } from '@bo/service-kit';
import type { WebhooksConfig } from './config.ts';
import type { UrlPolicy } from './domain/url-policy.ts';
import type { AttemptSettings } from './delivery/attempt.ts';
import type { DeliveryWorker } from './delivery/delivery-worker.ts';

export interface WebhooksRuntime {
  deps: ServiceDeps<WebhooksConfig>;
  config: WebhooksConfig;
  /** Delays after failed attempts 1..7. */
  schedule: number[];
  maxAttempts: number;
  policy: UrlPolicy;
  attempt: AttemptSettings;
  /** Lease of a claimed delivery: the HTTP timeout plus a grace period. */
  leaseMs: number;
  /** Wake the delivery worker (something became due); set once the worker runs. */
  pokeWorker(): void;
  worker?: DeliveryWorker;
}
