// Configuration of the webhooks service: the kit's base settings, the key of its list cursors (the
// operator's event log) and delivery policy. Booleans accept 1/0/true/false; the retry schedule is 7
// comma-separated delays in milliseconds.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, DEV_MASTER_KEY, ListCursorConfigSchema, secretKey } from '@bo/service-kit';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from './domain/retry-schedule.ts';

/** The most WEBHOOK_ENDPOINT_CONCURRENCY may be: every endpoint has this many slots (store/endpoint-slots.ts). */
export const MAX_ENDPOINT_CONCURRENCY = 100;

export const WebhooksConfigSchema = Type.Composite([
  BaseConfigSchema,
  ListCursorConfigSchema,
  Type.Object({
    /** Key under which webhook secrets are sealed at rest (same variable as the gateway's). */
    SECRETS_MASTER_KEY: secretKey(DEV_MASTER_KEY),
    /** Allow `http` webhook URLs in production (local development, tests). */
    WEBHOOK_ALLOW_HTTP: Type.Boolean({ default: false }),
    /** Allow production URLs that resolve to private, loopback, link-local or unique-local addresses. */
    WEBHOOK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
    /** Delays after failed attempts 1..7; empty = 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
    WEBHOOK_RETRY_SCHEDULE_MS: Type.String({ default: DEFAULT_RETRY_SCHEDULE_MS.join(','), pattern: '^\\s*\\d+(\\s*,\\s*\\d+){6}\\s*$' }),
    /** A 2xx must arrive within this time (connect + response headers). */
    WEBHOOK_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100, maximum: 60_000 }),
    /** Deliveries in flight per replica. */
    WEBHOOK_CONCURRENCY: Type.Integer({ default: 64, minimum: 1, maximum: 1000 }),
    /**
     * Deliveries in flight per endpoint (operator + environment) across replicas, so one slow
     * endpoint cannot take the pool (a quarter of it by default). It also caps one operator's
     * delivery rate at about this many over the endpoint's response time (16 / 20 ms = 800/s).
     */
    WEBHOOK_ENDPOINT_CONCURRENCY: Type.Integer({ default: 16, minimum: 1, maximum: MAX_ENDPOINT_CONCURRENCY }),
    /** How often the worker looks for due deliveries when nothing wakes it. */
    WEBHOOK_POLL_MS: Type.Integer({ default: 500, minimum: 10 }),
    /**
     * Events (with their deliveries and attempts) are listed, redeliverable and kept this many days,
     * then deleted once no delivery of theirs is pending. At least 8: longer than the events stream
     * keeps a message (7 days), so an event JetStream could still hand over is never one we forgot.
     */
    WEBHOOK_EVENT_RETENTION_DAYS: Type.Integer({ default: 30, minimum: 8 }),
    /** A claimed delivery whose worker died is retried this long after its HTTP timeout would have passed. */
    WEBHOOK_LEASE_GRACE_MS: Type.Integer({ default: 30_000, minimum: 100 }),
  }),
]);
export type WebhooksConfig = Static<typeof WebhooksConfigSchema>;

export function retryScheduleOf(config: WebhooksConfig): number[] {
  return parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE_MS);
}
