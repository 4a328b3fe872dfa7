// Players at risk of gambling harm (issue #68): the behaviour markers the compliance service computes
// from a player's money and play, the level they add up to, and the thresholds our team sets per
// operator. Separate from the AML risk (aml.ts, `PlayerRisk`): that one is about money laundering,
// this one about the player being harmed. docs/player-protection.md gives each marker and default.
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Money, MoneyBoundInput, Nullable, Page, Timestamp, pageQuery } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';
import { PlayerIdParams } from './players.ts';
import { LimitPeriodSchema, LimitTypeSchema } from './responsible-gaming.ts';

export const HARM_MARKERS = [
  'deposit_escalation',
  'deposit_frequency',
  'loss_escalation',
  'chasing',
  'night_play',
  'long_days',
  'cancelled_withdrawals',
  'limits_loosened',
  'limits_reached',
  'stake_escalation',
  'stake_variability',
  'failed_deposits',
  'payment_methods',
  'reality_checks_dismissed',
  'new_player_intensity',
] as const;
export type HarmMarker = (typeof HARM_MARKERS)[number];

/** `none`: no marker; then by the markers' added weights (HarmThresholds.levelAt). */
export const HARM_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type HarmLevel = (typeof HARM_LEVELS)[number];
export const HarmLevelSchema = Type.Union(HARM_LEVELS.map((l) => Type.Literal(l)));
export const HarmMarkerSchema = Type.Union(HARM_MARKERS.map((m) => Type.Literal(m)));

const Count = (max: number) => Type.Integer({ minimum: 1, maximum: max });
const Factor = Type.Number({ minimum: 1, maximum: 100 });

export const HarmThresholdsSchema = Type.Object(
  {
    /** The recent window the markers look at, in days (ending on the day assessed). */
    recentDays: Type.Integer({ minimum: 1, maximum: 31 }),
    /** The player's own baseline: this many days before the recent window. */
    baselineDays: Type.Integer({ minimum: 7, maximum: 365 }),
    /** Account markers (cancelled withdrawals, limits loosened) look this many days back. */
    accountDays: Type.Integer({ minimum: 1, maximum: 365 }),
    /** deposit_escalation: the recent deposits at least this many times the baseline's, scaled to the window ... */
    depositFactor: Factor,
    /** ... the baseline never under this amount per recent window (a new player's, or a small one's). */
    depositFloor: Money,
    /** deposit_frequency: the recent count of deposits this many times the baseline's ... */
    depositCountFactor: Factor,
    /** ... the baseline never under this many deposits per recent window. */
    depositCountFloor: Count(1000),
    /** loss_escalation: the recent net loss (stakes less wins) this many times the baseline's ... */
    lossFactor: Factor,
    /** ... the baseline never under this loss per recent window. */
    lossFloor: Money,
    /** chasing: this many deposits or more, each made within chasingMinutes of play that ended in a loss. */
    chasingDeposits: Count(1000),
    chasingMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
    /** night_play: at least this percent of the recent window's play between 00:00 and 06:00 (the operator's time) ... */
    nightPercent: Type.Integer({ minimum: 1, maximum: 100 }),
    /** ... and at least this many minutes of it. */
    nightMinutes: Count(10_000),
    /** long_days: this many days of the recent window or more with at least longDayMinutes of play. */
    longDays: Count(31),
    longDayMinutes: Count(1440),
    /** cancelled_withdrawals: this many withdrawals or more cancelled by the player in accountDays. */
    cancelledWithdrawals: Count(1000),
    /** limits_loosened: this many limits raised or removed in accountDays. */
    limitsLoosened: Count(1000),
    /** limits_reached: this many refusals by a limit in the recent window. */
    limitsReached: Count(1000),
    /** stake_escalation: the recent mean stake this many times the baseline's (both of at least minBets bets). */
    stakeFactor: Factor,
    /** stake_variability: the recent stakes' coefficient of variation (sd / mean) at least this ... */
    stakeVariation: Type.Number({ minimum: 0.1, maximum: 100 }),
    /** The bets a stake marker needs in a window before it says anything. */
    minBets: Count(100_000),
    /** failed_deposits: this many declined or failed deposits in the recent window. */
    failedDeposits: Count(1000),
    /** payment_methods: deposits (credited or declined) through this many payment methods or more in the recent window. */
    paymentMethods: Count(100),
    /** reality_checks_dismissed: this many reality checks acknowledged to play on in the recent window. */
    realityChecksDismissed: Count(10_000),
    /**
     * new_player_intensity, for a player with less than half a baseline of history and a recent window at
     * least: play on this percent of their days or more (with deposits of depositFloor × depositFactor a
     * recent window on average) ...
     */
    newPlayerPlayPercent: Type.Integer({ minimum: 1, maximum: 100 }),
    /** ... and the later half's mean stake this many times the earlier half's (each half of minBets / 2 bets at least). */
    newPlayerStakeRise: Factor,
    /** The markers' added weights at which each level starts (a strong marker weighs 2, others 1). */
    levelAt: Type.Object({ low: Count(100), medium: Count(100), high: Count(100) }),
  },
  { $id: 'HarmThresholds' },
);
export type HarmThresholds = Static<typeof HarmThresholdsSchema>;

