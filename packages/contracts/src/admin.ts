// The admin API of our own team (docs/decisions.md). The gateway forwards every operation to the
// owning service: operators, their keys, our team and the audit log to the operators service.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, EnvironmentSchema, Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';
import { playerAdminOperations } from './players.ts';
import { paymentAdminOperations } from './payments.ts';
import { webhookAdminOperations } from './webhooks.ts';
import { walletAdminOperations } from './wallet.ts';
import { complianceAdminOperations } from './compliance-profile.ts';
import { responsibleGamingAdminOperations } from './responsible-gaming.ts';
import { amlAdminOperations, cosAdminOperations, dailyFileAdminOperations, screeningAdminOperations } from './aml.ts';
import { dailyFilesAdminOperations } from './regulator-file.ts';
import { amlAnnualReportOperations, amlReportDecisionOperations, amlRiskAssessmentOperations, amlRiskRegisterOperations } from './aml-duties.ts';
import { internalImpedimentAdminOperations } from './eligibility.ts';

export const OperatorSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
    rateLimitPerMinute: Type.Integer(),
    allowedIps: Type.Array(Type.String()),
    webhookUrls: Type.Object({ sandbox: Nullable(Type.String()), production: Nullable(Type.String()) }),
    createdAt: Timestamp,
  },
  { $id: 'Operator' },
);
export type OperatorView = Static<typeof OperatorSchema>;

const Credentials = Type.Object({ brandId: Type.String(), key: Type.String(), secret: Type.String(), webhookSecret: Type.String() });
export const CreatedOperatorSchema = Type.Object(
  {
    operator: Type.Object({ id: Type.String(), name: Type.String(), status: Type.String() }),
    sandbox: Credentials,
    production: Credentials,
  },
  { $id: 'CreatedOperator' },
);
export type CreatedOperator = Static<typeof CreatedOperatorSchema>;

const OperatorIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * An operator key's state: `active` (no end), `expiring` (a rotation gave it an end, still ahead),
 * `expired` (that end has passed) or `revoked`. Only `active` and `expiring` keys are accepted.
 */
