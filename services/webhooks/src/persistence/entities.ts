// The webhooks schema as MikroORM entities, used for plain reads and writes; the delivery queue
// (claims with FOR UPDATE SKIP LOCKED, leases) is raw SQL in delivery-queue.ts.
import { defineEntity, p } from '@mikro-orm/core';
import type { AttemptOutcome, Environment } from '@bo/contracts';

export const WEBHOOKS_SCHEMA = 'webhooks';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'no_endpoint';
export type DeliveryKind = 'event' | 'redelivery' | 'test';

export const EndpointEntity = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'endpoints',
  schema: WEBHOOKS_SCHEMA,
  properties: {
    operatorId: p.string().primary(),
    environment: p.string().$type<Environment>().primary(),
    brandId: p.string(),
    url: p.string().nullable(),
    secretSealed: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const EventEntity = defineEntity({
  name: 'WebhookEvent',
  tableName: 'events',
  schema: WEBHOOKS_SCHEMA,
  properties: {
    id: p.string().primary(),
    type: p.string(),
    environment: p.string().$type<Environment>(),
    operatorId: p.string(),
    brandId: p.string(),
    body: p.blob(),
    createdAt: p.datetime(),
    receivedAt: p.datetime(),
    source: p.string().$type<'stream' | 'test'>(),
  },
});

export const DeliveryEntity = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'deliveries',
  schema: WEBHOOKS_SCHEMA,
  properties: {
    id: p.string().primary(),
    eventId: p.string(),
    operatorId: p.string(),
    environment: p.string().$type<Environment>(),
    kind: p.string().$type<DeliveryKind>(),
    status: p.string().$type<DeliveryStatus>(),
    attempts: p.integer(),
    maxAttempts: p.integer(),
    nextAttemptAt: p.datetime().nullable(),
    leaseToken: p.string().nullable(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    completedAt: p.datetime().nullable(),
    /** The delivery of the same event whose 2xx ended this one's schedule (delivery-queue.ts). */
    acknowledgedBy: p.string().nullable(),
  },
});
export type DeliveryRow = InstanceType<typeof DeliveryEntity.class>;

export const AttemptEntity = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'attempts',
  schema: WEBHOOKS_SCHEMA,
  properties: {
    id: p.bigint('string').primary(),
    deliveryId: p.string(),
    eventId: p.string(),
    operatorId: p.string(),
    attempt: p.integer(),
    url: p.string(),
    outcome: p.string().$type<AttemptOutcome>(),
    statusCode: p.integer().nullable(),
    error: p.string().nullable(),
    durationMs: p.integer().nullable(),
    startedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});
export type AttemptRow = InstanceType<typeof AttemptEntity.class>;

export const webhookEntities = [EndpointEntity, EventEntity, DeliveryEntity, AttemptEntity];
