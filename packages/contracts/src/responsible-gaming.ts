// Responsible gaming as the player chooses it through the operator (issue #26, docs/responsible-gaming.md):
// limits by type and period, pauses, self-exclusion. The players service owns them and answers
// them inside `players.state`; payments and the wallet enforce them in the transaction that moves
// the money, over the usage they count themselves (deposits; stakes, wins and time played).
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from './errors.ts';
import { Money, MoneyBoundInput, Nullable, Timestamp } from './common.ts';
import { ComplianceProfileSchema } from './compliance-profile.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';
import { TermsDueSchema, termsPending } from './terms.ts';

export const LIMIT_TYPES = ['deposit', 'loss', 'wager', 'time'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];
export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
export const LimitTypeSchema = Type.Union(LIMIT_TYPES.map((v) => Type.Literal(v)));
export const LimitPeriodSchema = Type.Union(LIMIT_PERIODS.map((v) => Type.Literal(v)));

/** The reasons of a 403 RG_BLOCKED (`details.reason`). */
export const RG_BLOCK_REASONS = [
  'self_excluded',
  'paused',
  'limits_required',
  'registration_incomplete',
  'deposit_limit',
  'loss_limit',
  'wager_limit',
  'time_limit',
] as const;
export type RgBlockReason = (typeof RG_BLOCK_REASONS)[number];

/** Pause lengths the API accepts (hours ahead of now). */
export const PAUSE_MIN_HOURS = 24;
export const PAUSE_MAX_HOURS = 6 * 7 * 24;
/** An indefinite self-exclusion may be lifted by compliance only after this many days. */
export const INDEFINITE_SELF_EXCLUSION_MIN_DAYS = 30;
/** A game page idle longer than this stops counting time played. */
export const PLAY_IDLE_SECONDS = 300;

/** A money limit is a money string; a `time` limit whole minutes. */
const LimitValue = Type.Union([Money, Type.Integer({ minimum: 0 })], { description: 'Money string for deposit, loss and wager; whole minutes for time' });

export const RgLimitSchema = Type.Object(
  {
    type: LimitTypeSchema,
    period: LimitPeriodSchema,
    value: LimitValue,
    /** What the current period has used (money string, or whole minutes). */
    used: LimitValue,
    /** When the current period ends, in the operator's time zone. */
    resetsAt: Timestamp,
    /** A higher value or a removal (value null) waiting for the cooling-off. */
    pending: Nullable(Type.Object({ value: Nullable(LimitValue), effectiveAt: Timestamp })),
  },
  { additionalProperties: false },
);
export type RgLimit = Static<typeof RgLimitSchema>;

export const ResponsibleGamingSchema = Type.Object(
  {
    playerId: Type.String(),
    limits: Type.Array(RgLimitSchema),
    pause: Nullable(Type.Object({ until: Timestamp })),
    selfExclusion: Nullable(Type.Object({ since: Timestamp, until: Nullable(Timestamp) })),
    realityCheckMinutes: Type.Integer(),
    /**
     * br-spa: the link to the SPA's central self-exclusion platform, to show wherever the operator
     * shows its own self-exclusion (IN SPA/MF 31/2025); null under the profile `off` (issue #46 item 4).
     */
    centralSelfExclusionUrl: Nullable(Type.String()),
  },
  { additionalProperties: false, $id: 'ResponsibleGaming' },
);
export type ResponsibleGaming = Static<typeof ResponsibleGamingSchema>;

/** `{ "value": "500.00" }` for a money limit, `{ "value": 120 }` (minutes) for `time`. */
export const SetLimitSchema = Type.Object(
  { value: Type.Union([MoneyBoundInput, Type.Integer({ minimum: 1, maximum: 44_640 })]) },
  { additionalProperties: false, $id: 'SetLimit' },
);
export const NewLimitSchema = Type.Object(
  { type: LimitTypeSchema, period: LimitPeriodSchema, value: Type.Union([MoneyBoundInput, Type.Integer({ minimum: 1, maximum: 44_640 })]) },
  { additionalProperties: false },
);
export type NewLimit = Static<typeof NewLimitSchema>;
export const PauseSchema = Type.Object({ until: Type.String({ format: 'date-time' }) }, { additionalProperties: false, $id: 'Pause' });
export const SelfExclusionSchema = Type.Union(
  [
    Type.Object({ months: Type.Integer({ minimum: 1, maximum: 12, description: 'a whole number of months, from 1 to 12' }) }, { additionalProperties: false }),
    Type.Object({ indefinite: Type.Literal(true) }, { additionalProperties: false }),
  ],
  { description: 'a fixed term `{ "months": 1..12 }` or, without end, `{ "indefinite": true }` (one of the two)' },
);

