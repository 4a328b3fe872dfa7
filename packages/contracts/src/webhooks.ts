import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Nullable, Page, Timestamp } from './common.ts';
import { EVENT_TYPES } from './events.ts';
import { defineOperations } from './operations.ts';
import { defineMessages } from './messages.ts';

export const WebhookTestResultSchema = Type.Object(
  {
    eventId: Type.String(),
    url: Type.String(),
    delivered: Type.Boolean(),
    statusCode: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    durationMs: Type.Integer(),
  },
  { additionalProperties: false, $id: 'WebhookTestResult' },
);
export type WebhookTestResult = Static<typeof WebhookTestResultSchema>;

/**
 * The webhooks service answers `webhooks.test` within this deadline (it caps the test attempt's
 * own HTTP timeout below it), so the gateway must wait at least this long for that subject.
 */
export const WEBHOOK_TEST_RPC_TIMEOUT_MS = 15_000;

/** Where the latest delivery of an event stands (a redelivery starts a new one). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'no_endpoint'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
const DeliveryStatusSchema = Type.Union(
  DELIVERY_STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      '`pending`: attempts remain (due at `nextAttemptAt`); `delivered`: a 2xx arrived; `failed`: every attempt failed; `no_endpoint`: no URL was configured when it was due (not retried; redeliver it once a URL is set).',
  },
);
const EventIdParams = Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });

/** One event sent to the caller's webhook endpoint, with the state of its latest delivery. */
export const WebhookEventSummarySchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))),
    environment: EnvironmentSchema,
    createdAt: Timestamp,
    deliveryStatus: DeliveryStatusSchema,
    /** Attempts of the latest delivery. */
    attempts: Type.Integer({ minimum: 0 }),
    lastStatusCode: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    nextAttemptAt: Nullable(Timestamp),
    deliveredAt: Nullable(Timestamp),
  },
  { $id: 'WebhookEventSummary' },
);
export type WebhookEventSummary = Static<typeof WebhookEventSummarySchema>;

export const WebhookAttemptSchema = Type.Object(
  {
    deliveryId: Type.String(),
    /** Counts within a delivery: a redelivery's attempts start at 1 again. */
    attempt: Type.Integer({ minimum: 1 }),
    url: Type.String(),
    outcome: Type.Union(['in_flight', 'delivered', 'failed', 'interrupted'].map((o) => Type.Literal(o))),
    statusCode: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    startedAt: Timestamp,
    durationMs: Nullable(Type.Integer({ minimum: 0 })),
  },
  { $id: 'WebhookAttempt' },
);
export type WebhookAttempt = Static<typeof WebhookAttemptSchema>;

export const WebhookEventsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  type: Type.Optional(Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)))),
  deliveryStatus: Type.Optional(DeliveryStatusSchema),
});

export const RedeliveryResultSchema = Type.Object(
  { eventId: Type.String(), deliveryId: Type.String(), deliveryStatus: Type.Literal('pending') },
  { $id: 'Redelivery' },
);
export type RedeliveryResult = Static<typeof RedeliveryResultSchema>;

export const webhookOperations = defineOperations({
  testWebhook: {
    id: 'testWebhook',
    method: 'POST',
    path: '/webhooks/test',
    subject: 'webhooks.test',
    tag: 'Webhooks',
    summary: 'Send one webhook.test delivery now to the configured URL',
    response: WebhookTestResultSchema,
    status: 200,
    errors: ['WEBHOOK_NOT_CONFIGURED'],
    // One delivery attempt may take the full 10 s webhook timeout; the gateway waits longer.
    timeoutMs: WEBHOOK_TEST_RPC_TIMEOUT_MS,
  },
  listWebhookEvents: {
    id: 'listWebhookEvents',
    method: 'GET',
    path: '/webhooks/events',
    subject: 'webhooks.events.list',
    tag: 'Webhooks',
    summary: 'Recent events sent to your webhook endpoint, newest first, with their delivery state',
    query: WebhookEventsQuery,
    response: Page(WebhookEventSummarySchema),
    status: 200,
  },
  listWebhookEventAttempts: {
    id: 'listWebhookEventAttempts',
    method: 'GET',
    path: '/webhooks/events/:eventId/attempts',
    subject: 'webhooks.events.attempts',
    tag: 'Webhooks',
    summary: 'Every delivery attempt of one event, oldest first',
    params: EventIdParams,
    response: Type.Object({ data: Type.Array(WebhookAttemptSchema) }),
    status: 200,
    errors: ['WEBHOOK_EVENT_NOT_FOUND'],
  },
  redeliverWebhookEvent: {
    id: 'redeliverWebhookEvent',
    method: 'POST',
    path: '/webhooks/events/:eventId/redeliver',
    subject: 'webhooks.events.redeliver',
    tag: 'Webhooks',
    summary: 'Deliver an event again (a new delivery with the same event id and body)',
    params: EventIdParams,
    response: RedeliveryResultSchema,
    status: 202,
    idempotent: true,
    errors: ['WEBHOOK_EVENT_NOT_FOUND', 'WEBHOOK_NOT_CONFIGURED'],
  },
});

