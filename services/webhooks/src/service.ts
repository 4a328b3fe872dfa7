// The webhooks service: endpoints (URL + sealed secret per operator and environment, pushed by
// the gateway), intake of every domain event from JetStream into Postgres, and delivery of each
// event to the operator with signatures, retries and a complete attempt log.
import { webhookAdminOperations, webhookMessages, webhookOperations } from '@bo/contracts';
import { DEV_MASTER_KEY, handle, personalDataHandlers, type ServiceDefinition } from '@bo/service-kit';
import { webhooksPersonalData } from './store/personal-data.ts';
import { retryScheduleOf, WebhooksConfigSchema } from './config.ts';
import { maxAttemptsOf } from './domain/retry-schedule.ts';
import { startDeliveryWorker } from './delivery/delivery-worker.ts';
import { startEventConsumer } from './delivery/event-consumer.ts';
import { startEndpointSync } from './delivery/endpoint-sync.ts';
import { adminListDeliveries } from './handlers/admin-deliveries.ts';
import { adminRedeliver } from './handlers/admin-redeliver.ts';
import { listWebhookEventAttempts, listWebhookEvents, redeliverWebhookEvent } from './handlers/operator-events.ts';
import { testWebhook } from './handlers/test-webhook.ts';
import { upsertEndpoint } from './handlers/upsert-endpoint.ts';
import { registerDeliveryMetrics } from './delivery/delivery-metrics.ts';
import { WEBHOOKS_SCHEMA, webhookMigrations } from './store/migrations.ts';
import { deleteExpiredEvents } from './store/event-retention.ts';
import type { WebhooksRuntime } from './runtime.ts';

export const webhooksService: ServiceDefinition<typeof WebhooksConfigSchema, WebhooksRuntime> = {
  name: 'webhooks',
  schema: WEBHOOKS_SCHEMA,
  config: WebhooksConfigSchema,
  entities: [],
  migrations: webhookMigrations,
  setup: (deps) => {
    const { config } = deps;
    if (config.SECRETS_MASTER_KEY === DEV_MASTER_KEY) {
      deps.log.warn('SECRETS_MASTER_KEY is the development default; set a real key outside local development');
    }
    const schedule = retryScheduleOf(config);
    const policy = { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE };
    const rt: WebhooksRuntime = {
      deps,
      config,
      schedule,
      maxAttempts: maxAttemptsOf(schedule),
      policy,
      attempt: { masterKey: config.SECRETS_MASTER_KEY, timeoutMs: config.WEBHOOK_TIMEOUT_MS, policy },
      leaseMs: config.WEBHOOK_TIMEOUT_MS + config.WEBHOOK_LEASE_GRACE_MS,
      pokeWorker: () => rt.worker?.poke(),
    };
    return rt;
  },
  handlers: (deps, rt) => ({
    // Nothing about a player but the events as sent (personal-data.ts): the export answers it (issue #69).
    ...personalDataHandlers(deps, webhooksPersonalData),
    ...handle(webhookOperations.testWebhook, testWebhook(rt)),
    ...handle(webhookOperations.listWebhookEvents, listWebhookEvents(rt)),
    ...handle(webhookOperations.listWebhookEventAttempts, listWebhookEventAttempts(rt)),
    ...handle(webhookOperations.redeliverWebhookEvent, redeliverWebhookEvent(rt), { answers: 'effect' }),
    ...handle(webhookAdminOperations.adminListDeliveries, adminListDeliveries(rt)),
    ...handle(webhookAdminOperations.adminRedeliver, adminRedeliver(rt)),
    ...handle(webhookMessages.upsertEndpoint, upsertEndpoint(rt)),
  }),
  deleteExpiredRows: async (deps, batch) => (await deleteExpiredEvents(deps.sql, deps.config.WEBHOOK_EVENT_RETENTION_DAYS, batch)) === batch,
  background: (deps, rt) => {
    const { config } = deps;
    const worker = startDeliveryWorker({
      sql: deps.sql,
      log: deps.log,
      attempt: rt.attempt,
      schedule: rt.schedule,
      concurrency: config.WEBHOOK_CONCURRENCY,
      perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      pollMs: config.WEBHOOK_POLL_MS,
      leaseMs: rt.leaseMs,
      countAttempt: registerDeliveryMetrics(deps.metrics, deps.sql),
    });
    rt.worker = worker;
    const consumer = startEventConsumer({
      nc: deps.nc,
      prefix: deps.prefix,
      replicas: config.NATS_REPLICAS,
      sql: deps.sql,
      log: deps.log,
      maxAttempts: rt.maxAttempts,
      perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      leaseMs: rt.leaseMs,
      worker,
    });
    const endpointSync = startEndpointSync({ nc: deps.nc, prefix: deps.prefix, replicas: config.NATS_REPLICAS, sql: deps.sql, log: deps.log });
    return [
      endpointSync,
      {
        name: 'event intake and delivery',
        problem: () => consumer.problem() ?? worker.problem(),
        // Intake stops first so nothing new is stored while the worker winds down.
        async stop() {
          await consumer.stop();
          await worker.stop();
        },
      },
    ];
  },
};
