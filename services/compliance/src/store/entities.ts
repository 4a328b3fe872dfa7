// The compliance schema as MikroORM entities, which describe it whole (columns, CHECKs, indexes):
// a new migration is generated from a change here (`npm run migration:create -w @bo/compliance`),
// and test/store/schema.test.ts checks the migrated schema and the entities agree. The case
// records (cases, their steps and evidence, risk levels and their history, brand thresholds) are
// read and decided through the ORM; the watch's hot path (watched_money, and the cases it opens
// or joins) uses the kit's plain `sql` (store/watch.ts). The kit's own tables (outbox,
// stored answers) are not entities.
import { defineEntity, p } from '@mikro-orm/core';
import { SIGAP_FILE_STATUSES, SIGAP_FILE_TYPES } from '@bo/contracts';
import {
  AML_CASE_STATUSES,
  AML_RULES,
  RISK_LEVELS,
  RISK_SUBJECT_KINDS,
  SCREENING_LISTS,
  type AmlCaseStatus,
  type Environment,
  type RiskLevel,
} from '@bo/contracts';

const oneOf = (column: string, values: readonly string[]) => `${column} in (${values.map((v) => `'${v}'`).join(', ')})`;

/** One case of a player: its rules, risk, state, and (once reported) the Siscoaf receipt. */
export const AmlCaseEntity = defineEntity({
  name: 'AmlCase',
  tableName: 'cases',
  schema: 'compliance',
  properties: {
    id: p.text().primary(),
    operatorId: p.text(),
    brandId: p.text(),
    environment: p
      .text()
      .$type<Environment>()
      .check(oneOf('environment', ['sandbox', 'production'])),
    playerId: p.text(),
    risk: p.text().$type<RiskLevel>().check(oneOf('risk', RISK_LEVELS)),
    status: p.text().$type<AmlCaseStatus>().check(oneOf('status', AML_CASE_STATUSES)),
    /** The rules that hit, in the order they first did. */
    rules: p.array().check(`rules <@ array[${AML_RULES.map((r) => `'${r}'`).join(', ')}]::text[]`),
    receipt: p.text().nullable(),
    /** Who moved it to under_review: a report must come from someone else (four eyes). */
    reviewedBy: p.text().nullable(),
    /** Who on our team works it (their admin identity), and since when; null: nobody yet. */
    assignee: p.text().nullable(),
    assignedAt: p.datetime().nullable(),
    /** The reviewer's identity (their team member id): what four eyes compares. */
    reviewerId: p.text().nullable(),
    openedAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Our team's decision to report the case to COAF (issue #46): when, by whom (and their identity, for four eyes), why. */
    reportDecidedAt: p.datetime().nullable(),
    reportDecidedBy: p.text().nullable(),
    reportDeciderId: p.text().nullable(),
    reportDecisionReason: p.text().nullable(),
    /** The COS's deadline from that decision (domain/business-days.ts), and when it was filed (the case reported). */
    cosDueAt: p.datetime().nullable(),
    cosFiledAt: p.datetime().nullable(),
  },
  indexes: [
    // The COS awaiting filing, by deadline (the metric, the `cos` filter).
    {
      name: 'cases_cos_awaiting',
      expression: 'create index "cases_cos_awaiting" on "compliance"."cases" ("cos_due_at") where cos_due_at is not null and cos_filed_at is null',
    },
    { name: 'cases_by_player', expression: 'create index "cases_by_player" on "compliance"."cases" ("player_id", "opened_at" desc, "id" desc)' },
    { name: 'cases_by_status', expression: 'create index "cases_by_status" on "compliance"."cases" ("status", "opened_at" desc, "id" desc)' },
    { name: 'cases_by_time', expression: 'create index "cases_by_time" on "compliance"."cases" ("opened_at" desc, "id" desc)' },
  ],
  uniques: [
    // At most one active case per player: a new hit joins it (races of two replicas included).
    {
      name: 'cases_one_active_per_player',
      expression: `create unique index "cases_one_active_per_player" on "compliance"."cases" ("brand_id", "player_id") where status in ('open', 'under_review')`,
    },
  ],
});
export type AmlCaseRow = InstanceType<typeof AmlCaseEntity.class>;

/** Every state a case went through, with who, when and why (opening included, by the watch). */
export const AmlCaseStepEntity = defineEntity({
  name: 'AmlCaseStep',
  tableName: 'case_steps',
  schema: 'compliance',
  properties: {
    id: p.bigint().primary().autoincrement(),
    caseId: p.text(),
    status: p.text().$type<AmlCaseStatus>().check(oneOf('status', AML_CASE_STATUSES)),
    by: p.text(),
    at: p.datetime(),
    reason: p.text(),
    receipt: p.text().nullable(),
  },
  indexes: [{ name: 'case_steps_by_case', properties: ['caseId', 'id'] }],
});