/** One marker that fired: its value against its threshold, the player's own baseline where it has one, and the days it read. */
export const HarmMarkerHitSchema = Type.Object(
  {
    marker: HarmMarkerSchema,
    weight: Type.Integer({ minimum: 1 }),
    /** What was measured (an amount, a count, a percent, a ratio), as a decimal string. */
    value: Type.String(),
    /** What it was held to: the threshold, or the baseline times the factor. */
    threshold: Type.String(),
    /** The player's own baseline over the same length of time, for a marker that compares with it. */
    baseline: Type.Optional(Type.String()),
    from: Type.String({ format: 'calendar-date' }),
    to: Type.String({ format: 'calendar-date' }),
    summary: Type.String(),
  },
  { $id: 'HarmMarkerHit' },
);
export type HarmMarkerHit = Static<typeof HarmMarkerHitSchema>;

/**
 * A player's harm level as it stands, with the markers behind it (never a bare score): what the
 * operator's front-end acts on (docs/player-protection.md says what each level asks of it).
 */
export const PlayerHarmLevelSchema = Type.Object(
  {
    playerId: Type.String(),
    level: HarmLevelSchema,
    /** The fired markers' added weights: the level's measure, read with the markers, never alone. */
    score: Type.Integer({ minimum: 0 }),
    markers: Type.Array(HarmMarkerHitSchema),
    /** The day (the operator's time zone) the level was last assessed; null: never assessed above none. */
    assessedOn: Nullable(Type.String({ format: 'calendar-date' })),
    updatedAt: Nullable(Timestamp),
  },
  { $id: 'PlayerHarmLevel' },
);
export type PlayerHarmLevel = Static<typeof PlayerHarmLevelSchema>;

/** `player.risk_level_changed`: a player's harm level moved, with the markers that came and went. */
export const HarmLevelChangedSchema = Type.Object({
  playerId: Type.String(),
  previousLevel: HarmLevelSchema,
  level: HarmLevelSchema,
  score: Type.Integer({ minimum: 0 }),
  markers: Type.Array(HarmMarkerHitSchema),
  added: Type.Array(HarmMarkerSchema),
  removed: Type.Array(HarmMarkerSchema),
  assessedOn: Type.String({ format: 'calendar-date' }),
});

/**
 * `player.self_exclusion_recommended`: our team, following the player's harm case, recommends that the
 * player self-exclude. The operator tells the player (its own self-exclusion and the SPA's central
 * platform), and may tell our team its message's id; nothing about the player changes by itself.
 */
export const SelfExclusionRecommendedSchema = Type.Object({
  playerId: Type.String(),
  /** The player's level and markers when our team decided. */
  level: HarmLevelSchema,
  score: Type.Integer({ minimum: 0 }),
  markers: Type.Array(HarmMarkerHitSchema),
  assessedOn: Type.String({ format: 'calendar-date' }),
  recommendedAt: Timestamp,
});

