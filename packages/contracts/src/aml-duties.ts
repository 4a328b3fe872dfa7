// AML duties beyond the players (issue #46, item 5; Portaria SPA/MF 1.143/2024, docs/aml.md): the
// decision to report a case to COAF, which starts its COS deadline; the operator's yearly report to
// the SPA made from the year's compliance data and kept with its hash; and the risk register of team
// members, partners and suppliers (know your employee, partner, supplier) with their review dates.
// Our team's admin operations only (compliance role), like the rest of the AML surface.
import { Type, type Static } from '@sinclair/typebox';
import { AmlCaseSchema, RISK_LEVELS } from './aml.ts';
import { Nullable, Page, Timestamp, pageQuery } from './common.ts';
import { defineOperations } from './operations.ts';

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
const RiskLevelSchema = literals(RISK_LEVELS);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Reason = Type.String({ minLength: 1, maxLength: 2000 });
const Year = Type.Integer({ minimum: 2024, maximum: 2100 });
const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });

// ---- the decision to report (the COS deadline) ----
export const amlReportDecisionOperations = defineOperations({
  adminAmlReportDecision: {
    id: 'adminAmlReportDecision',
    method: 'POST',
    path: '/admin/aml/cases/:id/report-decision',
    subject: 'compliance.admin.cases.decideReport',
    tag: 'Admin',
    summary:
      "Decide to report a case under review to COAF (not by its reviewer): its COS is then due by the end of the next business day in the brand's time zone (`cos.dueAt`)",
    params: IdParams,
    body: Type.Object({ reason: Reason }),
    response: AmlCaseSchema,
    status: 200,
    errors: ['AML_CASE_NOT_FOUND', 'AML_CASE_INVALID_TRANSITION', 'FOUR_EYES_REQUIRED'],
  },
});

// ---- the yearly report to the SPA ----
const Counts = Type.Object({ low: Type.Integer(), medium: Type.Integer(), high: Type.Integer() });

/** The report's layout (`bo-aml-annual-report/1`): the figures of one operator's year, from the compliance data. */
export const AmlAnnualReportDocumentSchema = Type.Object(
  {
    layout: Type.Literal('bo-aml-annual-report/1'),
    operatorId: Type.String(),
    year: Type.Integer(),
    /** The operator's time zone (its compliance profile) the year is counted in, and the year's bounds. */
    timeZone: Type.String(),
    from: Timestamp,
    to: Timestamp,
    version: Type.Integer(),
    madeAt: Timestamp,
    madeBy: Type.String(),
    /** By when the operator sends it to the SPA (1 February of the next year). */
    dueDate: DateOnly,
    /** The operator's production brands its cases name. */
    brands: Type.Array(Type.String()),
    cases: Type.Object({
      opened: Type.Integer(),
      openedByRisk: Counts,
      /** Cases opened in the year one of whose rules is each rule. */
      openedByRule: Type.Record(Type.String(), Type.Integer()),
      reported: Type.Integer(),
      dismissed: Type.Integer(),
      /** Open or under review as the year ended. */
      activeAtYearEnd: Type.Integer(),
    }),
    cos: Type.Object({
      /** Decisions to report taken in the year. */
      decided: Type.Integer(),
      /** COS filed in the year (cases marked reported with their Siscoaf receipt), and of them after their deadline. */
      filed: Type.Integer(),
      filedLate: Type.Integer(),
      /** Decided and not yet filed as the year ended. */
      awaitingAtYearEnd: Type.Integer(),
      filings: Type.Array(
        Type.Object({
          caseId: Type.String(),
          brandId: Type.String(),
          decidedAt: Timestamp,
          dueAt: Timestamp,
          filedAt: Timestamp,
          receipt: Type.String(),
          late: Type.Boolean(),
        }),
      ),
    }),
    riskRegister: Type.Object({
      /** Active subjects as the year ended (the operator's and our own team's), by kind and rating. */
      team_member: Counts,
      partner: Counts,
      supplier: Counts,
      /** Of them, those whose review was past due as the year ended. */
      reviewsOverdue: Type.Integer(),
      /** Rated (first rating or a review) in the year. */
      ratedInYear: Type.Integer(),
    }),
    /** The yearly "no occurrence" statement (art. 30, through SIGAP by January's last business day) when no COS was filed in the year. */
    noOccurrence: Type.Object({ applies: Type.Boolean(), statement: Nullable(Type.String()), dueDate: DateOnly }),
  },
  { $id: 'AmlAnnualReportDocument' },
);
export type AmlAnnualReportDocument = Static<typeof AmlAnnualReportDocumentSchema>;

export const AML_ANNUAL_REPORT_STATES = ['not_made', 'overdue', 'made', 'made_late'] as const;
export type AmlAnnualReportState = (typeof AML_ANNUAL_REPORT_STATES)[number];

const AnnualReportVersionSchema = Type.Object({ version: Type.Integer(), madeAt: Timestamp, madeBy: Type.String(), sha256: Type.String() });

