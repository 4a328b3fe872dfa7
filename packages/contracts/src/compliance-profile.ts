// The operator's compliance profile (Brazil's SPA/MF rules, issues 26-28): which rule set our team
// has switched on for an operator, and the settings its rules read, for both of the operator's
// brands (sandbox follows production). The players service owns it (it enforces the
// responsible-gaming rules at registration and answers `players.state`); any other service that
// applies a `br-spa` rule asks for it with `players.compliance.get`.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';

/** `off`: the contract v1.1 behaviour (the default). `br-spa`: the Brazilian SPA/MF rules. */
export const ComplianceProfileSchema = Type.Union([Type.Literal('off'), Type.Literal('br-spa')]);
export type ComplianceProfile = Static<typeof ComplianceProfileSchema>;

/** The defaults of an operator our team never set (docs/responsible-gaming.md says why each). */
export const COMPLIANCE_DEFAULTS = {
  profile: 'off',
  timeZone: 'America/Sao_Paulo',
  coolingOffHours: 24,
  realityCheckMinutes: 60,
} as const satisfies { profile: ComplianceProfile; timeZone: string; coolingOffHours: number; realityCheckMinutes: number };

const OperatorId = Type.String({ minLength: 1, maxLength: 64 });
export const OperatorComplianceRequestSchema = Type.Object({ operatorId: OperatorId });
export type OperatorComplianceRequest = Static<typeof OperatorComplianceRequestSchema>;

export const OperatorComplianceSchema = Type.Object(
  {
    operatorId: Type.String(),
    profile: ComplianceProfileSchema,
    /** IANA time zone of the limit periods (calendar day, week Monday to Sunday, calendar month). */
    timeZone: Type.String(),
    /** Hours before a relaxed limit (a higher one, or a removal) takes effect. */
    coolingOffHours: Type.Integer({ minimum: 0 }),
    /** Minutes between reality checks on the play page. */
    realityCheckMinutes: Type.Integer({ minimum: 1 }),
    /**
     * br-spa: this operator's link to the central self-exclusion platform, shown in its players'
     * responsible-gaming view; null: the deployment's (CENTRAL_SELF_EXCLUSION_URL, the gov.br page).
     */
    selfExclusionPlatformUrl: Nullable(Type.String()),
    /** Null until our team first sets it. */
    updatedAt: Nullable(Timestamp),
    updatedBy: Nullable(Type.String()),
  },
  { $id: 'OperatorCompliance' },
);
export type OperatorCompliance = Static<typeof OperatorComplianceSchema>;

export const OPERATOR_COMPLIANCE_SUBJECT = 'players.compliance.get';

/** `players.compliance.get`: an operator's profile and settings (the defaults when never set). */
export const complianceProfileMessages = defineMessages({
  get: { subject: OPERATOR_COMPLIANCE_SUBJECT, body: OperatorComplianceRequestSchema, reply: OperatorComplianceSchema },
});

/** Why our team changes an operator's profile: every change is a person's decision, with its reason (issue #56). */
const ChangeReason = Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' });

/** The profile and settings a change sets. */
const ComplianceSettingsSchema = Type.Object({
  profile: ComplianceProfileSchema,
  /** Omitted: kept (the default for a first setting). */
  timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  coolingOffHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 720 })),
  realityCheckMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  /** Omitted: kept; null: back to the deployment's link. */
  selfExclusionPlatformUrl: Type.Optional(Nullable(Type.String({ format: 'uri', pattern: '^https://', maxLength: 2048 }))),
});
export type ComplianceSettings = Static<typeof ComplianceSettingsSchema>;

export const SetOperatorComplianceSchema = Type.Composite([ComplianceSettingsSchema, Type.Object({ reason: ChangeReason })]);
export type SetOperatorCompliance = Static<typeof SetOperatorComplianceSchema>;

/** How long a requested change waits for its second person before it expires. */
export const COMPLIANCE_CHANGE_HOURS = 24;
export const COMPLIANCE_CHANGE_STATUSES = ['pending', 'confirmed', 'cancelled', 'expired'] as const;
export type ComplianceChangeStatus = (typeof COMPLIANCE_CHANGE_STATUSES)[number];

/**
 * A change of an operator's profile that waits for a second person (four eyes): turning the br-spa
 * rules off. One person requests it with a reason; another person confirms it (it is applied then)
 * or anyone with the right cancels it, each with a reason; unconfirmed, it expires after
 * COMPLIANCE_CHANGE_HOURS. One pending change per operator at most.
 */
