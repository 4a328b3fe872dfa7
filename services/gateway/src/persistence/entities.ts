import { defineEntity, p } from '@mikro-orm/postgresql';

export const OperatorEntity = defineEntity({
  name: 'Operator',
  tableName: 'operators',
  schema: 'gateway',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    status: p.string(),
    rateLimitPerMinute: p.integer().fieldName('rate_limit_per_minute'),
    allowedIps: p.json<string[]>().fieldName('allowed_ips'),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
});

export const BrandEntity = defineEntity({
  name: 'Brand',
  tableName: 'brands',
  schema: 'gateway',
  properties: {
    id: p.string().primary(),
    operatorId: p.string().fieldName('operator_id'),
    name: p.string(),
    environment: p.string(),
    currency: p.string(),
    webhookUrl: p.string().nullable().fieldName('webhook_url'),
    webhookSecretSealed: p.string().fieldName('webhook_secret_sealed'),
    /** Increases with every change of the webhook endpoint; the webhooks service applies only newer versions. */
    webhookVersion: p.integer().fieldName('webhook_version'),
    /** The secret before the last rotation, still signing next to the new one until it expires. */
    webhookPreviousSecretSealed: p.string().nullable().fieldName('webhook_previous_secret_sealed'),
    webhookPreviousSecretExpiresAt: p.datetime().nullable().fieldName('webhook_previous_secret_expires_at'),
    createdAt: p.datetime().fieldName('created_at'),
  },
});

export const CredentialEntity = defineEntity({
  name: 'Credential',
  tableName: 'credentials',
  schema: 'gateway',
  properties: {
    keyHash: p.string().primary().fieldName('key_hash'),
    /** Public id (`cred_…`): how our team and the operator's webhooks name the key. */
    id: p.string(),
    keyPrefix: p.string().fieldName('key_prefix'),
    operatorId: p.string().fieldName('operator_id'),
    brandId: p.string().fieldName('brand_id'),
    environment: p.string(),
    secretSealed: p.string().fieldName('secret_sealed'),
    revokedAt: p.datetime().nullable().fieldName('revoked_at'),
    /** Set by a rotation: from then on the key is refused. */
    expiresAt: p.datetime().nullable().fieldName('expires_at'),
    createdAt: p.datetime().fieldName('created_at'),
  },
});

export const AuditEntity = defineEntity({
  name: 'Audit',
  tableName: 'audit_log',
  schema: 'gateway',
  properties: {
    id: p.string().primary(),
    actor: p.string(),
    action: p.string(),
    target: p.string(),
    before: p.json<unknown>().nullable(),
    after: p.json<unknown>().nullable(),
    requestId: p.string().fieldName('request_id'),
    at: p.datetime(),
  },
});

export const gatewayEntities = [OperatorEntity, BrandEntity, CredentialEntity, AuditEntity];