/** Where an operator's report of a year stands: its due dates and the versions kept. */
export const AmlAnnualReportStatusSchema = Type.Object(
  {
    operatorId: Type.String(),
    year: Type.Integer(),
    timeZone: Type.String(),
    /** 1 February of the next year, and the instant it ends in `timeZone`. */
    dueDate: DateOnly,
    dueAt: Timestamp,
    /** January's last business day of the next year: the "no occurrence" statement's (IN SPA/MF 4/2024). */
    noOccurrenceDueDate: DateOnly,
    /** not_made (due date ahead), overdue (not made and past due), made (first version by the due date), made_late. */
    state: literals(AML_ANNUAL_REPORT_STATES),
    /** Every version kept, newest first. */
    versions: Type.Array(AnnualReportVersionSchema),
  },
  { $id: 'AmlAnnualReportStatus' },
);
export type AmlAnnualReportStatus = Static<typeof AmlAnnualReportStatusSchema>;

export const AmlAnnualReportSchema = Type.Intersect(
  [
    AmlAnnualReportStatusSchema,
    Type.Object({
      /** The version answered (the latest, or the one asked); null when none is made yet. */
      version: Nullable(Type.Integer()),
      report: Nullable(AmlAnnualReportDocumentSchema),
      /** The file as kept (UTF-8 JSON text): what `sha256` is the hash of. */
      file: Nullable(Type.String()),
      sha256: Nullable(Type.String()),
      /** Whether the kept file still hashes to its `sha256` (checked on every read). */
      verified: Nullable(Type.Boolean()),
    }),
  ],
  { $id: 'AmlAnnualReport' },
);
export type AmlAnnualReport = Static<typeof AmlAnnualReportSchema>;

/** An operator's id (`op_…`). */
const OperatorId = Type.String({ pattern: '^op_[A-Za-z0-9]{1,60}$' });
/** Checked by the service (an operator's id, a year of this century): any other path is a 422 on the path. */
const OperatorYearParams = Type.Object({ operatorId: Type.String({ minLength: 1, maxLength: 64 }), year: Type.String({ minLength: 1, maxLength: 8 }) });

export const amlAnnualReportOperations = defineOperations({
  adminListAmlAnnualReports: {
    id: 'adminListAmlAnnualReports',
    method: 'GET',
    path: '/admin/aml/annual-reports',
    subject: 'compliance.admin.annualReports.list',
    tag: 'Admin',
    summary: "Every operator's yearly AML report of a year: its due dates, state and kept versions (operators seen by compliance in production)",
    query: Type.Object({ year: Year }),
    response: Type.Object({ year: Type.Integer(), data: Type.Array(AmlAnnualReportStatusSchema) }),
    status: 200,
  },
  adminGetAmlAnnualReport: {
    id: 'adminGetAmlAnnualReport',
    method: 'GET',
    path: '/admin/aml/operators/:operatorId/annual-reports/:year',
    subject: 'compliance.admin.annualReports.get',
    tag: 'Admin',
    summary: "An operator's yearly AML report: the latest version kept (or `version`), its file and hash checked now; its due dates when none is made yet",
    params: OperatorYearParams,
    query: Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1 })) }),
    response: AmlAnnualReportSchema,
    status: 200,
  },
  adminMakeAmlAnnualReport: {
    id: 'adminMakeAmlAnnualReport',
    method: 'POST',
    path: '/admin/aml/operators/:operatorId/annual-reports',
    subject: 'compliance.admin.annualReports.make',
    tag: 'Admin',
    summary: "Make an operator's yearly AML report of a year that is over, from the compliance data, and keep it with its SHA-256 (a new version each time)",
    params: Type.Object({ operatorId: OperatorId }),
    body: Type.Object({ year: Year }),
    response: AmlAnnualReportSchema,
    status: 201,
    timeoutMs: 60_000,
  },
});

// ---- the risk register: team members, partners, suppliers ----
export const RISK_SUBJECT_KINDS = ['team_member', 'partner', 'supplier'] as const;
export type RiskSubjectKind = (typeof RISK_SUBJECT_KINDS)[number];
/** Months until a rating is reviewed, by rating: our choice (docs/aml.md), the Portaria sets none as read. */
export const RISK_REVIEW_MONTHS = { high: 6, medium: 12, low: 24 } as const satisfies Record<(typeof RISK_LEVELS)[number], number>;

const RiskRatingSchema = Type.Object({
  rating: RiskLevelSchema,
  rationale: Type.String(),
  ratedBy: Type.String(),
  ratedAt: Timestamp,
  reviewDueAt: Timestamp,
});

