// Anti-money-laundering (issue #28): the compliance service's cases, rules and screening, for our
// own team only. Nothing here is ever part of the operator API, its errors or its webhooks (no
// tipping off): the operations are admin operations, the messages are between our services.
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Money, Nullable, Page, Timestamp, pageQuery } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';

export const AML_RULES = ['in_and_out', 'split_deposits', 'high_value', 'shared_destination', 'payer_mismatch', 'velocity', 'pep', 'sanctions'] as const;
export type AmlRule = (typeof AML_RULES)[number];
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const AML_CASE_STATUSES = ['open', 'under_review', 'reported', 'dismissed'] as const;
export type AmlCaseStatus = (typeof AML_CASE_STATUSES)[number];

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
const AmlRuleSchema = literals(AML_RULES);
const RiskLevelSchema = literals(RISK_LEVELS);
const AmlCaseStatusSchema = literals(AML_CASE_STATUSES);

/** One hit of a rule: the events it saw (ids, amounts, times) and what it measured. */
export const AmlEvidenceSchema = Type.Object({
  rule: AmlRuleSchema,
  /** The event (or screening answer) that triggered the hit. */
  eventId: Type.String(),
  at: Timestamp,
  summary: Type.String(),
  /** What the rule measured and the events it counted: `{ events: [{ id, type, amount, at }], ... }`. */
  facts: Type.Record(Type.String(), Type.Unknown()),
});
export type AmlEvidence = Static<typeof AmlEvidenceSchema>;

/** One step of a case's life: who moved it, when, why. */
export const AmlCaseStepSchema = Type.Object({
  status: AmlCaseStatusSchema,
  by: Type.String(),
  at: Timestamp,
  reason: Type.String(),
  receipt: Nullable(Type.String()),
});

/**
 * A COS's deadline (issue #46): from our team's decision to report the case to COAF, by the end of the
 * next business day in the brand's time zone (docs/aml.md, "The COS deadline"), and when it was filed.
 */
export const AML_COS_STATES = ['due', 'near', 'overdue', 'filed', 'filed_late'] as const;
export type AmlCosState = (typeof AML_COS_STATES)[number];
export const AmlCosDeadlineSchema = Type.Object(
  {
    /** When our team decided to report the case (the second person after the review), and who. */
    decidedAt: Timestamp,
    decidedBy: Type.String(),
    reason: Type.String(),
    /** The end of the next business day after the decision, in the brand's time zone. */
    dueAt: Timestamp,
    /** When the case was marked reported with its Siscoaf receipt; null until then. */
    filedAt: Nullable(Timestamp),
    /** due (time left), near (less than COS_NEAR_MS left), overdue, filed (by dueAt), filed_late. */
    state: literals(AML_COS_STATES),
    /** Seconds until dueAt as the case is read (negative once overdue); null once filed. */
    secondsLeft: Nullable(Type.Integer()),
  },
  { $id: 'AmlCosDeadline' },
);
export type AmlCosDeadline = Static<typeof AmlCosDeadlineSchema>;

/**
 * An alert's 30-day analysis clock (issue #60; Portaria SPA/MF 1.143/2024 art. 26 §2 as summarised,
 * docs/aml.md "The analysis clock"): from the case's opening (its first alert, at the operation) to the
 * decision that concludes its analysis (the decision to report it, or its dismissal).
 */
export const AML_ANALYSIS_STATES = ['due', 'near', 'overdue', 'concluded', 'concluded_late'] as const;
export type AmlAnalysisState = (typeof AML_ANALYSIS_STATES)[number];
export const AmlAnalysisClockSchema = Type.Object(
  {
    /** When the case was opened (its first alert). */
    startedAt: Timestamp,
    /** 30 days after `startedAt`. */
    dueAt: Timestamp,
    /** When the analysis was concluded (the report decision, else the case's closing); null while it runs. */
    concludedAt: Nullable(Timestamp),
    /** due, near (less than AML_ANALYSIS_NEAR_MS left), overdue; concluded (by dueAt) or concluded_late. */
    state: literals(AML_ANALYSIS_STATES),
    /** Seconds until dueAt as the case is read (negative once overdue); null once concluded. */
    secondsLeft: Nullable(Type.Integer()),
  },
  { $id: 'AmlAnalysisClock' },
);
export type AmlAnalysisClock = Static<typeof AmlAnalysisClockSchema>;

