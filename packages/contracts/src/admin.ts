// The admin API of our own team (decisions.md). Operator management is served by the gateway
// itself (it owns operators); the rest is forwarded to the owning service.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, EnvironmentSchema, Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';
import { playerAdminOperations } from './players.ts';
import { paymentAdminOperations } from './payments.ts';
import { webhookAdminOperations } from './webhooks.ts';
import { walletAdminOperations } from './wallet.ts';

export const OperatorSchema = Type.Object({
  id: Type.String(), name: Type.String(), status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  rateLimitPerMinute: Type.Integer(), allowedIps: Type.Array(Type.String()),
  webhookUrls: Type.Object({ sandbox: Nullable(Type.String()), production: Nullable(Type.String()) }),
  createdAt: Timestamp,
}, { $id: 'Operator' });
export type OperatorView = Static<typeof OperatorSchema>;

const Credentials = Type.Object({ brandId: Type.String(), key: Type.String(), secret: Type.String(), webhookSecret: Type.String() });
export const CreatedOperatorSchema = Type.Object({
  operator: Type.Object({ id: Type.String(), name: Type.String(), status: Type.String() }),
  sandbox: Credentials, production: Credentials,
}, { $id: 'CreatedOperator' });
export type CreatedOperator = Static<typeof CreatedOperatorSchema>;

const OperatorIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const operatorAdminOperations = defineOperations({
  adminCreateOperator: {
    id: 'adminCreateOperator', method: 'POST', path: '/admin/operators', tag: 'Admin', summary: 'Create an operator with sandbox and production credentials (secrets shown once)',
    body: Type.Object({
      name: Type.String({ minLength: 2, maxLength: 200 }), currency: Type.Optional(Currency),
      rateLimitPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })),
    }), response: CreatedOperatorSchema, status: 201,
  },
  adminListOperators: {
    id: 'adminListOperators', method: 'GET', path: '/admin/operators', tag: 'Admin', summary: 'List operators',
    response: Type.Object({ data: Type.Array(OperatorSchema) }), status: 200,
  },
  adminGetOperator: {
    id: 'adminGetOperator', method: 'GET', path: '/admin/operators/:id', tag: 'Admin', summary: 'Read an operator',
    params: OperatorIdParams, response: OperatorSchema, status: 200, errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSuspendOperator: {
    id: 'adminSuspendOperator', method: 'POST', path: '/admin/operators/:id/suspend', tag: 'Admin', summary: 'Suspend an operator',
    params: OperatorIdParams, response: OperatorSchema, status: 200, errors: ['OPERATOR_NOT_FOUND'],
  },
  adminResumeOperator: {
    id: 'adminResumeOperator', method: 'POST', path: '/admin/operators/:id/resume', tag: 'Admin', summary: 'Resume a suspended operator',
    params: OperatorIdParams, response: OperatorSchema, status: 200, errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSetAllowedIps: {
    id: 'adminSetAllowedIps', method: 'PUT', path: '/admin/operators/:id/allowed-ips', tag: 'Admin', summary: 'Set the caller allow-list (IPs or CIDRs; empty allows all)',
    params: OperatorIdParams, body: Type.Object({ ips: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }) }),
    response: OperatorSchema, status: 200, errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSetRateLimit: {
    id: 'adminSetRateLimit', method: 'PUT', path: '/admin/operators/:id/rate-limit', tag: 'Admin', summary: 'Set the per-minute rate limit',
    params: OperatorIdParams, body: Type.Object({ perMinute: Type.Integer({ minimum: 1, maximum: 1000000 }) }),
    response: OperatorSchema, status: 200, errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSetWebhookUrl: {
    id: 'adminSetWebhookUrl', method: 'PUT', path: '/admin/operators/:id/webhooks/:environment', tag: 'Admin', summary: 'Set the webhook URL of one environment (null removes it)',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), environment: EnvironmentSchema }),
    body: Type.Object({ url: Nullable(Type.String({ format: 'uri', maxLength: 2048 })) }),
    response: OperatorSchema, status: 200, errors: ['OPERATOR_NOT_FOUND'],
  },
  adminListAudit: {
    id: 'adminListAudit', method: 'GET', path: '/admin/audit', tag: 'Admin', summary: 'The admin audit log, newest first',
    query: Type.Object({ target: Type.Optional(Type.String({ maxLength: 128 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }),
    response: Type.Object({ data: Type.Array(Type.Object({
      id: Type.String(), actor: Type.String(), action: Type.String(), target: Type.String(),
      before: Type.Unknown(), after: Type.Unknown(), requestId: Type.String(), at: Timestamp,
    })) }), status: 200,
  },
});

export const adminOperations = {
  ...operatorAdminOperations,
  ...playerAdminOperations,
  ...paymentAdminOperations,
  ...webhookAdminOperations,
  ...walletAdminOperations,
};
