// What the gateway asks the operators service (which owns operators, brands, keys, webhook endpoint
// settings, our team's accounts, console sessions and the audit log) beside the admin operations:
// a credential by its key's hash (only on a miss of the gateway's credential cache), an operator's
// status (the play page's check), who a bearer token or a console session is, the console's
// sign-in and second factor.
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Nullable, Timestamp } from './common.ts';
import { ADMIN_ROLES, AuditEntrySchema } from './admin.ts';
import { defineMessages } from './messages.ts';

const RoleSchema = Type.Union(ADMIN_ROLES.map((r) => Type.Literal(r)));
const OperatorStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('suspended')]);

/** An operator key's credential as the gateway caches it: the signing secret stays sealed (SECRETS_MASTER_KEY). */
export const CredentialRecordSchema = Type.Object({
  operatorId: Type.String(),
  operatorName: Type.String(),
  operatorStatus: OperatorStatusSchema,
  environment: EnvironmentSchema,
  brand: Type.Object({ id: Type.String(), name: Type.String(), currency: Type.String() }),
  rateLimitPerMinute: Type.Integer(),
  allowedIps: Type.Array(Type.String()),
  secretSealed: Type.String(),
  /** From then on the key is refused (a rotation set it); null: no end. */
  expiresAt: Nullable(Timestamp),
});
export type CredentialRecord = Static<typeof CredentialRecordSchema>;

/**
 * What a person must do before the console lets them do anything else: choose their own password
 * (they signed in with a one-time one) and turn on TOTP (their role requires it).
 */
export const SetupStepSchema = Type.Union([Type.Literal('password'), Type.Literal('secondFactor')]);
export type SetupStep = Static<typeof SetupStepSchema>;

/**
 * Who calls the admin API, and with which role. `root`: the bootstrap ADMIN_TOKEN (the gateway's).
 * `personId`: the team member behind a console session or a personal token (none for a named
 * service token or ADMIN_TOKEN in production). `setupRequired` (a personal token's): what its person
 * has not done yet (a one-time password to replace, TOTP their role requires); a person not
 * activated is refused everything (issue #56).
 */
export const AdminIdentitySchema = Type.Object({
  actor: Type.String(),
  role: RoleSchema,
  root: Type.Boolean(),
  personId: Type.Optional(Type.String()),
  setupRequired: Type.Optional(Type.Array(SetupStepSchema)),
  /**
   * A team member's (issue #69): whether a second admin confirmed their power. False: they decide
   * nothing and manage nobody (403 PERSON_NOT_CONFIRMED). Absent: not a team member.
   */
  confirmed: Type.Optional(Type.Boolean()),
});
export type AdminIdentity = Static<typeof AdminIdentitySchema>;

/** A person signed in to the console. */
export const SessionIdentitySchema = Type.Composite([
  AdminIdentitySchema,
  Type.Object({
    csrfToken: Type.String(),
    email: Type.String(),
    memberId: Type.String(),
    secondFactor: Type.Boolean(),
    /** Empty once the account is set up; until then the admin API refuses the session (ACCOUNT_SETUP_REQUIRED). */
    setupRequired: Type.Array(SetupStepSchema),
  }),
]);
export type SessionIdentity = Static<typeof SessionIdentitySchema>;

const SessionToken = Type.String({ minLength: 1, maxLength: 128 });
const Person = Type.Object({ memberId: Type.String(), email: Type.String(), secondFactor: Type.Boolean() });
/** Where a console request came from: the address the sign-in back-off counts, and the request the audit log names. */
const Origin = Type.Object({ address: Type.String({ maxLength: 64 }), requestId: Type.String({ maxLength: 128 }) });
const Password = Type.String({ maxLength: 1024 });

/** An audit row to write: the log's row without what the log gives it (its id and time). */
export const AuditRecordSchema = Type.Omit(AuditEntrySchema, ['id', 'at']);
export type AuditRecord = Static<typeof AuditRecordSchema>;

