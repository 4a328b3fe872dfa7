import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema } from './common.ts';
import { ComplianceProfileSchema, type ComplianceProfile } from './compliance-profile.ts';
import { defineOperations } from './operations.ts';
import { BR_SPA_METHODS, PRIZE_CLOCK_MINUTES } from './payments.ts';

/**
 * What an operator's compliance profile adds to its API calls, rule by rule, as GET /me tells the
 * operator (issue #56): a stable `id` and what the calls meet. Under `off` nothing is added (limits,
 * pauses and self-exclusion players choose are enforced under either profile). The rules themselves,
 * their sources and their tests: docs/eligibility.md, docs/players.md, docs/responsible-gaming.md.
 */
export const PROFILE_RULES: Record<ComplianceProfile, ReadonlyArray<{ id: string; summary: string }>> = {
  off: [],
  'br-spa': [
    {
      id: 'limits_required',
      summary:
        'A registration carries a loss and a time limit (422 VALIDATION_ERROR, details.missing); a player without both in force is refused deposits and game sessions (403 RG_BLOCKED, limits_required); the last of each cannot be removed (409 LIMIT_REQUIRED).',
    },
    {
      id: 'registration_data',
      summary:
        'A registration carries the phone, gender, signupIp and address (422 VALIDATION_ERROR, details.missing); a player without them is refused deposits and bets (403 RG_BLOCKED, registration_incomplete, details.missing) until you complete them (PATCH /players/{playerId}); player.registration_incomplete and player.registration_completed tell you.',
    },
    { id: 'one_player_per_cpf', summary: 'One player per CPF per brand (409 PLAYER_CPF_EXISTS, details.playerId).' },
    {
      id: 'impediment_checks',
      summary:
        "The SPA's registry of impeded bettors is asked at registration (403 PLAYER_IMPEDED; 503 IMPEDIMENT_CHECK_UNAVAILABLE while it cannot be asked), at the first login (POST /players/{playerId}/logins), deposit or game session of each day, and every 15 days; a hit restricts the player (player.restricted): deposits and play refused (403 RG_BLOCKED, impeded), withdrawals for 2 days, then the account is closed (player.closed).",
    },
    { id: 'terms_acceptance', summary: 'The terms version in force must be accepted before the next deposit or game session (403 TERMS_NOT_ACCEPTED).' },
    {
      id: 'payer_is_player',
      summary:
        'A deposit is confirmed with its payer (payer.cpf, 422 PAYER_REQUIRED); one paid by anyone but the player is not credited (failed, failureReason payer_mismatch, deposit.failed with refundRequired).',
    },
    { id: 'methods', summary: `Deposits and withdrawals by ${BR_SPA_METHODS.join(', ')} only (422 METHOD_NOT_ALLOWED, details.allowed).` },
    { id: 'payout_to_own_account', summary: "A withdrawal goes to the player's own account only (422 DESTINATION_NOT_OWNED)." },
    { id: 'prize_clock', summary: `A withdrawal carries payoutDueAt, ${PRIZE_CLOCK_MINUTES} minutes after its request.` },
    {
      id: 'no_marketing_to_excluded',
      summary:
        "A self-exclusion, a pause, an impediment or the closing forces the player's marketing consent off and it cannot be given again while it lasts (409 MARKETING_BLOCKED); GET /marketing/suppressions lists who must not be contacted on a day.",
    },
    {
      id: 'central_self_exclusion_link',
      summary: "Responsible-gaming views carry centralSelfExclusionUrl, the SPA's central self-exclusion platform, to show beside your own self-exclusion.",
    },
  ],
};

/** The operator's compliance profile, its settings and what it implies (read from the players service, which owns it). */
export const MeComplianceSchema = Type.Object(
  {
    /** Set by our team (docs/players.md): `off`, the default, or `br-spa`, Brazil's SPA/MF rules. */
    profile: ComplianceProfileSchema,
    /** IANA time zone of the limit periods (calendar day, week Monday to Sunday, calendar month). */
    timeZone: Type.String(),
    /** Hours before a higher limit, or a removed one, takes effect. */
    coolingOffHours: Type.Integer({ minimum: 0 }),
    /** Minutes between reality checks on the play page. */
    realityCheckMinutes: Type.Integer({ minimum: 1 }),
    /** What the profile adds to your calls, rule by rule (PROFILE_RULES); empty under `off`. */
    rules: Type.Array(Type.Object({ id: Type.String(), summary: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type MeCompliance = Static<typeof MeComplianceSchema>;

export const MeSchema = Type.Object(
  {
    operator: Type.Object({ id: Type.String(), name: Type.String(), environment: EnvironmentSchema }, { additionalProperties: false }),
    brand: Type.Object({ id: Type.String(), name: Type.String(), currency: Type.String(), isSandbox: Type.Boolean() }, { additionalProperties: false }),
    apiVersion: Type.String(),
    compliance: MeComplianceSchema,
  },
  { additionalProperties: false, $id: 'Me' },
);
export type Me = Static<typeof MeSchema>;

/** Served by the gateway itself (no subject). */
export const meOperations = defineOperations({
  getMe: { id: 'getMe', method: 'GET', path: '/me', summary: 'Identity of the calling credential', tag: 'Identity', response: MeSchema, status: 200 },
});