export const AmlCaseSummarySchema = Type.Object(
  {
    id: Type.String(),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    playerId: Type.String(),
    /** The player's name as screened (issue #61: a queue reads names, not ids); null for a player the watch never screened. */
    playerName: Nullable(Type.String()),
    /** The total of the distinct deposits and withdrawals its evidence names, as its COS totals them. */
    amount: Money,
    risk: RiskLevelSchema,
    status: AmlCaseStatusSchema,
    rules: Type.Array(AmlRuleSchema),
    openedAt: Timestamp,
    updatedAt: Timestamp,
    /** Who on our team works it (their admin identity, e.g. `user:ana@ourteam.example`), and since when; null: nobody yet. */
    assignee: Nullable(Type.String()),
    assignedAt: Nullable(Timestamp),
    /** The brand's time zone (its operator's compliance profile; Brasília for br-spa): the console shows times in it. */
    timeZone: Type.String(),
    /** Whether this case holds the player's payouts now (an active high case of a br-spa operator: 403 AML_REVIEW_REQUIRED). */
    holdsPayouts: Type.Boolean(),
    /** The COS's deadline once our team decided to report the case; null before that. */
    cos: Nullable(AmlCosDeadlineSchema),
    /** The 30-day analysis clock of its alerts (issue #60). */
    analysis: AmlAnalysisClockSchema,
  },
  { $id: 'AmlCaseSummary' },
);
export type AmlCaseSummary = Static<typeof AmlCaseSummarySchema>;

export const AmlCaseSchema = Type.Intersect(
  [
    AmlCaseSummarySchema,
    Type.Object({
      /** The Siscoaf receipt number, once the case is reported. */
      receipt: Nullable(Type.String()),
      steps: Type.Array(AmlCaseStepSchema),
      evidence: Type.Array(AmlEvidenceSchema),
    }),
  ],
  { $id: 'AmlCase' },
);
export type AmlCase = Static<typeof AmlCaseSchema>;

export const AmlCaseDecisionSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('under_review'), Type.Literal('reported'), Type.Literal('dismissed')]),
    reason: Type.String({ minLength: 1, maxLength: 2000 }),
    /** The Siscoaf receipt number: required with `reported`. */
    receipt: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { $id: 'AmlCaseDecision' },
);
export type AmlCaseDecision = Static<typeof AmlCaseDecisionSchema>;

/** The thresholds of a brand's rules (docs/aml.md gives each default and its source). */
export const AmlThresholdsSchema = Type.Object(
  {
    /** Rule 1: withdrawals within this many hours of deposits ... */
    inAndOutHours: Type.Integer({ minimum: 1, maximum: 720 }),
    /** ... with stakes under this share of the deposited amount (percent). */
    inAndOutStakePercent: Type.Integer({ minimum: 0, maximum: 100 }),
    /**
     * ... a partial cash-out (the window's withdrawals at most this share of its deposits, percent) is
     * medium, not high (issue #61; default 30). Absent: kept as it was (a brand set before it has the default).
     */
    inAndOutPartialPercent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    /** Rule 2: the reporting threshold deposits stay just under ... */
    splitThreshold: Money,
    /** ... "just under": within this percent below it ... */
    splitMarginPercent: Type.Integer({ minimum: 1, maximum: 100 }),
    /** ... this many of them or more ... */
    splitCount: Type.Integer({ minimum: 2, maximum: 1000 }),
    /** ... within this many hours. */
    splitHours: Type.Integer({ minimum: 1, maximum: 720 }),
    /** Rule 3: a single deposit or withdrawal at or over this amount. */
    highValue: Money,
    /** Rule 5: the last day's deposits (or withdrawals) at least this many times the player's daily average of the previous 30 days ... */
    velocityFactor: Type.Integer({ minimum: 2, maximum: 1000 }),
    /** ... and at least this amount (a first small deposit is not "far above" anything). */
    velocityMinAmount: Money,
  },
  { $id: 'AmlThresholds' },
);
export type AmlThresholds = Static<typeof AmlThresholdsSchema>;