/**
 * Internal event `audit.recorded` (internal stream): a decision's audit row, written by the service
 * that made the decision into its outbox in the decision's transaction. `id` is the row's id, made
 * once in that transaction: the operators service inserts it once, however often it is delivered.
 */
export const AUDIT_RECORDED = 'audit.recorded';
export const AuditRecordedSchema = Type.Composite([
  /** `at`: when the decision committed (the log orders by it, not by when the row arrived). */
  Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), at: Timestamp }),
  AuditRecordSchema,
]);
export type AuditRecorded = Static<typeof AuditRecordedSchema>;

export const operatorMessages = defineMessages({
  credential: {
    subject: 'operators.credential.lookup',
    body: Type.Object({ keyHash: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
    reply: Type.Object({ credential: Nullable(CredentialRecordSchema) }),
  },
  status: {
    subject: 'operators.status.get',
    body: Type.Object({ operatorId: Type.String({ minLength: 1, maxLength: 64 }) }),
    reply: Type.Object({ status: Nullable(OperatorStatusSchema) }),
  },
  identifyToken: {
    subject: 'operators.team.identifyToken',
    body: Type.Object({ bearer: Type.String({ maxLength: 512 }) }),
    reply: Type.Object({ identity: Nullable(AdminIdentitySchema) }),
  },
  signIn: {
    subject: 'operators.console.signIn',
    body: Type.Composite([
      Origin,
      Type.Object({ email: Type.String({ maxLength: 254 }), password: Password, totp: Type.Optional(Type.String({ maxLength: 16 })) }),
    ]),
    reply: Type.Object({
      token: Type.String(),
      csrfToken: Type.String(),
      member: Type.Object({ id: Type.String(), email: Type.String(), role: RoleSchema }),
      setupRequired: Type.Array(SetupStepSchema),
    }),
  },
  identifySession: {
    subject: 'operators.console.identify',
    body: Type.Object({ token: SessionToken }),
    reply: Type.Object({ session: Nullable(SessionIdentitySchema) }),
  },
  signOut: { subject: 'operators.console.signOut', body: Type.Object({ token: SessionToken }), reply: Type.Object({}) },
  changePassword: {
    subject: 'operators.console.changePassword',
    // currentPassword: not asked at the first sign-in's setup (its one-time password was spent by that sign-in).
    body: Type.Composite([Person, Origin, Type.Object({ token: SessionToken, currentPassword: Type.Optional(Password), newPassword: Password })]),
    reply: Type.Object({}),
  },
  startSecondFactor: {
    subject: 'operators.console.startSecondFactor',
    body: Person,
    reply: Type.Object({ secret: Type.String(), uri: Type.String() }),
  },
  // Issue #69: the gateway records our team's reads of players' personal data (and every read of a
  // regulator) before it answers them: one insert, rows for every player the answer named.
  recordPersonalDataReads: {
    subject: 'operators.reads.record',
    body: Type.Object({
      actor: Type.String({ maxLength: 300 }),
      actorId: Nullable(Type.String({ maxLength: 64 })),
      role: Type.String({ maxLength: 32 }),
      operation: Type.String({ maxLength: 64 }),
      route: Type.String({ maxLength: 300 }),
      requestId: Type.String({ maxLength: 128 }),
      reads: Type.Array(
        Type.Object({
          playerId: Nullable(Type.String({ maxLength: 64 })),
          fields: Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 }),
          revealed: Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 }),
        }),
        { minItems: 1, maxItems: 1000 },
      ),
    }),
    reply: Type.Object({ recorded: Type.Integer() }),
  },
  confirmSecondFactor: {
    subject: 'operators.console.confirmSecondFactor',
    body: Type.Composite([Person, Origin, Type.Object({ code: Type.String({ maxLength: 16 }) })]),
    reply: Type.Object({}),
  },
});