export const CREDENTIAL_STATUSES = ['active', 'expiring', 'expired', 'revoked'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/** One key of an operator, as our team sees it: never the secret, never the whole key. */
export const OperatorCredentialSchema = Type.Object(
  {
    id: Type.String(),
    environment: EnvironmentSchema,
    /** The key's first 12 characters (`bk_test_AbCd`): enough to tell keys apart. */
    keyPrefix: Type.String(),
    createdAt: Timestamp,
    /** From this moment the key is refused (set by a rotation); null: no end. */
    expiresAt: Nullable(Timestamp),
    revokedAt: Nullable(Timestamp),
    status: Type.Union(CREDENTIAL_STATUSES.map((s) => Type.Literal(s))),
  },
  { $id: 'OperatorCredential' },
);
export type OperatorCredential = Static<typeof OperatorCredentialSchema>;

/** How long a rotated key keeps working next to its replacement, in minutes (at most 7 days). */
export const KEY_ROTATION_OVERLAP_MINUTES = { default: 1440, max: 10_080 } as const;

export const RotatedKeySchema = Type.Object(
  {
    operatorId: Type.String(),
    environment: EnvironmentSchema,
    credential: OperatorCredentialSchema,
    /** The new key and secret, shown only here. */
    key: Type.String(),
    secret: Type.String(),
    /** The environment's keys that were in use, each with the end the rotation gave it. */
    replaced: Type.Array(OperatorCredentialSchema),
  },
  { $id: 'RotatedKey' },
);
export type RotatedKey = Static<typeof RotatedKeySchema>;

/**
 * Our team's roles: compliance (KYC, player status, limits), finance (withdrawals, ledger), support
 * (read, redeliver webhooks), admin (operators, keys, team), and regulator (issue #69: the Ministry's
 * inspectors read what the law lets them read across operators, and change nothing). Service tokens
 * for automation carry a role too.
 */
export const ADMIN_ROLES = ['compliance', 'finance', 'support', 'admin', 'regulator'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
const AdminRoleSchema = Type.Union(ADMIN_ROLES.map((r) => Type.Literal(r)));
export const TeamMemberSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: AdminRoleSchema,
    createdAt: Timestamp,
    disabledAt: Nullable(Timestamp),
    /** Whether the person signs in to the console with a TOTP code too. */
    secondFactor: Type.Boolean(),
    /** Who added the person (`user:<e-mail>`, `admin` for ADMIN_TOKEN, `token:<name>`, `stand-in:<label>`); null before issue #69. */
    addedBy: Type.Optional(Nullable(Type.String())),
    /** Whether the person replaced their one-time password (and turned TOTP on where the role requires it). */
    activated: Type.Optional(Type.Boolean()),
    /**
     * When a second admin's confirmation gave the person their power (issue #69): until then they
     * decide nothing (403 PERSON_NOT_CONFIRMED). People of before issue #69 were confirmed by the migration.
     */
    confirmedAt: Type.Optional(Nullable(Timestamp)),
    /** The admins who confirmed the person's current credential, oldest first (two for a person added by nobody). */
    confirmedBy: Type.Optional(Type.Array(Type.Object({ actor: Type.String(), actorId: Type.String(), at: Timestamp }))),
    /** Confirmations still needed before the person decides (0 once confirmed). */
    confirmationsNeeded: Type.Optional(Type.Integer()),
  },
  { $id: 'TeamMember' },
);
export const ServiceTokenSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    role: AdminRoleSchema,
    /** The team member a personal token acts for (decisions need a person); null: a named service token. */
    userId: Nullable(Type.String()),
    createdAt: Timestamp,
    revokedAt: Nullable(Timestamp),
    lastUsedAt: Nullable(Timestamp),
  },
  { $id: 'ServiceToken' },
);
const TeamIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const TokenName = Type.String({ minLength: 2, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' });

export const teamAdminOperations = defineOperations({
  adminCreateUser: {
    id: 'adminCreateUser',
    subject: 'operators.admin.createUser',
    method: 'POST',
    path: '/admin/users',
    tag: 'Admin',
    summary: 'Add a team member with a role (the password is shown once)',
    body: Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), role: AdminRoleSchema }),
    response: Type.Object({ user: TeamMemberSchema, password: Type.String() }),
    status: 201,
    errors: ['TEAM_MEMBER_ALREADY_EXISTS'],
  },
  adminListUsers: {
    id: 'adminListUsers',
    subject: 'operators.admin.listUsers',
    method: 'GET',
    path: '/admin/users',
    tag: 'Admin',
    summary: 'List team members',
    response: Type.Object({ data: Type.Array(TeamMemberSchema) }),
    status: 200,
  },
  adminDisableUser: {
    id: 'adminDisableUser',
    subject: 'operators.admin.disableUser',
    method: 'POST',
    path: '/admin/users/:id/disable',
    tag: 'Admin',
    summary: 'Disable a team member',
    params: TeamIdParams,
    response: TeamMemberSchema,
    status: 200,
    errors: ['TEAM_MEMBER_NOT_FOUND'],
  },
  // Four eyes that one admin cannot defeat (issue #69): a person's power is confirmed by a second,
  // distinct, activated admin before their first decision (docs/console.md, "Confirmed people").
  adminConfirmUser: {
    id: 'adminConfirmUser',
    subject: 'operators.admin.confirmUser',
    method: 'POST',
    path: '/admin/users/:id/confirm',
    tag: 'Admin',
    summary:
      "Confirm a person's power, as a second admin: not the one who added them (or last reset their password), never oneself; the person must have set up their account. A person added by ADMIN_TOKEN or a service token takes two admins' confirmations (the first two admins of a deployment confirm each other)",
    params: TeamIdParams,
    response: TeamMemberSchema,
    status: 200,
    errors: ['TEAM_MEMBER_NOT_FOUND', 'TEAM_MEMBER_NOT_ACTIVATED', 'FOUR_EYES_REQUIRED', 'PERSON_NOT_CONFIRMED', 'PERSON_REQUIRED'],
  },
  adminResetSecondFactor: {
    id: 'adminResetSecondFactor',
    subject: 'operators.admin.resetSecondFactor',
    method: 'POST',
    path: '/admin/users/:id/reset-second-factor',
    tag: 'Admin',
    summary: 'Turn off the TOTP second factor of a person who lost their authenticator',
    params: TeamIdParams,
    response: TeamMemberSchema,
    status: 200,
    errors: ['TEAM_MEMBER_NOT_FOUND'],
  },
  adminResetPassword: {
    id: 'adminResetPassword',
    subject: 'operators.admin.resetPassword',
    method: 'POST',
    path: '/admin/users/:id/reset-password',
    tag: 'Admin',
    summary: "Issue a new one-time password (shown once) and end the person's sessions; they choose a new one at the next sign-in",
    params: TeamIdParams,
    response: Type.Object({ user: TeamMemberSchema, password: Type.String() }),
    status: 200,
    errors: ['TEAM_MEMBER_NOT_FOUND'],
  },
  adminCreateToken: {
    id: 'adminCreateToken',
    subject: 'operators.admin.createToken',
    method: 'POST',
    path: '/admin/tokens',
    tag: 'Admin',
    summary:
      'Create a named service token with a role (shown once): it acts for no person and takes no decision. A personal token is made by its owner only (POST /admin/account/tokens): `userId` is refused (403 TOKEN_OWNER_REQUIRED)',
    body: Type.Object({
      name: TokenName,
      role: AdminRoleSchema,
      /** Refused since issue #56 (403 TOKEN_OWNER_REQUIRED): nobody makes a personal token for someone else. */
      userId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    response: Type.Object({ token: ServiceTokenSchema, secret: Type.String() }),
    status: 201,
    errors: ['TEAM_MEMBER_ALREADY_EXISTS', 'TOKEN_OWNER_REQUIRED'],
  },
  adminListTokens: {
    id: 'adminListTokens',
    subject: 'operators.admin.listTokens',
    method: 'GET',
    path: '/admin/tokens',
    tag: 'Admin',
    summary: 'List service tokens',
    response: Type.Object({ data: Type.Array(ServiceTokenSchema) }),
    status: 200,
  },
  adminRevokeToken: {
    id: 'adminRevokeToken',
    subject: 'operators.admin.revokeToken',
    method: 'POST',
    path: '/admin/tokens/:id/revoke',
    tag: 'Admin',
    summary: "Revoke a token (a service token, or anyone's personal token)",
    params: TeamIdParams,
    response: ServiceTokenSchema,
    status: 200,
    errors: ['TEAM_MEMBER_NOT_FOUND'],
  },
  // A person's own personal tokens (issue #56): made only by their owner, from their own console
  // session (never with a bearer token), once the account is set up, with a fresh authenticator code
  // when the person signs in with one. The token acts as its person, in their role, while they stay
  // active and set up.
  adminCreateOwnToken: {
    id: 'adminCreateOwnToken',
    subject: 'operators.admin.createOwnToken',
    method: 'POST',
    path: '/admin/account/tokens',
    tag: 'Admin',
    summary:
      'Make your own personal API token (shown once), from your console session only: it acts as you, in your role; with two-factor sign-in on, a fresh code from your authenticator (`totp`)',
    body: Type.Object({
      name: TokenName,
      /** A code from the person's authenticator not used before (required when their two-factor sign-in is on). */
      totp: Type.Optional(Type.String({ maxLength: 16 })),
    }),
    response: Type.Object({ token: ServiceTokenSchema, secret: Type.String() }),
    status: 201,
    errors: ['TEAM_MEMBER_ALREADY_EXISTS', 'TOKEN_OWNER_REQUIRED', 'ACCOUNT_SETUP_REQUIRED', 'RATE_LIMITED'],
  },
  adminListOwnTokens: {
    id: 'adminListOwnTokens',
    subject: 'operators.admin.listOwnTokens',
    method: 'GET',
    path: '/admin/account/tokens',
    tag: 'Admin',
    summary: 'Your own personal API tokens (never a secret)',
    response: Type.Object({ data: Type.Array(ServiceTokenSchema) }),
    status: 200,
    errors: ['TOKEN_OWNER_REQUIRED'],
  },
  adminRevokeOwnToken: {
    id: 'adminRevokeOwnToken',
    subject: 'operators.admin.revokeOwnToken',
    method: 'POST',
    path: '/admin/account/tokens/:id/revoke',
    tag: 'Admin',
    summary: 'Revoke one of your own personal API tokens',
    params: TeamIdParams,
    response: ServiceTokenSchema,
    status: 200,
    errors: ['TEAM_MEMBER_NOT_FOUND', 'TOKEN_OWNER_REQUIRED'],
  },
});

/** One row of the admin audit log: who did what, to what, before and after, in which request. */
export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  actor: Type.String(),
  /** The team member who acted (their user id); null for ADMIN_TOKEN, a named service token, or a row from before 1.4.0. */
  actorId: Type.Optional(Nullable(Type.String())),
  action: Type.String(),
  target: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  requestId: Type.String(),
  at: Timestamp,
});

