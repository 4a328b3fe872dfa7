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

export const SetOperatorComplianceSchema = Type.Object({
  profile: ComplianceProfileSchema,
  /** Omitted: kept (the default for a first setting). */
  timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  coolingOffHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 720 })),
  realityCheckMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  /** Omitted: kept; null: back to the deployment's link. */
  selfExclusionPlatformUrl: Type.Optional(Nullable(Type.String({ format: 'uri', pattern: '^https://', maxLength: 2048 }))),
});
export type SetOperatorCompliance = Static<typeof SetOperatorComplianceSchema>;

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
    summary: "Set an operator's compliance profile: br-spa switches on Brazil's SPA/MF rules for both of its brands",
    params: Type.Object({ id: OperatorId }),
    body: SetOperatorComplianceSchema,
    response: OperatorComplianceSchema,
    status: 200,
  },
});