/** One hit of a rule joined to a case: the triggering event and what the rule measured. */
export const AmlEvidenceEntity = defineEntity({
  name: 'AmlEvidence',
  tableName: 'case_evidence',
  schema: 'compliance',
  properties: {
    id: p.bigint().primary().autoincrement(),
    caseId: p.text(),
    rule: p.text().check(oneOf('rule', AML_RULES)),
    eventId: p.text(),
    at: p.datetime(),
    summary: p.text(),
    facts: p.json<Record<string, unknown>>(),
  },
  // A redelivered event cannot add its evidence twice.
  uniques: [{ name: 'case_evidence_once', properties: ['caseId', 'rule', 'eventId'] }],
});

/**
 * The money events the watch has seen (deposits confirmed or failed, withdrawals requested), one row per
 * event id: the dedupe of redeliveries and the history the rules read.
 */
export const WatchedMoneyEntity = defineEntity({
  name: 'WatchedMoney',
  tableName: 'watched_money',
  schema: 'compliance',
  properties: {
    eventId: p.text().primary(),
    operatorId: p.text(),
    brandId: p.text(),
    environment: p.text(),
    playerId: p.text(),
    kind: p.text().check(oneOf('kind', ['deposit', 'withdrawal', 'failed_deposit'])),
    /** The deposit or withdrawal id. */
    reference: p.text(),
    amount: p.decimal('string').precision(20).scale(2).check('amount > 0'),
    /** A withdrawal's destination (the payout account or PIX key). */
    destination: p.text().nullable(),
    occurredAt: p.datetime(),
  },
  indexes: [
    { name: 'watched_money_by_player', properties: ['brandId', 'playerId', 'kind', 'occurredAt'] },
    { name: 'watched_money_by_destination', properties: ['brandId', 'destination'] },
  ],
});

/** A player's current risk level (low when there is no row). */
export const PlayerRiskEntity = defineEntity({
  name: 'PlayerRisk',
  tableName: 'player_risk',
  schema: 'compliance',
  properties: {
    playerId: p.text().primary(),
    brandId: p.text(),
    level: p.text().$type<RiskLevel>().check(oneOf('level', RISK_LEVELS)),
    updatedAt: p.datetime(),
  },
});

/** Every change of a player's risk level, with why and who (a rule, a screening, a person). */
export const PlayerRiskHistoryEntity = defineEntity({
  name: 'PlayerRiskHistory',
  tableName: 'player_risk_history',
  schema: 'compliance',
  properties: {
    id: p.bigint().primary().autoincrement(),
    playerId: p.text(),
    level: p.text().$type<RiskLevel>().check(oneOf('level', RISK_LEVELS)),
    reason: p.text(),
    by: p.text(),
    at: p.datetime(),
  },
  indexes: [{ name: 'player_risk_history_by_player', properties: ['playerId', 'id'] }],
});

/** A brand's thresholds, when our team set them (the defaults otherwise: domain/thresholds.ts). */
export const BrandRulesEntity = defineEntity({
  name: 'BrandRules',
  tableName: 'brand_rules',
  schema: 'compliance',
  properties: {
    brandId: p.text().primary(),
    thresholds: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime(),
    updatedBy: p.text(),
  },
});

/** The screening simulator's lists (screening/simulator.ts): what `npm start`, the sandbox and the tests screen against. */
export const ScreeningEntryEntity = defineEntity({
  name: 'ScreeningEntry',
  tableName: 'screening_simulator_entries',
  schema: 'compliance',
  properties: {
    id: p.text().primary(),
    list: p.text().check(oneOf('list', SCREENING_LISTS)),
    cpf: p.text().check("cpf ~ '^[0-9]{11}$'"),
    name: p.text(),
    detail: p.text(),
    createdAt: p.datetime(),
    /** An operator's sandbox entry (sandbox routes): it applies to that operator's sandbox players only. Null: our team's. */
    operatorId: p.text().nullable(),
  },
  indexes: [{ name: 'screening_simulator_entries_by_cpf', properties: ['cpf'] }],
});

/**
 * The players screening knows (first seen at their first KYC event, the hook after registration):
 * who to screen again when a list changes, and what the last screening found.
 */
