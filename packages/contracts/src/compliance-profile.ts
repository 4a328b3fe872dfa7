// The operator's compliance profile (Brazil's SPA/MF rules, issues 26-28): which rule set our team
// has switched on for an operator, and the per-brand settings its rules read. The players service
// owns it (it enforces the responsible-gaming rules at registration and answers `players.state`);
// any other service that applies a `br-spa` rule asks for it with this message.
import { Type, type Static } from '@sinclair/typebox';
import { defineMessages } from './messages.ts';

/** `off`: the contract v1.1 behaviour (the default). `br-spa`: the Brazilian SPA/MF rules. */
export const ComplianceProfileSchema = Type.Union([Type.Literal('off'), Type.Literal('br-spa')]);
export type ComplianceProfile = Static<typeof ComplianceProfileSchema>;

export const OperatorComplianceRequestSchema = Type.Object({ operatorId: Type.String({ minLength: 1, maxLength: 64 }) });
export type OperatorComplianceRequest = Static<typeof OperatorComplianceRequestSchema>;

/** What `players.compliance.get` answers; an operator our team never set is `off` with the defaults. */
export const OperatorComplianceSchema = Type.Object({
  operatorId: Type.String(),
  profile: ComplianceProfileSchema,
  /** IANA time zone of the periods (day, week Monday to Sunday, month). Default `America/Sao_Paulo`. */
  timeZone: Type.String(),
  /** Hours before a relaxed limit takes effect. Default 24. */
  coolingOffHours: Type.Integer({ minimum: 0 }),
  /** Minutes between reality checks on the play page. Default 60. */
  realityCheckMinutes: Type.Integer({ minimum: 1 }),
});
export type OperatorCompliance = Static<typeof OperatorComplianceSchema>;

export const OPERATOR_COMPLIANCE_SUBJECT = 'players.compliance.get';

export const complianceProfileMessages = defineMessages({
  get: { subject: OPERATOR_COMPLIANCE_SUBJECT, body: OperatorComplianceRequestSchema, reply: OperatorComplianceSchema },
});