export const operatorAdminOperations = defineOperations({
  adminCreateOperator: {
    id: 'adminCreateOperator',
    subject: 'operators.admin.create',
    method: 'POST',
    path: '/admin/operators',
    tag: 'Admin',
    summary: 'Create an operator with sandbox and production credentials (secrets shown once)',
    body: Type.Object({
      name: Type.String({ minLength: 2, maxLength: 200 }),
      currency: Type.Optional(Currency),
      rateLimitPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })),
    }),
    response: CreatedOperatorSchema,
    status: 201,
  },
  adminListOperators: {
    id: 'adminListOperators',
    subject: 'operators.admin.list',
    method: 'GET',
    path: '/admin/operators',
    tag: 'Admin',
    summary: 'List operators',
    response: Type.Object({ data: Type.Array(OperatorSchema) }),
    status: 200,
  },
  adminGetOperator: {
    id: 'adminGetOperator',
    subject: 'operators.admin.get',
    method: 'GET',
    path: '/admin/operators/:id',
    tag: 'Admin',
    summary: 'Read an operator',
    params: OperatorIdParams,
    response: OperatorSchema,
    status: 200,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSuspendOperator: {
    id: 'adminSuspendOperator',
    subject: 'operators.admin.suspend',
    method: 'POST',
    path: '/admin/operators/:id/suspend',
    tag: 'Admin',
    summary: 'Suspend an operator',
    params: OperatorIdParams,
    response: OperatorSchema,
    status: 200,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminResumeOperator: {
    id: 'adminResumeOperator',
    subject: 'operators.admin.resume',
    method: 'POST',
    path: '/admin/operators/:id/resume',
    tag: 'Admin',
    summary: 'Resume a suspended operator',
    params: OperatorIdParams,
    response: OperatorSchema,
    status: 200,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSetAllowedIps: {
    id: 'adminSetAllowedIps',
    subject: 'operators.admin.setAllowedIps',
    method: 'PUT',
    path: '/admin/operators/:id/allowed-ips',
    tag: 'Admin',
    summary: 'Set the caller allow-list (IPs or CIDRs; empty allows all)',
    params: OperatorIdParams,
    body: Type.Object({ ips: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }) }),
    response: OperatorSchema,
    status: 200,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSetRateLimit: {
    id: 'adminSetRateLimit',
    subject: 'operators.admin.setRateLimit',
    method: 'PUT',
    path: '/admin/operators/:id/rate-limit',
    tag: 'Admin',
    summary: 'Set the per-minute rate limit',
    params: OperatorIdParams,
    body: Type.Object({ perMinute: Type.Integer({ minimum: 1, maximum: 1000000 }) }),
    response: OperatorSchema,
    status: 200,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminSetWebhookUrl: {
    id: 'adminSetWebhookUrl',
    subject: 'operators.admin.setWebhookUrl',
    method: 'PUT',
    path: '/admin/operators/:id/webhooks/:environment',
    tag: 'Admin',
    summary: 'Set the webhook URL of one environment (null removes it)',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), environment: EnvironmentSchema }),
    body: Type.Object({ url: Nullable(Type.String({ format: 'uri', maxLength: 2048 })) }),
    response: OperatorSchema,
    status: 200,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminRotateWebhookSecret: {
    id: 'adminRotateWebhookSecret',
    subject: 'operators.admin.rotateWebhookSecret',
    method: 'POST',
    path: '/admin/operators/:id/webhooks/:environment/rotate-secret',
    tag: 'Admin',
    summary: 'Issue a new webhook secret; deliveries carry signatures of both secrets for the overlap',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), environment: EnvironmentSchema }),
    body: Type.Object({
      /** How long deliveries are also signed with the previous secret (0: switch at once). */
      overlapSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800, default: 86_400 })),
    }),
    response: Type.Object({
      operatorId: Type.String(),
      environment: EnvironmentSchema,
      /** The new secret, shown once. */
      webhookSecret: Type.String(),
      /** Until then deliveries are signed with both secrets; null when the overlap is 0. */
      previousSecretExpiresAt: Nullable(Timestamp),
    }),
    status: 200,
    idempotent: true,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminListOperatorCredentials: {
    id: 'adminListOperatorCredentials',
    subject: 'operators.admin.listCredentials',
    method: 'GET',
    path: '/admin/operators/:id/credentials',
    tag: 'Admin',
    summary: "An operator's keys, newest first: prefix, environment, status, expiry (never a secret)",
    params: OperatorIdParams,
    response: Type.Object({ data: Type.Array(OperatorCredentialSchema) }),
    status: 200,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminRotateOperatorKey: {
    id: 'adminRotateOperatorKey',
    subject: 'operators.admin.rotateKey',
    method: 'POST',
    path: '/admin/operators/:id/credentials/:environment/rotate',
    tag: 'Admin',
    summary: "Issue a new key for one environment (secret shown once); the environment's other keys stop after the overlap",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), environment: EnvironmentSchema }),
    body: Type.Object({
      /** How long the keys in use keep working next to the new one (0: refused at once). */
      overlapMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: KEY_ROTATION_OVERLAP_MINUTES.max, default: KEY_ROTATION_OVERLAP_MINUTES.default })),
    }),
    response: RotatedKeySchema,
    status: 201,
    errors: ['OPERATOR_NOT_FOUND'],
  },
  adminRevokeOperatorKey: {
    id: 'adminRevokeOperatorKey',
    subject: 'operators.admin.revokeKey',
    method: 'POST',
    path: '/admin/operators/:id/credentials/:credentialId/revoke',
    tag: 'Admin',
    summary: 'Revoke one key at once: every gateway replica refuses it before the answer',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), credentialId: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: OperatorCredentialSchema,
    status: 200,
    errors: ['CREDENTIAL_NOT_FOUND'],
  },
  adminListAudit: {
    id: 'adminListAudit',
    subject: 'operators.admin.listAudit',
    method: 'GET',
    path: '/admin/audit',
    tag: 'Admin',
    summary: 'The admin audit log, newest first; filter by target, actor and action',
    query: Type.Object({
      target: Type.Optional(Type.String({ maxLength: 128 })),
      /** Who acted: a person's e-mail, `token:<name>`, or the bootstrap token's actor. */
      actor: Type.Optional(Type.String({ maxLength: 254 })),
      /** The admin operation, for example `adminWithdrawalDecision`. */
      action: Type.Optional(Type.String({ maxLength: 64 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
      /** The id of the last row of the page before: the next page (newest first). */
      startingAfter: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    response: Type.Object({
      data: Type.Array(AuditEntrySchema),
      /** Whether more rows follow: ask again with `startingAfter` the last row's id. */
      hasMore: Type.Boolean(),
    }),
    status: 200,
  },
});

/**
 * Personal data of a player the admin API answers with (issue #69): masked unless the request reveals
 * it (`?reveal=`), and every read of any of them recorded. The names are the response's keys.
 */
export const PERSONAL_DATA_FIELDS = ['cpf', 'phone', 'address', 'signupIp'] as const;
export type PersonalDataField = (typeof PERSONAL_DATA_FIELDS)[number];
const PersonalDataFieldSchema = Type.Union(PERSONAL_DATA_FIELDS.map((f) => Type.Literal(f)));

/** One read by our team of a player's personal data (or, by a regulator, of anything): who, which player, what, when, where from. */
export const PersonalDataReadSchema = Type.Object(
  {
    id: Type.String(),
    /** Who read, as the audit log names them, their team-member id (null for ADMIN_TOKEN or a service token) and their role. */
    actor: Type.String(),
    actorId: Nullable(Type.String()),
    role: Type.String(),
    /** The player whose data was read; null for a regulator's read that named no player. */
    playerId: Nullable(Type.String()),
    /** The personal fields the answer carried for that player (masked unless revealed). */
    fields: Type.Array(PersonalDataFieldSchema),
    /** Those shown whole, on a deliberate reveal. */
    revealed: Type.Array(PersonalDataFieldSchema),
    /** The admin operation and its route (`GET /admin/players/:id`: the template, never a query that could hold a CPF). */
    operation: Type.String(),
    route: Type.String(),
    requestId: Type.String(),
    at: Timestamp,
  },
  { $id: 'PersonalDataRead' },
);

export const personalDataReadOperations = defineOperations({
  adminListPersonalDataReads: {
    id: 'adminListPersonalDataReads',
    subject: 'operators.admin.listPersonalDataReads',
    method: 'GET',
    path: '/admin/personal-data-reads',
    tag: 'Admin',
    summary: "Who of our team read which player's personal data, when and from where (reveals and every regulator read included), newest first",
    query: Type.Object({
      playerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** A team member's id. */
      actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** Only reads that revealed something (`true`). */
      revealed: Type.Optional(Type.Boolean()),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
      startingAfter: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    response: Type.Object({ data: Type.Array(PersonalDataReadSchema), hasMore: Type.Boolean() }),
    status: 200,
  },
});

/** The admin API's operations but the providers' (index.ts adds them: providers.ts reads this module). */
export const baseAdminOperations = {
  ...operatorAdminOperations,
  ...teamAdminOperations,
  ...personalDataReadOperations,
  ...playerAdminOperations,
  ...paymentAdminOperations,
  ...webhookAdminOperations,
  ...walletAdminOperations,
  ...complianceAdminOperations,
  ...responsibleGamingAdminOperations,
  ...amlAdminOperations,
  ...screeningAdminOperations,
  ...cosAdminOperations,
  ...dailyFileAdminOperations,
  ...dailyFilesAdminOperations,
  ...internalImpedimentAdminOperations,
  ...amlReportDecisionOperations,
  ...amlAnnualReportOperations,
  ...amlRiskRegisterOperations,
  ...amlRiskAssessmentOperations,
};