export const ScreenedPlayerEntity = defineEntity({
  name: 'ScreenedPlayer',
  tableName: 'screened_players',
  schema: 'compliance',
  properties: {
    playerId: p.text().primary(),
    operatorId: p.text(),
    brandId: p.text(),
    environment: p.text(),
    cpf: p.text(),
    name: p.text(),
    birthDate: p.text().nullable(),
    /** The lists screening has found the player on (pep, sanctions), empty when none: a later change acts only on a new one. */
    lastHits: p.array(),
    screenedAt: p.datetime(),
  },
});

/**
 * A brand's daily regulator file, made once for a day that is over and kept: the ledger part
 * (`accounts`) here, its line items in daily_file_lines (reports/daily-file-maker.ts).
 */
export const DailyReportEntity = defineEntity({
  name: 'DailyReport',
  tableName: 'daily_reports',
  schema: 'compliance',
  properties: {
    brandId: p.text().primary(),
    /** YYYY-MM-DD in `timeZone`. */
    date: p.text().primary(),
    timeZone: p.text(),
    from: p.datetime(),
    to: p.datetime(),
    generatedAt: p.datetime(),
    accounts: p.json<unknown[]>(),
    /** The brand's operator, when the service had seen it (its profile gave the time zone). */
    operatorId: p.text().nullable(),
    /** Where `timeZone` came from (query, profile, default); null for a file kept before this was. */
    timeZoneSource: p
      .text()
      .nullable()
      .check(oneOf('time_zone_source', ['query', 'profile', 'default'])),
    /** When the line items were all kept; null: the ledger part only so far (the next read or job run makes them). */
    linesMadeAt: p.datetime().nullable(),
    /** How many lines each part held when they were made. */
    counts: p.json<Record<string, number>>().nullable(),
    /** What the last check found, and when. */
    ties: p.boolean().nullable(),
    problems: p.json<string[]>().nullable(),
    checkedAt: p.datetime().nullable(),
  },
  // The list across brands, newest day first.
  indexes: [{ name: 'daily_reports_by_date', properties: ['date', 'brandId'] }],
});

/**
 * One line item of a kept daily file: a bettor, a deposit, a withdrawal, a game round or a status
 * change of the day (`data`, as the file gives it), keyed by what it describes so that making a
 * file twice (two replicas, a retry) keeps each line once.
 */
export const DailyFileLineEntity = defineEntity({
  name: 'DailyFileLine',
  tableName: 'daily_file_lines',
  schema: 'compliance',
  properties: {
    brandId: p.text().primary(),
    date: p.text().primary(),
    part: p
      .text()
      .primary()
      .check(oneOf('part', ['bettors', 'deposits', 'withdrawals', 'rounds', 'provider_transactions', 'status_changes'])),
    /** The player, deposit, withdrawal, round or status change id. */
    ref: p.text().primary(),
    playerId: p.text(),
    /** The line's time: registration, booking, payout, round, change. */
    at: p.datetime(),
    data: p.json<Record<string, unknown>>(),
  },
  // A part in the order the file lists it.
  indexes: [{ name: 'daily_file_lines_in_order', properties: ['brandId', 'date', 'part', 'at', 'ref'] }],
});

/**
 * One SIGAP file (issue #46; reports/sigap-files.ts): one part of a file type's version for a
 * brand's day, exactly as sent (`content`), with SIGAP's answer. A resend after a correction adds
 * the next version; the earlier one is kept (`supersededAt`) with its rejection.
 */
export const SigapFileEntity = defineEntity({
  name: 'SigapFile',
  tableName: 'sigap_files',
  schema: 'compliance',
  properties: {
    id: p.text().primary(),
    brandId: p.text(),
    operatorId: p.text().nullable(),
    environment: p
      .text()
      .nullable()
      .check(oneOf('environment', ['sandbox', 'production'])),
    date: p.text(),
    fileType: p.text().check(oneOf('file_type', SIGAP_FILE_TYPES)),
    version: p.integer(),
    part: p.integer(),
    parts: p.integer(),
    fileName: p.text(),
    records: p.integer(),
    checksum: p.text(),
    content: p.text(),
    status: p.text().check(oneOf('status', SIGAP_FILE_STATUSES)),
    via: p
      .text()
      .nullable()
      .check(oneOf('via', ['simulator', 'sigap'])),
    attempts: p.integer().default(0),
    receipt: p.text().nullable(),
    protocol: p.text().nullable(),
    phase: p
      .text()
      .nullable()
      .check(oneOf('phase', ['structure', 'quality'])),
    reasons: p.json<unknown[]>(),
    lastError: p.text().nullable(),
    correction: p.text().nullable(),
    madeAt: p.datetime(),
    /** When a sender took it (a sender that died leaves it `sending`: taken again after a while). */
    claimedAt: p.datetime().nullable(),
    submittedAt: p.datetime().nullable(),
    answeredAt: p.datetime().nullable(),
    supersededAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'sigap_files_by_date', properties: ['date', 'id'] }],
  // Two makers at once (replicas, the job and a request) keep each part of a version once.
  uniques: [{ name: 'sigap_files_once', properties: ['brandId', 'date', 'fileType', 'version', 'part'] }],
});

