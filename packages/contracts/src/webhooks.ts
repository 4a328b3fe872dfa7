import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';

export const WebhookTestResultSchema = Type.Object({
  eventId: Type.String(), url: Type.String(), delivered: Type.Boolean(), statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()), durationMs: Type.Integer(),
}, { additionalProperties: false, $id: 'WebhookTestResult' });
export type WebhookTestResult = Static<typeof WebhookTestResultSchema>;

export const webhookOperations = defineOperations({
  testWebhook: {
    id: 'testWebhook', method: 'POST', path: '/webhooks/test', subject: 'webhooks.test', tag: 'Webhooks',
    summary: 'Send one webhook.test delivery now to the configured URL', response: WebhookTestResultSchema, status: 200,
    errors: ['WEBHOOK_NOT_CONFIGURED'],
  },
});

export const DeliveryLogItemSchema = Type.Object({
  eventId: Type.String(), attempt: Type.Integer(), url: Type.String(), statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()), at: Timestamp, durationMs: Type.Optional(Type.Integer()),
});
export const webhookAdminOperations = defineOperations({
  adminListDeliveries: {
    id: 'adminListDeliveries', method: 'GET', path: '/admin/webhook-deliveries', subject: 'webhooks.admin.deliveries', tag: 'Admin',
    summary: 'Delivery log by event or operator', query: Type.Object({
      eventId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }), response: Type.Object({ data: Type.Array(DeliveryLogItemSchema) }), status: 200,
  },
  adminRedeliver: {
    id: 'adminRedeliver', method: 'POST', path: '/admin/webhook-deliveries/:eventId/redeliver', subject: 'webhooks.admin.redeliver', tag: 'Admin',
    summary: 'Schedule a fresh delivery of an event', params: Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.Object({ eventId: Type.String(), scheduled: Type.Boolean() }), status: 200, errors: ['NOT_FOUND'],
  },
});

// ---- internal: the gateway tells the webhooks service about endpoints (URL + secret). ----
export const WEBHOOK_SUBJECTS = { upsertEndpoint: 'webhooks.endpoints.upsert' } as const;
export interface UpsertEndpoint {
  operatorId: string; environment: 'sandbox' | 'production'; brandId: string;
  url?: string | null; secret?: string;
}