/** An operator's harm thresholds as the markers use them: our team's defaults until our team sets its own, with a reason. */
export const OperatorHarmThresholdsSchema = Type.Object(
  {
    operatorId: Type.String(),
    thresholds: HarmThresholdsSchema,
    /** false: the defaults (docs/player-protection.md gives each with its source). */
    custom: Type.Boolean(),
    reason: Nullable(Type.String()),
    updatedAt: Nullable(Timestamp),
    updatedBy: Nullable(Type.String()),
  },
  { $id: 'OperatorHarmThresholds' },
);
export type OperatorHarmThresholds = Static<typeof OperatorHarmThresholdsSchema>;

export const SetHarmThresholdsSchema = Type.Object({
  /** The whole set (read it first: GET, change what you mean to). */
  thresholds: HarmThresholdsSchema,
  /** Why (kept with the thresholds and in the audit log). */
  reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' }),
});

const OperatorParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Our team's side (issue #68 item 2): an operator's thresholds, read and set with a reason (audited). */
export const harmAdminOperations = defineOperations({
  adminGetHarmThresholds: {
    id: 'adminGetHarmThresholds',
    method: 'GET',
    path: '/admin/operators/:id/harm-thresholds',
    subject: 'compliance.admin.harm.thresholds.get',
    tag: 'Admin',
    summary: "An operator's thresholds of the harm markers (the defaults until our team sets them)",
    params: OperatorParams,
    response: OperatorHarmThresholdsSchema,
    status: 200,
  },
  adminSetHarmThresholds: {
    id: 'adminSetHarmThresholds',
    method: 'PUT',
    path: '/admin/operators/:id/harm-thresholds',
    subject: 'compliance.admin.harm.thresholds.set',
    tag: 'Admin',
    summary:
      "Set an operator's thresholds of the harm markers, with a reason (a person's decision, audited): the next assessment of each of its players uses them; a level's weights must rise from low to high (422 VALIDATION_ERROR)",
    params: OperatorParams,
    body: SetHarmThresholdsSchema,
    response: OperatorHarmThresholdsSchema,
    status: 200,
    errors: ['VALIDATION_ERROR'],
  },
});

/** A harm case's life: open while our team follows the player, closed with the outcome it saw. */
export const HARM_CASE_STATUSES = ['open', 'closed'] as const;
export type HarmCaseStatus = (typeof HARM_CASE_STATUSES)[number];
/**
 * How an interaction reached the player; `note`: our team's own record (a review, a decision to wait), no
 * contact; `measure`: a measure taken from the case (`adminTakeHarmMeasure`), recorded by the case itself.
 */
export const HARM_INTERACTION_CHANNELS = ['operator_message', 'phone', 'email', 'chat', 'note', 'measure'] as const;
export type HarmInteractionChannel = (typeof HARM_INTERACTION_CHANNELS)[number];
/** What our team saw after its interactions, named when it closes the case. */
export const HARM_CASE_OUTCOMES = ['play_reduced', 'play_unchanged', 'self_excluded', 'not_at_risk', 'unreachable'] as const;
export type HarmCaseOutcome = (typeof HARM_CASE_OUTCOMES)[number];

const CalendarDate = Type.String({ format: 'calendar-date' });

/** One interaction with the player (or about them), as a person of our team recorded it. */
export const HarmInteractionSchema = Type.Object(
  {
    id: Type.String(),
    channel: Type.Union(HARM_INTERACTION_CHANNELS.map((c) => Type.Literal(c))),
    /** What was said or done. */
    summary: Type.String(),
    /** The operator's id of its message to the player (channel `operator_message`). */
    operatorMessageId: Nullable(Type.String()),
    /** When to look at the player again (the case's follow-up date from then on). */
    followUpOn: Nullable(CalendarDate),
    /** The measure this interaction records (channel `measure`): one of the case's `measures`. */
    measureId: Nullable(Type.String()),
    by: Type.String(),
    at: Timestamp,
  },
  { $id: 'HarmInteraction' },
);
export type HarmInteraction = Static<typeof HarmInteractionSchema>;