export const RiskSubjectSchema = Type.Object(
  {
    id: Type.String(),
    kind: literals(RISK_SUBJECT_KINDS),
    /** The operator whose employee, partner or supplier this is; null: our own (serving every operator). */
    operatorId: Nullable(Type.String()),
    name: Type.String(),
    /** CPF (11 digits) or CNPJ (14 digits). */
    document: Nullable(Type.String()),
    /** A team member of ours (`usr_…`), for kind team_member. */
    teamMemberId: Nullable(Type.String()),
    status: Type.Union([Type.Literal('active'), Type.Literal('ended')]),
    /** The current rating, with its review date (high 6 months, medium 12, low 24 after it). */
    rating: RiskLevelSchema,
    rationale: Type.String(),
    ratedBy: Type.String(),
    ratedAt: Timestamp,
    reviewDueAt: Timestamp,
    /** Active and past its review date as it is read. */
    reviewOverdue: Type.Boolean(),
    createdAt: Timestamp,
    endedAt: Nullable(Timestamp),
    endedBy: Nullable(Type.String()),
    endReason: Nullable(Type.String()),
  },
  { $id: 'RiskSubject' },
);
export type RiskSubject = Static<typeof RiskSubjectSchema>;

export const RiskSubjectWithHistorySchema = Type.Intersect([RiskSubjectSchema, Type.Object({ history: Type.Array(RiskRatingSchema) })], {
  $id: 'RiskSubjectWithHistory',
});
export type RiskSubjectWithHistory = Static<typeof RiskSubjectWithHistorySchema>;

const Document = Type.String({ minLength: 11, maxLength: 18, pattern: '^[0-9./-]+$', description: 'CPF or CNPJ, with or without punctuation' });
const Rationale = Type.String({ minLength: 1, maxLength: 2000 });

export const AddRiskSubjectSchema = Type.Object(
  {
    kind: literals(RISK_SUBJECT_KINDS),
    operatorId: Type.Optional(Nullable(OperatorId)),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    document: Type.Optional(Document),
    teamMemberId: Type.Optional(Type.String({ pattern: '^usr_[0-9a-f]{32}$' })),
    rating: RiskLevelSchema,
    rationale: Rationale,
  },
  { $id: 'AddRiskSubject' },
);
export type AddRiskSubject = Static<typeof AddRiskSubjectSchema>;

export const amlRiskRegisterOperations = defineOperations({
  adminListAmlRiskSubjects: {
    id: 'adminListAmlRiskSubjects',
    method: 'GET',
    path: '/admin/aml/risk-subjects',
    subject: 'compliance.admin.riskSubjects.list',
    tag: 'Admin',
    summary: 'The risk register of team members, partners and suppliers, the review due first; `reviewDue=overdue` lists the reviews past due',
    query: Type.Object({
      kind: Type.Optional(literals(RISK_SUBJECT_KINDS)),
      /** An operator's subjects; `none`: our own. */
      operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      rating: Type.Optional(RiskLevelSchema),
      reviewDue: Type.Optional(Type.Literal('overdue')),
      /** `active` (default) or `ended`. */
      status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('ended')])),
      ...pageQuery(200),
    }),
    response: Page(RiskSubjectSchema),
    status: 200,
  },
  adminGetAmlRiskSubject: {
    id: 'adminGetAmlRiskSubject',
    method: 'GET',
    path: '/admin/aml/risk-subjects/:id',
    subject: 'compliance.admin.riskSubjects.get',
    tag: 'Admin',
    summary: 'A subject of the risk register with every rating it had',
    params: IdParams,
    response: RiskSubjectWithHistorySchema,
    status: 200,
    errors: ['AML_RISK_SUBJECT_NOT_FOUND'],
  },
  adminAddAmlRiskSubject: {
    id: 'adminAddAmlRiskSubject',
    method: 'POST',
    path: '/admin/aml/risk-subjects',
    subject: 'compliance.admin.riskSubjects.add',
    tag: 'Admin',
    summary: 'Register a team member, partner or supplier with its first risk rating (its review date follows from the rating)',
    body: AddRiskSubjectSchema,
    response: RiskSubjectWithHistorySchema,
    status: 201,
    errors: ['AML_RISK_SUBJECT_CONFLICT'],
  },
  adminRateAmlRiskSubject: {
    id: 'adminRateAmlRiskSubject',
    method: 'POST',
    path: '/admin/aml/risk-subjects/:id/ratings',
    subject: 'compliance.admin.riskSubjects.rate',
    tag: 'Admin',
    summary: 'Review a subject: its new rating (the same one again is a review too) and rationale; the next review date follows',
    params: IdParams,
    body: Type.Object({ rating: RiskLevelSchema, rationale: Rationale }),
    response: RiskSubjectWithHistorySchema,
    status: 200,
    errors: ['AML_RISK_SUBJECT_NOT_FOUND', 'AML_RISK_SUBJECT_CONFLICT'],
  },
  adminEndAmlRiskSubject: {
    id: 'adminEndAmlRiskSubject',
    method: 'POST',
    path: '/admin/aml/risk-subjects/:id/end',
    subject: 'compliance.admin.riskSubjects.end',
    tag: 'Admin',
    summary: 'End the relationship with a subject: no review is due any more; the subject and its ratings are kept (five years)',
    params: IdParams,
    body: Type.Object({ reason: Reason }),
    response: RiskSubjectWithHistorySchema,
    status: 200,
    errors: ['AML_RISK_SUBJECT_NOT_FOUND', 'AML_RISK_SUBJECT_CONFLICT'],
  },
});
