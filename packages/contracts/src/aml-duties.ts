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
const NarrativeText = Type.String({ minLength: 1, maxLength: 20_000, pattern: '\\S' });

/**
 * The annual report's narrative (issue #60; Portaria SPA/MF 1.143/2024, art. 11 as summarised: the
 * report describes the prevention practices of the year, not only figures): what our compliance team
 * writes, section by section. `practices` is required; the rest when there is something to say.
 */
export const AmlAnnualReportNarrativeSchema = Type.Object(
  {
    /** The policy, procedures and internal controls applied in the year. */
    practices: NarrativeText,
    /** Training of the staff in the year. */
    training: Type.Optional(NarrativeText),
    /** How monitoring, selection and analysis of atypical operations went (beyond the figures). */
    monitoring: Type.Optional(NarrativeText),
    /** Deficiencies found and what was or will be done about them. */
    improvements: Type.Optional(NarrativeText),
  },
  { $id: 'AmlAnnualReportNarrative' },
);
export type AmlAnnualReportNarrative = Static<typeof AmlAnnualReportNarrativeSchema>;

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
    /**
     * The narrative part (issue #60): the year's practices as our compliance team wrote them when making
     * this version; null when none was written (a version made before, or without it). Absent in
     * versions made before issue #60.
     */
    narrative: Type.Optional(Nullable(AmlAnnualReportNarrativeSchema)),
    /** The internal risk assessment of the year in force when the version was made (its latest version); null when none. */
    riskAssessment: Type.Optional(Nullable(Type.Object({ year: Type.Integer(), version: Type.Integer(), assessedOn: DateOnly }))),
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
    body: Type.Object({
      year: Year,
      /** The narrative part of this version (issue #60); without it the version says `narrative: null`. */
      narrative: Type.Optional(AmlAnnualReportNarrativeSchema),
    }),
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
    /**
     * PEP and sanctions screening of the subject, as players are screened (issue #60): when it is
     * registered, at each review and when a list changes. `clear` (no hit), `hit` (on a list: the
     * rating is high), `not_screened` (no document to screen by), `failed` (the provider did not
     * answer: screened again at the next review or list change, or by a rescreen).
     */
    screening: Type.Object({
      state: Type.Union([Type.Literal('clear'), Type.Literal('hit'), Type.Literal('not_screened'), Type.Literal('failed')]),
      lists: Type.Array(Type.String()),
      hits: Type.Array(Type.Object({ list: Type.String(), detail: Type.String(), reference: Type.String() })),
      screenedAt: Nullable(Timestamp),
    }),
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

// ---- the yearly internal risk assessment (issue #60) ----
const Level = literals(RISK_LEVELS);
const AssessmentText = Type.String({ minLength: 1, maxLength: 20_000, pattern: '\\S' });

/** One risk the assessment names: its area, how likely and how harmful, the controls, the residual risk. */
export const RiskAssessmentRiskSchema = Type.Object({
  /** e.g. products and services, payment methods, customers, distribution channels, geography, new technologies. */
  area: Type.String({ minLength: 1, maxLength: 200 }),
  description: AssessmentText,
  likelihood: Level,
  impact: Level,
  controls: AssessmentText,
  residual: Level,
});

/** What our compliance team writes in a version of the assessment. */
export const RiskAssessmentContentSchema = Type.Object({
  /** The date the assessment was carried out (and approved), in the operator's time zone. */
  assessedOn: DateOnly,
  /** Who approved it (the director responsible for compliance, by name and role). */
  approvedBy: Type.String({ minLength: 1, maxLength: 200 }),
  methodology: AssessmentText,
  risks: Type.Array(RiskAssessmentRiskSchema, { minItems: 1, maxItems: 100 }),
  conclusions: AssessmentText,
  /** What is to be done in the coming year, with owners and dates. */
  actionPlan: Type.Optional(AssessmentText),
});

export const SaveRiskAssessmentSchema = Type.Composite(
  [
    Type.Object({
      year: Year,
      /** What changed from the version before (required from the second version on). */
      change: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' })),
    }),
    RiskAssessmentContentSchema,
  ],
  { $id: 'SaveAmlRiskAssessment' },
);
export type SaveRiskAssessment = Static<typeof SaveRiskAssessmentSchema>;

export const RiskAssessmentSchema = Type.Composite(
  [
    Type.Object({
      operatorId: Type.String(),
      year: Type.Integer(),
      /** 1, then one more for each change; every version is kept. */
      version: Type.Integer({ minimum: 1 }),
      change: Nullable(Type.String()),
      madeBy: Type.String(),
      madeAt: Timestamp,
    }),
    RiskAssessmentContentSchema,
  ],
  { $id: 'AmlRiskAssessment' },
);
export type RiskAssessment = Static<typeof RiskAssessmentSchema>;

const OperatorOnlyParams = Type.Object({ operatorId: Type.String({ minLength: 1, maxLength: 64 }) });

export const amlRiskAssessmentOperations = defineOperations({
  adminListAmlRiskAssessments: {
    id: 'adminListAmlRiskAssessments',
    method: 'GET',
    path: '/admin/aml/operators/:operatorId/risk-assessments',
    subject: 'compliance.admin.riskAssessments.list',
    tag: 'Admin',
    summary: "An operator's yearly internal risk assessments: every version kept, newest year and version first, with whether this year's is done",
    params: OperatorOnlyParams,
    response: Type.Object({
      operatorId: Type.String(),
      /** The current year in the operator's time zone, and whether an assessment of it is kept. */
      currentYear: Type.Integer(),
      currentYearAssessed: Type.Boolean(),
      data: Type.Array(RiskAssessmentSchema),
    }),
    status: 200,
  },
  adminSaveAmlRiskAssessment: {
    id: 'adminSaveAmlRiskAssessment',
    method: 'POST',
    path: '/admin/aml/operators/:operatorId/risk-assessments',
    subject: 'compliance.admin.riskAssessments.save',
    tag: 'Admin',
    summary: "Keep a new version of an operator's internal risk assessment of a year (the first, or a change of the last, saying what changed)",
    params: Type.Object({ operatorId: OperatorId }),
    body: SaveRiskAssessmentSchema,
    response: RiskAssessmentSchema,
    status: 201,
  },
});