export const AmlBrandRulesSchema = Type.Object(
  { brandId: Type.String(), thresholds: AmlThresholdsSchema, updatedAt: Nullable(Timestamp), updatedBy: Nullable(Type.String()) },
  { $id: 'AmlBrandRules' },
);

export const PlayerRiskSchema = Type.Object(
  {
    playerId: Type.String(),
    level: RiskLevelSchema,
    history: Type.Array(Type.Object({ level: RiskLevelSchema, reason: Type.String(), by: Type.String(), at: Timestamp })),
  },
  { $id: 'PlayerRisk' },
);
export type PlayerRisk = Static<typeof PlayerRiskSchema>;

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const BrandParams = Type.Object({ brandId: Type.String({ minLength: 1, maxLength: 64 }) });

export const amlAdminOperations = defineOperations({
  adminListAmlCases: {
    id: 'adminListAmlCases',
    method: 'GET',
    path: '/admin/aml/cases',
    subject: 'compliance.admin.cases.list',
    tag: 'Admin',
    summary: 'AML cases, newest (or oldest, riskiest, largest) first, filtered by player, status, risk, rule, operator, brand, environment, assignee and age',
    query: Type.Object({
      playerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      status: Type.Optional(AmlCaseStatusSchema),
      risk: Type.Optional(RiskLevelSchema),
      /** Cases one of whose rules is this one. */
      rule: Type.Optional(AmlRuleSchema),
      operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** `me` (the caller), `none` (nobody yet) or an identity as cases name it. */
      assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 160 })),
      /** Cases opened before this time (their age: "older than a day" is now minus 24 h). */
      openedBefore: Type.Optional(Timestamp),
      /**
       * `newest` (default) or `oldest` first: the oldest is the one waiting longest; `risk`: the riskiest
       * first and the largest first within a risk level (issue #70), `amount`: the largest first (each then
       * the one waiting longest: issue #61).
       */
      order: Type.Optional(Type.Union([Type.Literal('newest'), Type.Literal('oldest'), Type.Literal('risk'), Type.Literal('amount')])),
      /** One environment's cases (the console shows production unless asked for the sandbox); both when absent. */
      environment: Type.Optional(EnvironmentSchema),
      /** `awaiting`: cases decided for reporting whose COS is not filed yet; `overdue`: those past their deadline. */
      cos: Type.Optional(Type.Union([Type.Literal('awaiting'), Type.Literal('overdue')])),
      ...pageQuery(200),
    }),
    response: Page(AmlCaseSummarySchema),
    status: 200,
  },
  adminAssignAmlCase: {
    id: 'adminAssignAmlCase',
    method: 'PUT',
    path: '/admin/aml/cases/:id/assignee',
    subject: 'compliance.admin.cases.assign',
    tag: 'Admin',
    summary: 'Give a case to a person of our team (`me`, an identity) or to nobody (null); the case says who and since when',
    params: IdParams,
    body: Type.Object({ assignee: Nullable(Type.String({ minLength: 1, maxLength: 160 })) }),
    response: AmlCaseSummarySchema,
    status: 200,
    errors: ['AML_CASE_NOT_FOUND'],
  },
  adminGetAmlCase: {
    id: 'adminGetAmlCase',
    method: 'GET',
    path: '/admin/aml/cases/:id',
    subject: 'compliance.admin.cases.get',
    tag: 'Admin',
    summary: 'An AML case with its evidence and its steps',
    params: IdParams,
    response: AmlCaseSchema,
    status: 200,
    errors: ['AML_CASE_NOT_FOUND'],
  },
  adminAmlCaseDecision: {
    id: 'adminAmlCaseDecision',
    method: 'POST',
    path: '/admin/aml/cases/:id/decision',
    subject: 'compliance.admin.cases.decide',
    tag: 'Admin',
    summary: 'Move an AML case: under_review, reported (Siscoaf receipt; by someone other than the reviewer) or dismissed',
    params: IdParams,
    body: AmlCaseDecisionSchema,
    response: AmlCaseSchema,
    status: 200,
    errors: ['AML_CASE_NOT_FOUND', 'AML_CASE_INVALID_TRANSITION', 'FOUR_EYES_REQUIRED'],
  },
  adminGetAmlRules: {
    id: 'adminGetAmlRules',
    method: 'GET',
    path: '/admin/aml/brands/:brandId/rules',
    subject: 'compliance.admin.rules.get',
    tag: 'Admin',
    summary: "A brand's AML rule thresholds (the defaults until our team sets them)",
    params: BrandParams,
    response: AmlBrandRulesSchema,
    status: 200,
  },
  adminSetAmlRules: {
    id: 'adminSetAmlRules',
    method: 'PUT',
    path: '/admin/aml/brands/:brandId/rules',
    subject: 'compliance.admin.rules.set',
    tag: 'Admin',
    summary: "Set a brand's AML rule thresholds",
    params: BrandParams,
    body: AmlThresholdsSchema,
    response: AmlBrandRulesSchema,
    status: 200,
  },
  adminGetPlayerRisk: {
    id: 'adminGetPlayerRisk',
    method: 'GET',
    path: '/admin/aml/players/:id/risk',
    subject: 'compliance.admin.risk.get',
    tag: 'Admin',
    summary: "A player's AML risk level (low until a rule or a screening says otherwise) with its history",
    params: IdParams,
    response: PlayerRiskSchema,
    status: 200,
  },
});