/** What a self-exclusion request did: began one, extended the running one, or found it already as long (nothing changed, no event). */
export const SELF_EXCLUSION_CHANGES = ['started', 'extended', 'unchanged'] as const;
export type SelfExclusionChange = (typeof SELF_EXCLUSION_CHANGES)[number];
/** A repeat within this much of the running term's end is the same request: the running one is answered. */
export const SELF_EXCLUSION_REPEAT_HOURS = 24;
export const SelfExclusionAnswerSchema = Type.Object(
  {
    ...ResponsibleGamingSchema.properties,
    selfExclusionChange: Type.Union(
      SELF_EXCLUSION_CHANGES.map((c) => Type.Literal(c)),
      { description: '`started`, `extended` (a longer term, or without end), or `unchanged`: the running one already covers it' },
    ),
  },
  { additionalProperties: false, $id: 'SelfExclusionAnswer' },
);

const LimitParams = Type.Object({
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
  type: LimitTypeSchema,
  period: LimitPeriodSchema,
});
const PlayerParams = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) });

export const responsibleGamingOperations = defineOperations({
  getResponsibleGaming: {
    id: 'getResponsibleGaming',
    method: 'GET',
    path: '/players/:playerId/responsible-gaming',
    subject: 'players.rg.get',
    tag: 'Responsible gaming',
    summary: "The player's limits with their usage in the current period, pause and self-exclusion",
    params: PlayerParams,
    response: ResponsibleGamingSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  setLimit: {
    id: 'setLimit',
    method: 'PUT',
    path: '/players/:playerId/limits/:type/:period',
    subject: 'players.rg.setLimit',
    tag: 'Responsible gaming',
    summary: 'Set a limit the player chose: a new or lower one applies at once, a higher one after the cooling-off',
    params: LimitParams,
    body: SetLimitSchema,
    response: ResponsibleGamingSchema,
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND'],
  },
  removeLimit: {
    id: 'removeLimit',
    method: 'DELETE',
    path: '/players/:playerId/limits/:type/:period',
    subject: 'players.rg.removeLimit',
    tag: 'Responsible gaming',
    summary: 'Remove a limit after the cooling-off (br-spa: the last loss or time limit cannot be removed)',
    params: LimitParams,
    response: ResponsibleGamingSchema,
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND', 'LIMIT_REQUIRED'],
  },
  pausePlayer: {
    id: 'pausePlayer',
    method: 'POST',
    path: '/players/:playerId/pause',
    subject: 'players.rg.pause',
    tag: 'Responsible gaming',
    summary: 'Pause the player from 24 hours to 6 weeks: no deposits, game sessions or rounds; it cannot be shortened',
    params: PlayerParams,
    body: PauseSchema,
    response: ResponsibleGamingSchema,
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND', 'PAUSE_ACTIVE'],
  },
  selfExclude: {
    id: 'selfExclude',
    method: 'POST',
    path: '/players/:playerId/self-exclusion',
    subject: 'players.rg.selfExclude',
    tag: 'Responsible gaming',
    summary: 'Self-exclude the player for 1 to 12 months or without end: status autoexcluido at once, open game sessions end',
    params: PlayerParams,
    body: SelfExclusionSchema,
    response: SelfExclusionAnswerSchema,
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND', 'SELF_EXCLUSION_ACTIVE'],
  },
});

// ---- admin (our team): read everything, lift an indefinite self-exclusion; never raise a limit ----

export const RgHistoryItemSchema = Type.Object(
  {
    /** `limit`, `pause`, `self_exclusion`, `self_exclusion_ended`, `self_exclusion_lifted`, `reality_check` (our team's, more often). */
    kind: Type.String(),
    type: Nullable(LimitTypeSchema),
    period: Nullable(LimitPeriodSchema),
    oldValue: Nullable(Type.String()),
    newValue: Nullable(Type.String()),
    /** When the new value takes effect (later than `at` for a relaxing change). */
    effectiveAt: Nullable(Timestamp),
    /** `operator` (the player through the operator's API), `team` (our team), `system` (a term ending). */
    by: Type.String(),
    actor: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    at: Timestamp,
  },
  { additionalProperties: false },
);
export const AdminResponsibleGamingSchema = Type.Object(
  {
    profile: ComplianceProfileSchema,
    /** When compliance may lift the player's indefinite self-exclusion (INDEFINITE_SELF_EXCLUSION_MIN_DAYS after it began); null: none to lift. */
    selfExclusionLiftableAt: Nullable(Timestamp),
    responsibleGaming: ResponsibleGamingSchema,
    history: Type.Array(RgHistoryItemSchema),
  },
  { $id: 'AdminResponsibleGaming' },
);
const AdminPlayerParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const responsibleGamingAdminOperations = defineOperations({
  adminGetResponsibleGaming: {
    id: 'adminGetResponsibleGaming',
    method: 'GET',
    path: '/admin/players/:id/responsible-gaming',
    subject: 'players.admin.rg',
    tag: 'Admin',
    summary: "A player's limits, pending changes, usage and full history of changes",
    params: AdminPlayerParams,
    response: AdminResponsibleGamingSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  adminSetStricterLimit: {
    id: 'adminSetStricterLimit',
    method: 'PUT',
    path: '/admin/players/:id/limits/:type/:period',
    subject: 'players.admin.stricterLimit',
    tag: 'Admin',
    summary:
      'Our team sets a stricter limit of any type and period (a measure after an interaction with the player, issue #68): a new limit, or one lower than the limit in force, at once, with a reason, audited; never a higher one (422 VALIDATION_ERROR): only the player loosens their limits',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), type: LimitTypeSchema, period: LimitPeriodSchema }),
    body: Type.Object(
      {
        value: Type.Union([MoneyBoundInput, Type.Integer({ minimum: 1, maximum: 44_640 })]),
        reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' }),
      },
      { additionalProperties: false },
    ),
    response: AdminResponsibleGamingSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'VALIDATION_ERROR'],
  },
  adminPausePlayer: {
    id: 'adminPausePlayer',
    method: 'POST',
    path: '/admin/players/:id/pause',
    subject: 'players.admin.pause',
    tag: 'Admin',
    summary:
      'Our team pauses a player (a measure after an interaction with them, issue #68): from 24 hours to 6 weeks ahead, with a reason, audited; a running pause is never shortened (409 PAUSE_ACTIVE)',
    params: AdminPlayerParams,
    body: Type.Object({ until: Type.String({ format: 'date-time' }), reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' }) }),
    response: AdminResponsibleGamingSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'PAUSE_ACTIVE', 'VALIDATION_ERROR'],
  },
  adminSetRealityCheck: {
    id: 'adminSetRealityCheck',
    method: 'PUT',
    path: '/admin/players/:id/reality-check',
    subject: 'players.admin.realityCheck',
    tag: 'Admin',
    summary:
      "Our team shows a player the reality check more often (a measure after an interaction with them, issue #68): every `minutes`, fewer than the interval in force (the operator's, or our team's earlier one), at once, with a reason, audited; never less often (422 VALIDATION_ERROR)",
    params: AdminPlayerParams,
    body: Type.Object(
      { minutes: Type.Integer({ minimum: 1, maximum: 1440 }), reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' }) },
      { additionalProperties: false },
    ),
    response: AdminResponsibleGamingSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'VALIDATION_ERROR'],
  },
  adminLiftSelfExclusion: {
    id: 'adminLiftSelfExclusion',
    method: 'POST',
    path: '/admin/players/:id/self-exclusion/lift',
    subject: 'players.admin.liftSelfExclusion',
    tag: 'Admin',
    summary: 'Compliance lifts an indefinite self-exclusion, with a reason, at least 30 days after it began',
    params: AdminPlayerParams,
    body: Type.Object({ reason: Type.String({ minLength: 3, maxLength: 500 }) }),
    response: AdminResponsibleGamingSchema,
    status: 200,
  },
});