/** How one attempt ended; `in_flight` until its result is recorded, `interrupted` when the worker died first. */
export const ATTEMPT_OUTCOMES = ['in_flight', 'delivered', 'failed', 'interrupted'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export const DeliveryLogItemSchema = Type.Object({
  eventId: Type.String(),
  /** What the event says happened (`deposit.confirmed`): the console names the event by it. */
  eventType: Type.String(),
  attempt: Type.Integer(),
  url: Type.String(),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  at: Timestamp,
  durationMs: Type.Optional(Type.Integer()),
  deliveryId: Type.Optional(Type.String()),
  outcome: Type.Optional(Type.Union(ATTEMPT_OUTCOMES.map((o) => Type.Literal(o)))),
});
export type DeliveryLogItem = Static<typeof DeliveryLogItemSchema>;

export const webhookAdminOperations = defineOperations({
  adminListDeliveries: {
    id: 'adminListDeliveries',
    method: 'GET',
    path: '/admin/webhook-deliveries',
    subject: 'webhooks.admin.deliveries',
    tag: 'Admin',
    summary: 'Delivery log by event or operator, newest attempt first',
    query: Type.Object({
      eventId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    response: Type.Object({ data: Type.Array(DeliveryLogItemSchema) }),
    status: 200,
  },
  adminRedeliver: {
    id: 'adminRedeliver',
    method: 'POST',
    path: '/admin/webhook-deliveries/:eventId/redeliver',
    subject: 'webhooks.admin.redeliver',
    tag: 'Admin',
    summary: 'Schedule a fresh delivery of an event',
    params: Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.Object({ eventId: Type.String(), scheduled: Type.Boolean(), deliveryId: Type.Optional(Type.String()) }),
    status: 200,
    errors: ['NOT_FOUND'],
  },
});

// ---- internal: the gateway tells the webhooks service about endpoints (URL + secret). ----
export const WEBHOOK_SUBJECTS = { upsertEndpoint: 'webhooks.endpoints.upsert' } as const;

const SealedSecret = Type.String({
  pattern: '^v1\\.',
  maxLength: 500,
  description: 'sealSecret(whsec_…, SECRETS_MASTER_KEY): the gateway and the webhooks service share the key',
});

/**
 * Absent `url` / `secret` keep the stored value; `url: null` removes the URL. The gateway sends the
 * sealed secret and the URL with the endpoint's version: a version not newer than the stored one
 * changes nothing, so the request (which validates a new URL before it is recorded) and the event
 * of the same change can arrive in any order.
 */
export const UpsertEndpointSchema = Type.Object({
  operatorId: Type.String({ minLength: 1, maxLength: 64 }),
  environment: EnvironmentSchema,
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  url: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2048 }))),
  /** `whsec_` + base64 of the key bytes (32 random bytes), sealed here. */
  secret: Type.Optional(Type.String({ pattern: '^whsec_[A-Za-z0-9+/]{22,}={0,2}$', maxLength: 200 })),
  /** The same secret sealed by the gateway. */
  secretSealed: Type.Optional(SealedSecret),
  /** Increases with every change of the endpoint at the gateway. */
  version: Type.Optional(Type.Integer({ minimum: 1 })),
  /** The secret before a rotation (still signed with until `previousSecretExpiresAt`); null: none. */
  previousSecretSealed: Type.Optional(Nullable(SealedSecret)),
  previousSecretExpiresAt: Type.Optional(Nullable(Timestamp)),
});
export type UpsertEndpoint = Static<typeof UpsertEndpointSchema>;

export const UpsertEndpointResultSchema = Type.Object({
  operatorId: Type.String(),
  environment: EnvironmentSchema,
  brandId: Type.String(),
  url: Nullable(Type.String()),
  hasSecret: Type.Boolean(),
});
export type UpsertEndpointResult = Static<typeof UpsertEndpointResultSchema>;

/**
 * Internal event `webhook.endpoint_changed` (internal stream), written by the gateway in the
 * transaction that changes an operator's webhook endpoint: the webhooks service applies it like an
 * upsert, so a change made while that service was down reaches it once it runs.
 */
export const WEBHOOK_ENDPOINT_CHANGED = 'webhook.endpoint_changed';
export const WebhookEndpointChangedSchema = Type.Object({
  operatorId: Type.String({ minLength: 1, maxLength: 64 }),
  environment: EnvironmentSchema,
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  url: Nullable(Type.String({ minLength: 1, maxLength: 2048 })),
  secretSealed: SealedSecret,
  version: Type.Integer({ minimum: 1 }),
  previousSecretSealed: Type.Optional(Nullable(SealedSecret)),
  previousSecretExpiresAt: Type.Optional(Nullable(Timestamp)),
});
export type WebhookEndpointChanged = Static<typeof WebhookEndpointChangedSchema>;

export const webhookMessages = defineMessages({
  upsertEndpoint: { subject: WEBHOOK_SUBJECTS.upsertEndpoint, body: UpsertEndpointSchema, reply: UpsertEndpointResultSchema },
});