/** `compliance.holds.check`: whether a player's payouts wait for our compliance team (an open high case). */
export const AmlHoldRequestSchema = Type.Object({
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const AmlHoldSchema = Type.Object({ held: Type.Boolean() });
export type AmlHold = Static<typeof AmlHoldSchema>;

export const amlMessages = defineMessages({
  holdCheck: { subject: 'compliance.holds.check', body: AmlHoldRequestSchema, reply: AmlHoldSchema },
});

/**
 * `wallet.stakes`: what a player staked (BET entries, as a positive amount) in a time window,
 * served by the wallet (it owns the rounds' ledger entries). Asked by the AML watch's "in and out
 * with little play" rule; one indexed range read instead of an event per round.
 */
export const WalletStakesRequestSchema = Type.Object({
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
  from: Timestamp,
  to: Timestamp,
});
export type WalletStakesRequest = Static<typeof WalletStakesRequestSchema>;
/** The largest single win (a `WIN` entry: our rounds' payouts and third-party providers' wins alike) in the window, if any. */
const WalletLargestWinSchema = Type.Object({ amount: Money, referenceId: Type.String(), at: Timestamp });
export type WalletLargestWin = Static<typeof WalletLargestWinSchema>;
export const WalletStakesSchema = Type.Object({ stakes: Money, largestWin: Type.Optional(Nullable(WalletLargestWinSchema)) });

export const walletStakesMessages = defineMessages({
  stakes: { subject: 'wallet.stakes', body: WalletStakesRequestSchema, reply: WalletStakesSchema },
});

// ---- screening: PEP and sanctions lists (our team only) ----
export const SCREENING_LISTS = ['pep', 'sanctions'] as const;
export type ScreeningList = (typeof SCREENING_LISTS)[number];

/** One entry of the screening simulator's lists: who (by CPF) and what the list says. */
export const ScreeningEntrySchema = Type.Object(
  {
    id: Type.String(),
    list: literals(SCREENING_LISTS),
    cpf: Type.String({ pattern: '^[0-9]{11}$' }),
    name: Type.String(),
    /** pep: the office held (or the relation to the person who holds it); sanctions: the list and its reference (e.g. "UNSC 1267 QDi.123"). */
    detail: Type.String(),
    createdAt: Timestamp,
  },
  { $id: 'ScreeningEntry' },
);
export type ScreeningEntry = Static<typeof ScreeningEntrySchema>;

export const AddScreeningEntrySchema = Type.Object({
  list: literals(SCREENING_LISTS),
  cpf: Type.String({ pattern: '^[0-9]{11}$' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  detail: Type.String({ minLength: 1, maxLength: 500 }),
});

/** What a list change did: the players screened again, and the hits it found. */
export const RescreenResultSchema = Type.Object({
  screened: Type.Integer(),
  hits: Type.Array(Type.Object({ playerId: Type.String(), list: literals(SCREENING_LISTS), caseId: Type.String() })),
});

export const screeningAdminOperations = defineOperations({
  adminListScreeningEntries: {
    id: 'adminListScreeningEntries',
    method: 'GET',
    path: '/admin/aml/screening/simulator/entries',
    subject: 'compliance.admin.screening.entries',
    tag: 'Admin',
    summary: "The screening simulator's PEP and sanctions lists (used by npm start, the sandbox and the tests)",
    response: Type.Object({ data: Type.Array(ScreeningEntrySchema) }),
    status: 200,
  },
  adminAddScreeningEntry: {
    id: 'adminAddScreeningEntry',
    method: 'POST',
    path: '/admin/aml/screening/simulator/entries',
    subject: 'compliance.admin.screening.add',
    tag: 'Admin',
    summary: 'Add an entry to a simulator list: a list change, so every watched player is screened again before this answers',
    body: AddScreeningEntrySchema,
    response: Type.Object({ entry: ScreeningEntrySchema, rescreen: RescreenResultSchema }),
    status: 201,
  },
  adminRemoveScreeningEntry: {
    id: 'adminRemoveScreeningEntry',
    method: 'DELETE',
    path: '/admin/aml/screening/simulator/entries/:id',
    subject: 'compliance.admin.screening.remove',
    tag: 'Admin',
    summary: "Remove an entry from a simulator list (a removal never lifts a freeze or closes a case: that is our team's decision)",
    params: IdParams,
    response: Type.Object({ removed: Type.Boolean() }),
    status: 200,
  },
  adminRescreen: {
    id: 'adminRescreen',
    method: 'POST',
    path: '/admin/aml/screening/rescreen',
    subject: 'compliance.admin.screening.rescreen',
    tag: 'Admin',
    summary: "Screen every watched player again (after the provider's lists changed)",
    response: RescreenResultSchema,
    status: 200,
  },
});

// ---- files for the authorities ----
/** A COS (comunicação de operação suspeita) record of a case, what Siscoaf asks for (docs/aml.md). */
export const CosRecordSchema = Type.Object(
  {
    caseId: Type.String(),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    subject: Type.Object({ playerId: Type.String(), name: Type.String(), cpf: Type.String(), birthDate: Nullable(Type.String()) }),
    rules: Type.Array(AmlRuleSchema),
    risk: RiskLevelSchema,
    operations: Type.Array(Type.Object({ eventId: Type.String(), type: Type.String(), reference: Type.String(), amount: Money, at: Timestamp })),
    totalAmount: Money,
    period: Type.Object({ from: Nullable(Timestamp), to: Nullable(Timestamp) }),
    detectedAt: Timestamp,
    reasoning: Type.Array(AmlCaseStepSchema),
    status: AmlCaseStatusSchema,
    receipt: Nullable(Type.String()),
  },
  { $id: 'CosRecord' },
);
export type CosRecord = Static<typeof CosRecordSchema>;

export const cosAdminOperations = defineOperations({
  adminAmlCos: {
    id: 'adminAmlCos',
    method: 'GET',
    path: '/admin/aml/cases/:id/cos',
    subject: 'compliance.admin.cos',
    tag: 'Admin',
    summary: 'The COS record of a case under review or reported, as JSON and as CSV (one row per operation), to file with Siscoaf',
    params: IdParams,
    response: Type.Object({ record: CosRecordSchema, csv: Type.String() }),
    status: 200,
    errors: ['AML_CASE_NOT_FOUND', 'AML_CASE_INVALID_TRANSITION'],
  },
  adminAmlNoOccurrence: {
    id: 'adminAmlNoOccurrence',
    method: 'GET',
    path: '/admin/aml/brands/:brandId/no-occurrence',
    subject: 'compliance.admin.noOccurrence',
    tag: 'Admin',
    summary: 'Whether a brand reported no case in a year: the yearly "no occurrence" statement (sent through SIGAP by the operator)',
    params: BrandParams,
    query: Type.Object({ year: Type.Integer({ minimum: 2024, maximum: 2100 }) }),
    response: Type.Object({
      brandId: Type.String(),
      year: Type.Integer(),
      /** The brand's time zone the year is counted in (its operator's profile, else the default). */
      timeZone: Type.String(),
      reportedCases: Type.Integer(),
      noOccurrence: Type.Boolean(),
      statement: Nullable(Type.String()),
    }),
    status: 200,
  },
});

// ---- the daily regulator file (ledger part) ----
/** One player account's day: balance at the day's start and end, and the day's movements by type (signed). */
export const LedgerDayAccountSchema = Type.Object({
  playerId: Type.String(),
  currency: Type.String(),
  opening: Money,
  deposits: Money,
  withdrawals: Money,
  bets: Money,
  wins: Money,
  /** Movements of any other type (none today). */
  other: Money,
  closing: Money,
  entries: Type.Integer(),
});
export type LedgerDayAccount = Static<typeof LedgerDayAccountSchema>;

/**
 * `wallet.ledgerDay`: every player account of a brand over [from, to) as the ledger has it (the
 * wallet owns it): what the daily regulator file's balances and movements are made of, and what it
 * is checked against.
 */
const LedgerDayPosition = Type.Object({ playerId: Type.String(), currency: Type.String() });
export const walletLedgerDayMessages = defineMessages({
  ledgerDay: {
    subject: 'wallet.ledgerDay',
    body: Type.Object({
      brandId: Type.String({ minLength: 1, maxLength: 64 }),
      from: Timestamp,
      to: Timestamp,
      /** Paged (by player and currency) when `limit` is given: the accounts after `after`, and `next`. Without it, every account at once. */
      after: Type.Optional(LedgerDayPosition),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000 })),
    }),
    reply: Type.Object({ accounts: Type.Array(LedgerDayAccountSchema), next: Type.Optional(Nullable(LedgerDayPosition)) }),
  },
});

export const DailyFileSchema = Type.Object(
  {
    brandId: Type.String(),
    date: Type.String({ description: 'YYYY-MM-DD, a calendar day in the brand time zone' }),
    timeZone: Type.String(),
    from: Timestamp,
    to: Timestamp,
    generatedAt: Timestamp,
    accounts: Type.Array(LedgerDayAccountSchema),
    totals: Type.Object({
      accounts: Type.Integer(),
      opening: Money,
      deposits: Money,
      withdrawals: Money,
      bets: Money,
      wins: Money,
      other: Money,
      closing: Money,
      /** Game rounds' stakes and payouts are the bets and wins; entries counts every ledger entry of the day. */
      entries: Type.Integer(),
    }),
    /** True when every account's opening plus its movements equals its closing, and the file equals the ledger now. */
    ties: Type.Boolean(),
    problems: Type.Array(Type.String()),
  },
  { $id: 'DailyFile' },
);
export type DailyFile = Static<typeof DailyFileSchema>;

export const dailyFileAdminOperations = defineOperations({
  adminDailyReport: {
    id: 'adminDailyReport',
    method: 'GET',
    path: '/admin/reports/daily',
    subject: 'compliance.admin.reports.daily',
    tag: 'Admin',
    summary: "A brand's daily regulator file (ledger part): made once for a past day and kept, checked against the ledger on every read",
    query: Type.Object({
      brandId: Type.String({ minLength: 1, maxLength: 64 }),
      date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }),
      timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    response: DailyFileSchema,
    status: 200,
    // Making a file (its line items too) may take longer than a plain read.
    timeoutMs: 120_000,
    errors: ['BRAND_NOT_FOUND'],
  },
});