// ---- internal: what the enforcing services read in players.state, and the usage they report ----

/** A limit as the enforcing services apply it: the value in force, and a relaxing change waiting. */
export const RgRuleLimitSchema = Type.Object({
  type: LimitTypeSchema,
  period: LimitPeriodSchema,
  /** Money string or minutes as a string. */
  value: Type.String(),
  pending: Nullable(Type.Object({ value: Nullable(Type.String()), effectiveAt: Timestamp })),
});
export type RgRuleLimit = Static<typeof RgRuleLimitSchema>;

export const RgRulesSchema = Type.Object({
  profile: ComplianceProfileSchema,
  timeZone: Type.String(),
  realityCheckMinutes: Type.Integer(),
  pausedUntil: Nullable(Timestamp),
  limits: Type.Array(RgRuleLimitSchema),
  /** br-spa: the terms version the player has still to accept, and from when (absent or null: nothing to accept). */
  terms: Type.Optional(Nullable(TermsDueSchema)),
  /** br-spa: the registration fields the player still lacks (absent or empty: none; the required limits are checked from `limits`). */
  registrationMissing: Type.Optional(Type.Array(Type.String())),
});
export type RgRules = Static<typeof RgRulesSchema>;

/** `<service>.rg.usage`: what the current periods have used, by type and period, in the operator's time zone. */
export const RgUsageRequestSchema = Type.Object({ brandId: Type.String(), playerId: Type.String(), timeZone: Type.String(), at: Timestamp });
export type RgUsageRequest = Static<typeof RgUsageRequestSchema>;
export const RgUsageSchema = Type.Object({
  usage: Type.Array(Type.Object({ type: LimitTypeSchema, period: LimitPeriodSchema, used: Type.String() })),
});
export type RgUsage = Static<typeof RgUsageSchema>;
export const PAYMENTS_RG_USAGE_SUBJECT = 'payments.rg.usage';
export const WALLET_RG_USAGE_SUBJECT = 'wallet.rg.usage';
export const rgUsageMessages = defineMessages({
  payments: { subject: PAYMENTS_RG_USAGE_SUBJECT, body: RgUsageRequestSchema, reply: RgUsageSchema },
  wallet: { subject: WALLET_RG_USAGE_SUBJECT, body: RgUsageRequestSchema, reply: RgUsageSchema },
});