export const ComplianceChangeSchema = Type.Object(
  {
    id: Type.String(),
    operatorId: Type.String(),
    status: Type.Union(COMPLIANCE_CHANGE_STATUSES.map((s) => Type.Literal(s))),
    /** What the change sets once confirmed. */
    change: ComplianceSettingsSchema,
    /** The profile when it was requested. */
    fromProfile: ComplianceProfileSchema,
    reason: Type.String(),
    requestedBy: Type.String(),
    requestedAt: Timestamp,
    expiresAt: Timestamp,
    /** Who confirmed or cancelled it, when and why; null while pending (or once expired). */
    decidedBy: Nullable(Type.String()),
    decidedAt: Nullable(Timestamp),
    decisionReason: Nullable(Type.String()),
  },
  { $id: 'ComplianceChange' },
);
export type ComplianceChange = Static<typeof ComplianceChangeSchema>;
const ChangeParams = Type.Object({ id: OperatorId, changeId: Type.String({ minLength: 1, maxLength: 64 }) });

export const complianceAdminOperations = defineOperations({
  adminGetCompliance: {
    id: 'adminGetCompliance',
    method: 'GET',
    path: '/admin/operators/:id/compliance',
    subject: 'players.admin.getCompliance',
    tag: 'Admin',
    summary: "An operator's compliance profile (off or br-spa) and the settings its rules read",
    params: Type.Object({ id: OperatorId }),
    response: OperatorComplianceSchema,
    status: 200,
  },
  adminSetCompliance: {
    id: 'adminSetCompliance',
    method: 'PUT',
    path: '/admin/operators/:id/compliance',
    subject: 'players.admin.setCompliance',
    tag: 'Admin',
    summary:
      "Set an operator's compliance profile, with a reason (a person's decision): br-spa switches on Brazil's SPA/MF rules for both of its brands; turning them off takes two people (403 FOUR_EYES_REQUIRED: request it with POST /admin/operators/{id}/compliance/changes)",
    params: Type.Object({ id: OperatorId }),
    body: SetOperatorComplianceSchema,
    response: OperatorComplianceSchema,
    status: 200,
    errors: ['FOUR_EYES_REQUIRED'],
  },
  adminRequestComplianceChange: {
    id: 'adminRequestComplianceChange',
    method: 'POST',
    path: '/admin/operators/:id/compliance/changes',
    subject: 'players.admin.requestComplianceChange',
    tag: 'Admin',
    summary: "Request a change of an operator's compliance profile that a second person confirms (turning the br-spa rules off), with a reason",
    params: Type.Object({ id: OperatorId }),
    body: SetOperatorComplianceSchema,
    response: ComplianceChangeSchema,
    status: 201,
    errors: ['COMPLIANCE_CHANGE_PENDING'],
  },
  adminConfirmComplianceChange: {
    id: 'adminConfirmComplianceChange',
    method: 'POST',
    path: '/admin/operators/:id/compliance/changes/:changeId/confirm',
    subject: 'players.admin.confirmComplianceChange',
    tag: 'Admin',
    summary: 'Confirm a pending compliance profile change, with a reason: applied now; never by the person who requested it (403 FOUR_EYES_REQUIRED)',
    params: ChangeParams,
    body: Type.Object({ reason: ChangeReason }),
    response: ComplianceChangeSchema,
    status: 200,
    errors: ['COMPLIANCE_CHANGE_NOT_FOUND', 'COMPLIANCE_CHANGE_NOT_PENDING', 'FOUR_EYES_REQUIRED'],
  },
  adminCancelComplianceChange: {
    id: 'adminCancelComplianceChange',
    method: 'POST',
    path: '/admin/operators/:id/compliance/changes/:changeId/cancel',
    subject: 'players.admin.cancelComplianceChange',
    tag: 'Admin',
    summary: 'Cancel a pending compliance profile change, with a reason (its requester too): nothing changes',
    params: ChangeParams,
    body: Type.Object({ reason: ChangeReason }),
    response: ComplianceChangeSchema,
    status: 200,
    errors: ['COMPLIANCE_CHANGE_NOT_FOUND', 'COMPLIANCE_CHANGE_NOT_PENDING'],
  },
  adminListComplianceChanges: {
    id: 'adminListComplianceChanges',
    method: 'GET',
    path: '/admin/compliance-changes',
    subject: 'players.admin.listComplianceChanges',
    tag: 'Admin',
    summary: "Compliance profile changes that wait for (or had) a second person, newest first: the console's notice to compliance",
    query: Type.Object({
      operatorId: Type.Optional(OperatorId),
      status: Type.Optional(Type.Union(COMPLIANCE_CHANGE_STATUSES.map((s) => Type.Literal(s)))),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    }),
    response: Type.Object({ data: Type.Array(ComplianceChangeSchema) }),
    status: 200,
  },
});