/**
 * The measures our team may take from a harm case (issue #68 item 3), each a person's decision: a pause,
 * a stricter limit, a reality check more often (applied by the players service, as on the player's page),
 * and a recommendation to self-exclude, sent to the operator as `player.self_exclusion_recommended`. None
 * lifts a self-exclusion or an impediment, loosens a limit or shortens a pause.
 */
export const HARM_MEASURES = ['pause', 'stricter_limit', 'reality_check', 'recommend_self_exclusion'] as const;
export type HarmMeasureKind = (typeof HARM_MEASURES)[number];
/** `pending`: asked of the players service, not answered yet (a reconciler finishes it); `refused`: the rules said no. */
export const HARM_MEASURE_STATUSES = ['pending', 'applied', 'refused'] as const;
export type HarmMeasureStatus = (typeof HARM_MEASURE_STATUSES)[number];

/** What a measure sets: `until` (pause), `type`, `period` and `value` (stricter limit), `minutes` (reality check); none to recommend. */
export const HarmMeasureDetailSchema = Type.Object({
  until: Type.Optional(Timestamp),
  type: Type.Optional(LimitTypeSchema),
  period: Type.Optional(LimitPeriodSchema),
  /** Money as "200.00"; a time limit in minutes. */
  value: Type.Optional(Type.String()),
  minutes: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type HarmMeasureDetail = Static<typeof HarmMeasureDetailSchema>;

/** A measure taken from a harm case, with what the rules answered. */
export const HarmMeasureSchema = Type.Object(
  {
    id: Type.String(),
    measure: Type.Union(HARM_MEASURES.map((m) => Type.Literal(m))),
    detail: HarmMeasureDetailSchema,
    reason: Type.String(),
    status: Type.Union(HARM_MEASURE_STATUSES.map((m) => Type.Literal(m))),
    /** Why it was refused (the players service's error), null otherwise. */
    refusal: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    by: Type.String(),
    requestedAt: Timestamp,
    settledAt: Nullable(Timestamp),
  },
  { $id: 'HarmMeasure' },
);
export type HarmMeasure = Static<typeof HarmMeasureSchema>;

/**
 * A player our team follows because their harm level reached `high` (opened by the assessment that moved
 * it there). While open, it follows the player's level, score, markers and recent deposits at each assessment.
 */
export const HarmCaseSummarySchema = Type.Object(
  {
    id: Type.String(),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    playerId: Type.String(),
    /** As screened at the player's KYC; null before it. */
    playerName: Nullable(Type.String()),
    status: Type.Union(HARM_CASE_STATUSES.map((c) => Type.Literal(c))),
    /** The player's level, score and markers at the latest assessment while the case was open. */
    level: HarmLevelSchema,
    score: Type.Integer({ minimum: 0 }),
    markers: Type.Array(HarmMarkerHitSchema),
    /** The player's deposits over the thresholds' recent window, at the same assessment. */
    recentDeposits: Money,
    /** The day of that assessment (the operator's time zone). */
    assessedOn: CalendarDate,
    interactions: Type.Integer({ minimum: 0 }),
    /** The latest interaction's follow-up date; null: none asked. */
    followUpOn: Nullable(CalendarDate),
    openedAt: Timestamp,
    updatedAt: Timestamp,
    outcome: Nullable(Type.Union(HARM_CASE_OUTCOMES.map((c) => Type.Literal(c)))),
    closedAt: Nullable(Timestamp),
    closedBy: Nullable(Type.String()),
    closeReason: Nullable(Type.String()),
  },
  { $id: 'HarmCaseSummary' },
);
export type HarmCaseSummary = Static<typeof HarmCaseSummarySchema>;

/** A harm case with its interactions and the player's changes of level since it opened, oldest first. */
export const HarmCaseSchema = Type.Intersect(
  [
    HarmCaseSummarySchema,
    Type.Object({
      interactionLog: Type.Array(HarmInteractionSchema),
      /** The measures taken from the case, oldest first. */
      measures: Type.Array(HarmMeasureSchema),
      levelChanges: Type.Array(
        Type.Object({
          from: HarmLevelSchema,
          to: HarmLevelSchema,
          added: Type.Array(HarmMarkerSchema),
          removed: Type.Array(HarmMarkerSchema),
          at: Timestamp,
        }),
      ),
    }),
  ],
  { $id: 'HarmCase' },
);
export type HarmCase = Static<typeof HarmCaseSchema>;

const Reason = Type.String({ minLength: 3, maxLength: 2000, pattern: '\\S' });

export const RecordHarmInteractionSchema = Type.Object({
  channel: Type.Union(HARM_INTERACTION_CHANNELS.map((c) => Type.Literal(c))),
  /** What was said or done, as a person would read it later. */
  summary: Reason,
  /** Required with `operator_message`: the operator's id of its message, to find it in the operator's own records. */
  operatorMessageId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** When to look at the player again. */
  followUpOn: Type.Optional(CalendarDate),
});

export const CloseHarmCaseSchema = Type.Object({
  outcome: Type.Union(HARM_CASE_OUTCOMES.map((c) => Type.Literal(c))),
  /** What was seen (did the player's play change?), kept with the case and in the audit log. */
  reason: Reason,
});

/**
 * A measure from the case: `measure` says which, and its fields are the player's admin operation's
 * (`until` for a pause; `type`, `period` and `value` for a stricter limit; `minutes` for a reality check;
 * none but the reason to recommend self-exclusion). Recorded in the case as an interaction (channel
 * `measure`) once applied.
 */
export const TakeHarmMeasureSchema = Type.Object(
  {
    measure: Type.Union(HARM_MEASURES.map((m) => Type.Literal(m))),
    until: Type.Optional(Type.String({ format: 'date-time' })),
    type: Type.Optional(LimitTypeSchema),
    period: Type.Optional(LimitPeriodSchema),
    value: Type.Optional(Type.Union([MoneyBoundInput, Type.Integer({ minimum: 1, maximum: 44_640 })])),
    minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
    /** Why (kept with the measure, in the player's history and in the audit log). */
    reason: Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' }),
    /** When to look at the player again (the case's follow-up date once applied). */
    followUpOn: Type.Optional(CalendarDate),
  },
  { additionalProperties: false },
);
export type TakeHarmMeasure = Static<typeof TakeHarmMeasureSchema>;

const HarmCaseParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Our team's harm cases (issue #68 item 3): the queue, a case, its interactions and its closing. */
export const harmCaseAdminOperations = defineOperations({
  adminListHarmCases: {
    id: 'adminListHarmCases',
    method: 'GET',
    path: '/admin/harm/cases',
    subject: 'compliance.admin.harm.cases.list',
    tag: 'Admin',
    summary:
      'Harm cases, the riskiest first (level, then score, then recent deposits, then the one waiting longest), filtered by status, environment, operator, player and follow-up due',
    query: Type.Object({
      status: Type.Optional(Type.Union(HARM_CASE_STATUSES.map((c) => Type.Literal(c)))),
      environment: Type.Optional(EnvironmentSchema),
      operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      playerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** `due`: open cases whose follow-up date has come (today in UTC or before). */
      followUp: Type.Optional(Type.Literal('due')),
      ...pageQuery(200),
    }),
    response: Page(HarmCaseSummarySchema),
    status: 200,
  },
  adminGetHarmCase: {
    id: 'adminGetHarmCase',
    method: 'GET',
    path: '/admin/harm/cases/:id',
    subject: 'compliance.admin.harm.cases.get',
    tag: 'Admin',
    summary: "A harm case with its interactions and the changes of the player's level since it opened",
    params: HarmCaseParams,
    response: HarmCaseSchema,
    status: 200,
    errors: ['HARM_CASE_NOT_FOUND'],
  },
  adminRecordHarmInteraction: {
    id: 'adminRecordHarmInteraction',
    method: 'POST',
    path: '/admin/harm/cases/:id/interactions',
    subject: 'compliance.admin.harm.cases.interaction',
    tag: 'Admin',
    summary:
      "Record an interaction with the player (what was said or done, the channel, the operator's message id, a follow-up date): a person's record, audited; an open case only",
    params: HarmCaseParams,
    body: RecordHarmInteractionSchema,
    response: HarmCaseSchema,
    status: 200,
    errors: ['HARM_CASE_NOT_FOUND', 'HARM_CASE_CLOSED', 'VALIDATION_ERROR'],
  },
  adminTakeHarmMeasure: {
    id: 'adminTakeHarmMeasure',
    method: 'POST',
    path: '/admin/harm/cases/:id/measures',
    subject: 'compliance.admin.harm.cases.measure',
    tag: 'Admin',
    summary:
      "Take a measure from the case (a pause, a stricter limit, a reality check more often, a recommendation to self-exclude sent to the operator): a person's decision, applied by the rules of the player's own operations, recorded in the case at once and audited; an open case only",
    params: HarmCaseParams,
    body: TakeHarmMeasureSchema,
    response: HarmCaseSchema,
    status: 200,
    errors: ['HARM_CASE_NOT_FOUND', 'HARM_CASE_CLOSED', 'PAUSE_ACTIVE', 'VALIDATION_ERROR'],
  },
  adminCloseHarmCase: {
    id: 'adminCloseHarmCase',
    method: 'POST',
    path: '/admin/harm/cases/:id/close',
    subject: 'compliance.admin.harm.cases.close',
    tag: 'Admin',
    summary: "Close a harm case with the outcome seen (did the player's play change?) and a reason: a person's decision, audited",
    params: HarmCaseParams,
    body: CloseHarmCaseSchema,
    response: HarmCaseSchema,
    status: 200,
    errors: ['HARM_CASE_NOT_FOUND', 'HARM_CASE_CLOSED'],
  },
});

/** The sandbox's way to make a player show harm markers: the markers to show (none: a quiet player). */
export const SandboxHarmMarkersSchema = Type.Object(
  { markers: Type.Array(HarmMarkerSchema, { uniqueItems: true, maxItems: HARM_MARKERS.length }) },
  { $id: 'SandboxHarmMarkers' },
);
export type SandboxHarmMarkers = Static<typeof SandboxHarmMarkersSchema>;

export const harmOperations = defineOperations({
  getPlayerHarmLevel: {
    id: 'getPlayerHarmLevel',
    method: 'GET',
    path: '/players/:playerId/harm-level',
    subject: 'compliance.harm.level',
    tag: 'Responsible gaming',
    summary:
      "The player's level of risk of gambling harm with the markers behind it (each with its value, threshold, the player's own baseline and its days); `none` with no markers for a player never assessed above it",
    params: PlayerIdParams,
    response: PlayerHarmLevelSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  sandboxSetHarmMarkers: {
    id: 'sandboxSetHarmMarkers',
    method: 'PUT',
    path: '/sandbox/players/:playerId/harm-markers',
    subject: 'compliance.sandbox.harmMarkers',
    tag: 'Sandbox',
    summary:
      'Make a sandbox player show exactly the harm markers named (none: a quiet player): a made-up history under your thresholds, assessed at once; answers the level, and sends `player.risk_level_changed` when it moved',
    params: PlayerIdParams,
    body: SandboxHarmMarkersSchema,
    response: PlayerHarmLevelSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'VALIDATION_ERROR'],
    sandboxOnly: true,
  },
});

/**
 * `wallet.harm.playHours`: what real-money play the wallet counted per player and UTC hour
 * (wallet.rg_usage, written by each round's and provider bet's own statement): stakes, their count
 * and the sum of their squares, what was lost net, the seconds played and the reality checks
 * acknowledged. Asked by the compliance
 * service's harm play pass (issue #68: play into the harm days), from an hour on, in pages ordered by
 * hour, brand and player (`after`: the last row of the page before). A player's accounts in several
 * currencies are added together.
 */
export const HarmPlayHoursRequestSchema = Type.Object({
  fromHour: Timestamp,
  /** Before this hour (exclusive): the play pass reads one hour at a time, so a page sorts that hour's rows only. */
  toHour: Type.Optional(Timestamp),
  after: Type.Optional(Type.Object({ hour: Timestamp, brandId: Type.String({ maxLength: 64 }), playerId: Type.String({ maxLength: 64 }) })),
  limit: Type.Integer({ minimum: 1, maximum: 5000 }),
});
export const HarmPlayHourSchema = Type.Object({
  brandId: Type.String(),
  playerId: Type.String(),
  /** The UTC hour's start. */
  hour: Timestamp,
  bets: Type.Integer({ minimum: 0 }),
  stakeSum: Money,
  stakeSquares: Type.String({ description: 'The sum of each stake squared (a decimal string)' }),
  netLoss: Money,
  secondsPlayed: Type.Integer({ minimum: 0 }),
  /** Reality checks the player acknowledged to play on (the play page's). */
  realityChecks: Type.Integer({ minimum: 0 }),
});
export type HarmPlayHour = Static<typeof HarmPlayHourSchema>;
/**
 * `wallet.harm.lossesBefore`: for each deposit, whether the player's play in the `minutes` before it
 * ended in a loss (their bets, wins and rollbacks in that window add up below zero): the `chasing`
 * marker's deposit after a loss. Asked by the harm feed once per batch of deposits it counts.
 */
export const HarmLossesBeforeRequestSchema = Type.Object({
  deposits: Type.Array(
    Type.Object({
      brandId: Type.String({ maxLength: 64 }),
      playerId: Type.String({ maxLength: 64 }),
      at: Timestamp,
      minutes: Type.Integer({ minimum: 1, maximum: 1440 }),
    }),
    { maxItems: 1000 },
  ),
});
export const harmPlayMessages = defineMessages({
  playHours: {
    subject: 'wallet.harm.playHours',
    body: HarmPlayHoursRequestSchema,
    /** `nextHour`, with `toHour` and the window's last page: the first hour at or after `toHour` that holds play (null: none yet). */
    reply: Type.Object({ hours: Type.Array(HarmPlayHourSchema), nextHour: Type.Optional(Nullable(Timestamp)) }),
  },
  lossesBefore: {
    subject: 'wallet.harm.lossesBefore',
    body: HarmLossesBeforeRequestSchema,
    /** In the order of the deposits asked. */
    reply: Type.Object({ afterLoss: Type.Array(Type.Boolean()) }),
  },
});

/**
 * `players.rg.teamMeasure`: a measure the compliance service takes from a harm case, applied by the players
 * service under the same rules as the player's admin operation it names (a pause, a stricter limit, a
 * reality check more often), audited there with the person who decided. Idempotent by `measureId`: a
 * measure asked again (the reconciler, after the compliance service stopped before keeping the answer)
 * answers `applied: false` and changes nothing.
 */
export const TeamMeasureSchema = Type.Object({
  measureId: Type.String({ minLength: 1, maxLength: 64 }),
  caseId: Type.String({ minLength: 1, maxLength: 64 }),
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
  measure: Type.Union([Type.Literal('pause'), Type.Literal('stricter_limit'), Type.Literal('reality_check')]),
  until: Type.Optional(Type.String({ format: 'date-time' })),
  type: Type.Optional(LimitTypeSchema),
  period: Type.Optional(LimitPeriodSchema),
  value: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
  minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  reason: Type.String({ minLength: 1 }),
  /** Who decided, as the audit rows name them (the person behind the case's request). */
  author: Type.Object({
    actor: Type.String(),
    personId: Type.Optional(Type.String()),
    requestId: Type.String(),
    idempotencyKey: Type.Optional(Type.String()),
  }),
});
export type TeamMeasure = Static<typeof TeamMeasureSchema>;

export const teamMeasureMessages = defineMessages({
  take: {
    subject: 'players.rg.teamMeasure',
    body: TeamMeasureSchema,
    /** false: this measure was applied before (asked again), nothing changed now. */
    reply: Type.Object({ applied: Type.Boolean() }),
  },
});