/**
 * A subject of the risk register (issue #46): a team member, partner or supplier of an operator (or
 * ours, `operator_id` null), with its current rating and review date. Never deleted: an ended
 * relationship is marked ended (records are kept five years).
 */
export const RiskSubjectEntity = defineEntity({
  name: 'RiskSubject',
  tableName: 'risk_subjects',
  schema: 'compliance',
  properties: {
    id: p.text().primary(),
    kind: p.text().check(oneOf('kind', RISK_SUBJECT_KINDS)),
    operatorId: p.text().nullable(),
    name: p.text(),
    /** CPF or CNPJ digits. */
    document: p.text().nullable().check("document ~ '^([0-9]{11}|[0-9]{14})$'"),
    teamMemberId: p.text().nullable(),
    status: p.text().check(oneOf('status', ['active', 'ended'])),
    rating: p.text().$type<RiskLevel>().check(oneOf('rating', RISK_LEVELS)),
    rationale: p.text(),
    ratedBy: p.text(),
    ratedAt: p.datetime(),
    reviewDueAt: p.datetime(),
    createdAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    endedBy: p.text().nullable(),
    endReason: p.text().nullable(),
  },
  // The register in review order (the overdue first).
  indexes: [{ name: 'risk_subjects_by_review', properties: ['status', 'reviewDueAt', 'id'] }],
  uniques: [
    // One active subject per operator, kind and document; one active rating of a team member of ours.
    {
      name: 'risk_subjects_one_per_document',
      expression: `create unique index "risk_subjects_one_per_document" on "compliance"."risk_subjects" ("kind", coalesce("operator_id", ''), "document") where status = 'active' and document is not null`,
    },
    {
      name: 'risk_subjects_one_per_team_member',
      expression: `create unique index "risk_subjects_one_per_team_member" on "compliance"."risk_subjects" (coalesce("operator_id", ''), "team_member_id") where status = 'active' and team_member_id is not null`,
    },
  ],
});
export type RiskSubjectRow = InstanceType<typeof RiskSubjectEntity.class>;

/** Every rating a subject was given (its first and each review), append-only. */
export const RiskSubjectRatingEntity = defineEntity({
  name: 'RiskSubjectRating',
  tableName: 'risk_subject_ratings',
  schema: 'compliance',
  properties: {
    id: p.bigint().primary().autoincrement(),
    subjectId: p.text(),
    rating: p.text().$type<RiskLevel>().check(oneOf('rating', RISK_LEVELS)),
    rationale: p.text(),
    by: p.text(),
    at: p.datetime(),
    reviewDueAt: p.datetime(),
  },
  indexes: [{ name: 'risk_subject_ratings_by_subject', properties: ['subjectId', 'id'] }],
});

/** An operator's yearly AML report to the SPA, one row per version made: the file as kept and its SHA-256. */
export const AnnualReportEntity = defineEntity({
  name: 'AnnualReport',
  tableName: 'annual_reports',
  schema: 'compliance',
  properties: {
    operatorId: p.text().primary(),
    year: p.integer().primary(),
    version: p.integer().primary(),
    timeZone: p.text(),
    madeAt: p.datetime(),
    madeBy: p.text(),
    /** The file's exact text (UTF-8 JSON): kept as text, so its hash holds byte for byte. */
    file: p.text(),
    sha256: p.text().check("sha256 ~ '^[0-9a-f]{64}$'"),
  },
});

export const complianceEntities = [
  AmlCaseEntity,
  AmlCaseStepEntity,
  AmlEvidenceEntity,
  WatchedMoneyEntity,
  PlayerRiskEntity,
  PlayerRiskHistoryEntity,
  BrandRulesEntity,
  ScreeningEntryEntity,
  ScreenedPlayerEntity,
  DailyReportEntity,
  DailyFileLineEntity,
  SigapFileEntity,
  RiskSubjectEntity,
  RiskSubjectRatingEntity,
  AnnualReportEntity,
];
