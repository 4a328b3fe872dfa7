// The operators schema as MikroORM entities, which describe it whole (columns, CHECK constraints,
// indexes, foreign keys): the ORM owns these tables, a new migration is generated from a change
// here (`npm run migration:create -w @bo/operators -- <name>`), and a test checks that the migrated
// schema and the entities agree (test/schema.test.ts). The kit's own outbox in this schema is the
// kit's, not an entity.
import { defineEntity, p } from '@mikro-orm/core';
import { ADMIN_ROLES, type AdminRole, type Environment } from '@bo/contracts';

const oneOf = (column: string, values: readonly string[]) => `${column} in (${values.map((v) => `'${v}'`).join(', ')})`;
const ENVIRONMENT_CHECK = oneOf('environment', ['sandbox', 'production']);
/** `<column> references <table> (id)`, by id, with Postgres' default name and rules. */
const reference = (entity: Parameters<typeof p.manyToOne>[0], table: string, column: string) =>
  p.manyToOne(entity).mapToPk().fieldName(column).foreignKeyName(`${table}_${column}_fkey`).updateRule('no action').deleteRule('no action');

export const OperatorEntity = defineEntity({
  name: 'Operator',
  tableName: 'operators',
  schema: 'operators',
  properties: {
    id: p.text().primary(),
    name: p.text(),
    status: p
      .text()
      .$type<'active' | 'suspended'>()
      .check(oneOf('status', ['active', 'suspended'])),
    rateLimitPerMinute: p.integer().check('rate_limit_per_minute > 0'),
    /** IPs and CIDRs the operator's calls may come from; empty: any. */
    allowedIps: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const BrandEntity = defineEntity({
  name: 'Brand',
  tableName: 'brands',
  schema: 'operators',
  properties: {
    id: p.text().primary(),
    operatorId: reference(OperatorEntity, 'brands', 'operator_id'),
    name: p.text(),
    environment: p.text().$type<Environment>().check(ENVIRONMENT_CHECK),
    currency: p.text(),
    webhookUrl: p.text().nullable(),
    /** Sealed under SECRETS_MASTER_KEY; the webhooks service keeps its own copy (endpoint events). */
    webhookSecretSealed: p.text(),
    /** Increases with every change of the webhook endpoint; the webhooks service applies only newer versions. */
    webhookVersion: p.integer(),
    /** The secret before the last rotation, still signing next to the new one until it expires. */
    webhookPreviousSecretSealed: p.text().nullable(),
    webhookPreviousSecretExpiresAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
  uniques: [{ name: 'brands_operator_environment', properties: ['operatorId', 'environment'] }],
});

export const CredentialEntity = defineEntity({
  name: 'Credential',
  tableName: 'credentials',
  schema: 'operators',
  properties: {
    /** SHA-256 of the operator key: keys are looked up by it, never stored. */
    keyHash: p.text().primary(),
    /** Public id (`cred_…`): how our team and the operator's webhooks name the key. */
    id: p.text().unique('credentials_id'),
    keyPrefix: p.text(),
    operatorId: reference(OperatorEntity, 'credentials', 'operator_id'),
    brandId: reference(BrandEntity, 'credentials', 'brand_id'),
    environment: p.text().$type<Environment>().check(ENVIRONMENT_CHECK),
    /** The signing secret, sealed under SECRETS_MASTER_KEY. */
    secretSealed: p.text(),
    revokedAt: p.datetime().nullable(),
    /** Set by a rotation: from then on the key is refused. */
    expiresAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
  indexes: [{ name: 'credentials_operator', properties: ['operatorId', 'environment'] }],
});

export const AuditEntity = defineEntity({
  name: 'Audit',
  tableName: 'audit_log',
  schema: 'operators',
  properties: {
    id: p.text().primary(),
    actor: p.text(),
    /** The team member who acted (decisions are taken by people); null for ADMIN_TOKEN, a named service token, rows of before. */
    actorId: p.text().nullable(),
    action: p.text(),
    target: p.text(),
    before: p.json<unknown>().nullable(),
    after: p.json<unknown>().nullable(),
    requestId: p.text(),
    at: p.datetime(),
  },
  indexes: [{ name: 'audit_log_target', expression: 'create index "audit_log_target" on "operators"."audit_log" ("target", "at" desc)' }],
});

export const TeamMemberEntity = defineEntity({
  name: 'TeamMember',
  tableName: 'team_members',
  schema: 'operators',
  properties: {
    id: p.text().primary(),
    email: p.text(),
    role: p.text().$type<AdminRole>().check(oneOf('role', ADMIN_ROLES)),
    /** `scrypt$N$r$p$salt$hash` (domain/passwords.ts). */
    passwordHash: p.text(),
    /** The password is a one-time one (issued at creation or by an admin reset): the next sign-in must replace it. */
    passwordMustChange: p.boolean().default(false),
    /** When the one-time password stops signing in (CONSOLE_ONE_TIME_PASSWORD_HOURS after it was issued). */
    oneTimePasswordExpiresAt: p.datetime().nullable(),
    /** The sign-in that spent the one-time password: it signs in once. */
    oneTimePasswordUsedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    disabledAt: p.datetime().nullable(),
    totpSecretSealed: p.text().nullable(),
    totpPendingSealed: p.text().nullable(),
    totpEnabledAt: p.datetime().nullable(),
    /** The last TOTP time step used: a code is accepted once. */
    totpLastStep: p.bigint('number').nullable(),
    /** Who added the person, as the audit log names them (issue #69); null: before issue #69. */
    addedBy: p.text().nullable(),
    addedById: p.text().nullable(),
    /**
     * Who issued the person's current credential: the admin who added them, or who last reset their
     * password (both saw a one-time password). That person never confirms them. Null: nobody
     * (ADMIN_TOKEN in production, a service token), so two other admins must.
     */
    issuedById: p.text().nullable(),
    /** When the confirmations the person needs were given: their power starts then (issue #69). */
    confirmedAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'team_members_email', expression: 'create unique index "team_members_email" on "operators"."team_members" (lower(email))' }],
});

export const ServiceTokenEntity = defineEntity({
  name: 'ServiceToken',
  tableName: 'service_tokens',
  schema: 'operators',
  properties: {
    id: p.text().primary(),
    name: p.text().unique('service_tokens_name'),
    role: p.text().$type<AdminRole>().check(oneOf('role', ADMIN_ROLES)),
    /** SHA-256 of the token's secret. */
    secretHash: p.text().unique('service_tokens_secret_hash'),
    /** A personal token acts as this team member (a person may take decisions with it); null: a named service token. */
    memberId: p.text().nullable(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
  },
});

/** A second admin's confirmation of a person's current credential (issue #69); a password reset deletes them. */
export const TeamMemberConfirmationEntity = defineEntity({
  name: 'TeamMemberConfirmation',
  tableName: 'team_member_confirmations',
  schema: 'operators',
  properties: {
    memberId: p.text().primary(),
    confirmedById: p.text().primary(),
    /** The confirming admin as the audit log names them (`user:<e-mail>`, or a stand-in outside production). */
    confirmedBy: p.text(),
    confirmedAt: p.datetime(),
  },
});

/** Who of our team read which player's personal data (issue #69; store/personal-data-reads.ts). */
export const PersonalDataReadEntity = defineEntity({
  name: 'PersonalDataRead',
  tableName: 'personal_data_reads',
  schema: 'operators',
  properties: {
    id: p.text().primary(),
    actor: p.text(),
    actorId: p.text().nullable(),
    role: p.text(),
    playerId: p.text().nullable(),
    fields: p.array(),
    revealed: p.array(),
    operation: p.text(),
    route: p.text(),
    requestId: p.text(),
    at: p.datetime(),
  },
  indexes: [
    {
      name: 'personal_data_reads_player',
      expression: 'create index "personal_data_reads_player" on "operators"."personal_data_reads" ("player_id", "at" desc)',
    },
    { name: 'personal_data_reads_actor', expression: 'create index "personal_data_reads_actor" on "operators"."personal_data_reads" ("actor_id", "at" desc)' },
  ],
});

export const ConsoleSessionEntity = defineEntity({
  name: 'ConsoleSession',
  tableName: 'console_sessions',
  schema: 'operators',
  properties: {
    /** SHA-256 of the session cookie's token. */
    tokenHash: p.text().primary(),
    memberId: reference(TeamMemberEntity, 'console_sessions', 'member_id'),
    csrfToken: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
    lastSeenAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime(),
  },
  indexes: [{ name: 'console_sessions_member', properties: ['memberId'] }],
});

/**
 * The console sign-in's back-off (domain/sign-in-throttle.ts, store/sign-in-throttle.ts): failures counted per account (the
 * e-mail as typed, lower-cased: an unknown one counts like a known one) and per client address, in
 * the database so every replica of the service sees the same counts.
 */
export const SignInThrottleEntity = defineEntity({
  name: 'SignInThrottle',
  tableName: 'sign_in_throttle',
  schema: 'operators',
  properties: {
    /** `account:<e-mail>` or `address:<ip>`. */
    key: p.text().primary(),
    failures: p.integer(),
    lastFailureAt: p.datetime(),
    /** No sign-in is tried for this key before then. */
    blockedUntil: p.datetime().nullable(),
  },
});

export const operatorEntities = [
  OperatorEntity,
  BrandEntity,
  CredentialEntity,
  AuditEntity,
  TeamMemberEntity,
  ServiceTokenEntity,
  ConsoleSessionEntity,
  SignInThrottleEntity,
  TeamMemberConfirmationEntity,
  PersonalDataReadEntity,
];