/**
 * `wallet.rg.demoNextDay` (internal, players → wallet, for `POST /sandbox/players/{id}/next-day`): a
 * sandbox player's demo usage and last demo activity, a day older, and their play on the sandbox
 * ledger's usage too (the built-in sandbox provider's bets, issue #61). The ledger's entries never
 * move, and neither does a production brand's usage.
 */
export const WALLET_RG_DEMO_NEXT_DAY_SUBJECT = 'wallet.rg.demoNextDay';
export const rgDemoMessages = defineMessages({
  nextDay: {
    subject: WALLET_RG_DEMO_NEXT_DAY_SUBJECT,
    body: Type.Object({ brandId: Type.String(), playerId: Type.String() }),
    reply: Type.Object({ hours: Type.Integer() }),
  },
});

/** The value in force at `now`: a pending change whose time has come replaces the stored one (null = removed). */
export function limitInForce(limit: RgRuleLimit, now: Date): string | null {
  if (limit.pending && Date.parse(limit.pending.effectiveAt) <= now.getTime()) return limit.pending.value;
  return limit.value;
}

/** The limits of one type in force at `now`. */
export function limitsInForce(rules: RgRules | undefined, type: LimitType, now: Date): { period: LimitPeriod; value: string }[] {
  if (!rules) return [];
  const out: { period: LimitPeriod; value: string }[] = [];
  for (const l of rules.limits) {
    if (l.type !== type) continue;
    const value = limitInForce(l, now);
    if (value !== null) out.push({ period: l.period, value });
  }
  return out;
}

/** Whether the player is paused at `now`. */
export function isPaused(rules: RgRules | undefined, now: Date): boolean {
  return rules?.pausedUntil != null && Date.parse(rules.pausedUntil) > now.getTime();
}

/** Under br-spa a player without a loss limit and a time limit in force may not deposit or play. */
export function missesRequiredLimits(rules: RgRules | undefined, now: Date): boolean {
  if (rules?.profile !== 'br-spa') return false;
  return limitsInForce(rules, 'loss', now).length === 0 || limitsInForce(rules, 'time', now).length === 0;
}

/** `games.sessions.endForPlayer`: the wallet ends a player's open game sessions (a self-exclusion, an impediment hit); their provider sessions stay, each bet refused by the player's check with its reason. */
export const END_PLAYER_SESSIONS_SUBJECT = 'games.sessions.endForPlayer';
export const endPlayerSessionsMessages = defineMessages({
  end: {
    subject: END_PLAYER_SESSIONS_SUBJECT,
    body: Type.Object({ brandId: Type.String(), playerId: Type.String() }),
    reply: Type.Object({ ended: Type.Integer() }),
  },
});

/** 403 RG_BLOCKED with its reason (and, for a limit, its period, value and when the period resets). */
export function rgBlocked(reason: RgBlockReason, message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('RG_BLOCKED', message, { reason, ...details });
}

/**
 * The refusals every money path shares, before any limit: a pause, under br-spa a player without a
 * loss and a time limit, a player whose registration data is incomplete, then under br-spa a terms version in force the player has not accepted
 * (403 TERMS_NOT_ACCEPTED). Self-exclusion each path checks with the player's status. Deposits and
 * game sessions (and the rounds of a session, which share the session's check) meet them alike.
 */
export function assertNotPausedOrIncomplete(rules: RgRules | undefined, now: Date): void {
  if (isPaused(rules, now)) throw rgBlocked('paused', 'The player has paused play until a later time.', { until: rules!.pausedUntil });
  if (missesRequiredLimits(rules, now)) throw rgBlocked('limits_required', 'The player must set a loss limit and a time limit first.');
  // Portaria 1.231/2024 art. 34 sole paragraph: restricted until the registration data is completed.
  if (rules?.profile === 'br-spa' && rules.registrationMissing?.length) {
    throw rgBlocked('registration_incomplete', 'The player must complete their registration data first (details.missing).', {
      missing: rules.registrationMissing,
    });
  }
  if (rules?.profile === 'br-spa' && termsPending(rules.terms, now)) {
    throw new AppError('TERMS_NOT_ACCEPTED', undefined, { version: rules.terms!.version, dueAt: rules.terms!.dueAt });
  }
}
