// The players schema as MikroORM entities, which describe it whole (columns, CHECK constraints,
// indexes, foreign keys): the ORM owns these tables, a new migration is generated from a change
// here (`npm run migration:create -w @bo/players`), and a test checks that the migrated schema and
// the entities agree (test/schema.test.ts). Statuses are plain strings checked by the database and
// typed by the contract's unions. The kit's own tables in this schema (outbox, stored answers)
// are the kit's, not entities (the kit's db.ts keeps the ORM's schema tools off them).
import { defineEntity, p } from '@mikro-orm/core';
import {
  DATA_REQUEST_STATUSES,
  DATA_REQUEST_TYPES,
  COMMUNICATION_CHANNELS,
  COMMUNICATION_KINDS,
  DOCUMENT_TYPES,
  GENDERS,
  type Gender,
  IMPEDIMENT_REASONS,
  INTERNAL_IMPEDIMENT_CATEGORIES,
  KYC_STATUSES,
  PLAYER_STATUSES,
  type ComplianceProfile,
  COMPLIANCE_CHANGE_STATUSES,
  type ComplianceChangeStatus,
  type ComplianceSettings,
  type DocumentType,
  type Environment,
  type InternalImpedimentCategory,
  type KycStatus,
  type LimitPeriod,
  type LimitType,
  type PlayerStatus,
  type PlayerPostalAddress,
  SUPPRESSION_REASONS,
  type SuppressionReason,
  LIMIT_PERIODS,
  LIMIT_TYPES,
} from '@bo/contracts';

const oneOf = (column: string, values: readonly string[]) => `${column} in (${values.map((v) => `'${v}'`).join(', ')})`;
/**
 * A player's rows, newest first: `(player_id, <time> desc, id desc)`. Written as an expression
 * (compared by name) because MikroORM 7.2.1 reads the sort order of an index column by its name
 * anywhere in the definition, so `id desc` after `player_id` reads as `id` ascending.
 */
const byPlayer = (table: string, time: string) => ({
  name: `${table}_by_player`,
  expression: `create index "${table}_by_player" on "players"."${table}" ("player_id", "${time}" desc, "id" desc)`,
});
/** The KYC statuses waiting for a decision: the queue's partial index. */
const KYC_QUEUE_STATUSES = ['em_analise', 'pendente', 'documento_solicitado'];

export const PlayerEntity = defineEntity({
  name: 'Player',
  tableName: 'players',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    operatorId: p.text(),
    brandId: p.text(),
    environment: p
      .text()
      .$type<Environment>()
      .check(oneOf('environment', ['sandbox', 'production'])),
    externalId: p.text().check('length(external_id) >= 1 and length(external_id) <= 128'),
    name: p.text().check('length(name) >= 2 and length(name) <= 200'),
    email: p.text().check('length(email) <= 254'),
    /** Digits only. */
    cpf: p.text().check("cpf ~ '^[0-9]{11}$'"),
    phone: p.text().nullable(),
    /** `YYYY-MM-DD`. */
    birthDate: p.date().nullable(),
    currency: p.text().check("currency ~ '^[A-Z]{3}$'"),
    status: p.text().$type<PlayerStatus>().check(oneOf('status', PLAYER_STATUSES)),
    kycStatus: p.text().$type<KycStatus>().check(oneOf('kyc_status', KYC_STATUSES)),
    /** Last change of the KYC record: a status change or a new submission. */
    kycUpdatedAt: p.datetime(),
    /**
     * A self-exclusion's end (null with `selfExcludedSince`: without end). Set alone by our team's
     * admin limits (v1.1): a date before which the player is treated as self-excluded.
     */
    selfExcludedUntil: p.datetime().nullable(),
    /** When the player's own self-exclusion began (POST /players/{id}/self-exclusion); null when none is running. */
    selfExcludedSince: p.datetime().nullable(),
    /**
     * The status a running self-exclusion replaced with `autoexcluido` (ativo, or our team's suspenso or
     * bloqueado), which its end gives back (domain/standing.ts). Null: none running, or one begun before
     * migration 0018 with no status found to keep (its end gives `ativo`, as it did).
     */
    statusBeforeSelfExclusion: p
      .text()
      .$type<PlayerStatus>()
      .nullable()
      .check(oneOf('status_before_self_exclusion', ['ativo', 'suspenso', 'bloqueado', 'encerrado'])),
    /** A pause the player chose: no deposits, sessions or rounds before it. */
    pausedUntil: p.datetime().nullable(),
    /** Our team's reality check for this player, more often than the operator's (issue #68); null: the operator's. */
    realityCheckMinutes: p.integer().nullable().check('reality_check_minutes >= 1'),
    /** br-spa: the last time the SPA registry answered "not impeded" for this player (docs/eligibility.md). */
    impedimentCheckedAt: p.datetime().nullable(),
    /** br-spa: when an impediment hit made the player `restrito` (the withdrawal window and the closing count from here). */
    restrictedAt: p.datetime().nullable(),
    /** br-spa: when payments took the balance of the player closed after a hit (impediments/flows/closing.ts). */
    closeoutDoneAt: p.datetime().nullable(),
    /**
     * A sanctions freeze (docs/aml.md): set by the compliance service's screening, cleared only by the
     * dismissal of the player's sanctions case. While set the status is `bloqueado` (the CHECK holds it:
     * a path that forgot the freeze fails instead of lifting it).
     */
    frozenAt: p.datetime().nullable().check("frozen_at is null or (status = 'bloqueado' and status_before_freeze is not null)"),
    /** The status a freeze holds: the one the player goes back to when it is lifted (flows that end meanwhile write here). */
    statusBeforeFreeze: p.text().$type<PlayerStatus>().nullable().check(oneOf('status_before_freeze', PLAYER_STATUSES)),
    /** Registered under br-spa: one such player per CPF per brand while not closed (players_one_per_cpf). */
    cpfUnique: p.boolean().default(false),
    /** As the bettor declared it at registration (Portaria 1.231/2024 art. 31 as amended by 2.579/2025). */
    gender: p.text().$type<Gender>().nullable().check(oneOf('gender', GENDERS)),
    /** The IP address the bettor registered from. */
    signupIp: p.text().nullable().check('length(signup_ip) <= 45'),
    /** The residential address as the contract's PlayerAddress (CEP as 8 digits); null: never given. */
    address: p.json<PlayerPostalAddress>().nullable(),
    /**
     * br-spa: what the last `player.registration_incomplete` said was missing (null: nothing announced,
     * or completed since: `player.registration_completed`). The announcing job and PATCH compare with it.
     */
    registrationAnnounced: p.json<string[]>().nullable(),
    /** The bettor's marketing consent (issue #60): given or withdrawn through the operator, forced off by a block. */
    marketingConsent: p.boolean().default(false),
    marketingConsentChangedAt: p.datetime().nullable(),
    /** When the retention sweep anonymised the player in every service (issue #69; five years after the account was closed). */
    anonymisedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  // externalId is unique per brand: a unique index holds it when two creates race.
  uniques: [{ name: 'players_brand_external_id', properties: ['brandId', 'externalId'] }],
  // Every status change, whichever path makes it, is recorded in its statement (PlayerStatusHistoryEntity).
  triggers: [
    {
      name: 'players_status_history',
      timing: 'after',
      events: ['update'],
      // As Postgres gives it back (information_schema.triggers), so the ORM finds nothing to change.
      when: '(old.status IS DISTINCT FROM new.status)',
      body: "insert into players.player_status_history (player_id, previous_status, status, at) values (new.id, old.status, new.status, date_trunc('milliseconds', clock_timestamp())); return null;",
    },
  ],
  indexes: [
    // The KYC queue: players waiting for a decision, newest change first.
    {
      name: 'players_kyc_queue',
      columns: [{ name: 'kyc_status' }, { name: 'kyc_updated_at', sort: 'desc' }, { name: 'id', sort: 'desc' }],
      where: oneOf('kyc_status', KYC_QUEUE_STATUSES),
    },
    // Our team's search: by CPF, e-mail (any case), externalId.
    { name: 'players_by_cpf', properties: ['cpf'] },
    // br-spa registration: the brand's player holding a CPF (one per CPF per brand), without scanning the brand.
    { name: 'players_brand_cpf', properties: ['brandId', 'cpf'] },
    // br-spa: one player per CPF per brand among those not closed, held when two registrations race.
    {
      name: 'players_one_per_cpf',
      expression: `create unique index "players_one_per_cpf" on "players"."players" ("brand_id", "cpf") where cpf_unique and status <> 'encerrado'`,
    },
    { name: 'players_by_email', expression: 'create index "players_by_email" on "players"."players" (lower(email))' },
    { name: 'players_by_external_id', properties: ['externalId'] },
    // After a hit (issue #60): the blocked players, for the closures report by the day after the block and the notices' gauge.
    {
      name: 'players_restricted',
      expression: 'create index "players_restricted" on "players"."players" ("brand_id", "restricted_at") where restricted_at is not null',
    },
  ],
});
export type PlayerRow = InstanceType<typeof PlayerEntity.class>;

/** A row's player, by id (`player_id references players (id)`, Postgres' default name and rules). */
const playerOf = (table: string) =>
  p.manyToOne(PlayerEntity).mapToPk().fieldName('player_id').foreignKeyName(`${table}_player_id_fkey`).updateRule('no action').deleteRule('no action');

export const KycSubmissionEntity = defineEntity({
  name: 'KycSubmission',
  tableName: 'kyc_submissions',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    playerId: () => playerOf('kyc_submissions'),
    documentType: p.text().$type<DocumentType>().check(oneOf('document_type', DOCUMENT_TYPES)),
    reference: p.text().check('length(reference) >= 1 and length(reference) <= 500'),
    createdAt: p.datetime(),
  },
  indexes: [byPlayer('kyc_submissions', 'created_at')],
});
export type KycSubmissionRow = InstanceType<typeof KycSubmissionEntity.class>;

/** Every KYC status change with who made it and why (the compliance console's history). */
export const KycHistoryEntity = defineEntity({
  name: 'KycHistory',
  tableName: 'kyc_history',
  schema: 'players',
  properties: {
    // `generated always as identity`: numbered by the database, never by a caller.
    id: p.bigint('string').primary().autoincrement().columnType('bigint').generated('identity'),
    playerId: () => playerOf('kyc_history'),
    previousStatus: p.text().$type<KycStatus>().check(oneOf('previous_status', KYC_STATUSES)),
    status: p.text().$type<KycStatus>().check(oneOf('status', KYC_STATUSES)),
    /** Who: a person of our team; null for a submission or a sandbox simulation. */
    actor: p.text().nullable(),
    reason: p.text().nullable().check('length(reason) <= 500'),
    at: p.datetime(),
  },
  indexes: [byPlayer('kyc_history', 'at')],
});
export type KycHistoryRow = InstanceType<typeof KycHistoryEntity.class>;

/**
 * An operator's compliance profile and the settings its rules read (contracts'
 * compliance-profile.ts). No row: `off` with the defaults. Keyed by operator: both of its brands
 * follow it.
 */
export const OperatorComplianceEntity = defineEntity({
  name: 'OperatorCompliance',
  tableName: 'operator_compliance',
  schema: 'players',
  properties: {
    operatorId: p.text().primary(),
    profile: p
      .text()
      .$type<ComplianceProfile>()
      .check(oneOf('profile', ['off', 'br-spa'])),
    timeZone: p.text(),
    coolingOffHours: p.integer().check('cooling_off_hours >= 0'),
    realityCheckMinutes: p.integer().check('reality_check_minutes >= 1'),
    /** br-spa: this operator's link to the central self-exclusion platform; null: the deployment's (issue #46 item 4). */
    selfExclusionPlatformUrl: p.text().nullable().check("self_exclusion_platform_url ~ '^https://' and length(self_exclusion_platform_url) <= 2048"),
    updatedAt: p.datetime(),
    updatedBy: p.text(),
  },
});
export type OperatorComplianceRow = InstanceType<typeof OperatorComplianceEntity.class>;

/**
 * A change of an operator's compliance profile that waits for a second person (issue #56): turning
 * the br-spa rules off. `pending` until another person confirms it (applied then) or someone
 * cancels it; `expired` once its time passed unconfirmed. The people are kept by id (four eyes
 * compares people) and by the name the audit log gives them.
 */
export const ComplianceChangeEntity = defineEntity({
  name: 'ComplianceChange',
  tableName: 'compliance_changes',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    operatorId: p.text(),
    status: p.text().$type<ComplianceChangeStatus>().check(oneOf('status', COMPLIANCE_CHANGE_STATUSES)),
    /** The profile and settings it sets once confirmed. */
    change: p.json<ComplianceSettings>(),
    fromProfile: p
      .text()
      .$type<ComplianceProfile>()
      .check(oneOf('from_profile', ['off', 'br-spa'])),
    reason: p.text().check('length(reason) >= 3 and length(reason) <= 500'),
    requestedBy: p.text(),
    requestedById: p.text(),
    requestedAt: p.datetime(),
    expiresAt: p.datetime(),
    decidedBy: p.text().nullable(),
    decidedById: p.text().nullable(),
    decidedAt: p.datetime().nullable(),
    decisionReason: p.text().nullable().check('length(decision_reason) >= 3 and length(decision_reason) <= 500'),
  },
  indexes: [{ name: 'compliance_changes_by_requested', properties: ['requestedAt', 'id'] }],
  // At most one change pending per operator: two requests at once insert one row.
  uniques: [
    {
      name: 'compliance_changes_one_pending',
      expression: `create unique index "compliance_changes_one_pending" on "players"."compliance_changes" ("operator_id") where status = 'pending'`,
    },
  ],
});
export type ComplianceChangeRow = InstanceType<typeof ComplianceChangeEntity.class>;

export const RG_HISTORY_KINDS = ['limit', 'pause', 'self_exclusion', 'self_exclusion_ended', 'self_exclusion_lifted', 'reality_check'] as const;
export type RgHistoryKind = (typeof RG_HISTORY_KINDS)[number];
export type RgChangeBy = 'operator' | 'team' | 'system';

/**
 * A player's limit of one type and period (docs/responsible-gaming.md). `value` is in force; a
 * relaxing change (a higher value, or a removal) waits in `pending_*` until its time, and is in
 * force from then on whether or not the row is rewritten (contracts' limitInForce). Money limits
 * are amounts; `time` limits whole minutes.
 */
export const RgLimitEntity = defineEntity({
  name: 'RgLimit',
  tableName: 'rg_limits',
  schema: 'players',
  properties: {
    id: p.bigint('string').primary().autoincrement().columnType('bigint').generated('identity'),
    playerId: () => playerOf('rg_limits'),
    type: p.text().$type<LimitType>().check(oneOf('type', LIMIT_TYPES)),
    period: p.text().$type<LimitPeriod>().check(oneOf('period', LIMIT_PERIODS)),
    value: p.decimal('string').precision(20).scale(2).check('value >= 0'),
    pendingValue: p.decimal('string').precision(20).scale(2).nullable(),
    /** A removal waiting for the cooling-off (`pending_value` null). */
    pendingRemoval: p.boolean(),
    pendingEffectiveAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
  uniques: [{ name: 'rg_limits_player_type_period', properties: ['playerId', 'type', 'period'] }],
});
export type RgLimitRow = InstanceType<typeof RgLimitEntity.class>;

/** Every responsible-gaming change of a player: old and new value, who, when (kept, never updated). */
export const RgHistoryEntity = defineEntity({
  name: 'RgHistory',
  tableName: 'rg_history',
  schema: 'players',
  properties: {
    id: p.bigint('string').primary().autoincrement().columnType('bigint').generated('identity'),
    playerId: () => playerOf('rg_history'),
    kind: p.text().$type<RgHistoryKind>().check(oneOf('kind', RG_HISTORY_KINDS)),
    type: p.text().$type<LimitType>().nullable(),
    period: p.text().$type<LimitPeriod>().nullable(),
    oldValue: p.text().nullable(),
    newValue: p.text().nullable(),
    effectiveAt: p.datetime().nullable(),
    by: p
      .text()
      .$type<RgChangeBy>()
      .check(oneOf('by', ['operator', 'team', 'system'])),
    actor: p.text().nullable(),
    reason: p.text().nullable().check('length(reason) <= 500'),
    at: p.datetime(),
  },
  indexes: [byPlayer('rg_history', 'at')],
});
export type RgHistoryRow = InstanceType<typeof RgHistoryEntity.class>;

/**
 * A measure our team took from a player's harm case (issue #68: the compliance service's
 * `players.rg.teamMeasure`), kept in the transaction that applied it under the case's measure id: the
 * same measure asked again (its reconciler, after a stop) changes nothing twice.
 */
export const TeamMeasureEntity = defineEntity({
  name: 'TeamMeasure',
  tableName: 'team_measures',
  schema: 'players',
  properties: {
    /** The compliance service's measure id. */
    id: p.text().primary(),
    playerId: () => playerOf('team_measures'),
    caseId: p.text(),
    measure: p.text(),
    appliedAt: p.datetime(),
  },
  indexes: [byPlayer('team_measures', 'applied_at')],
});

/** When a question was asked; `internal_listing`: our team put the player's CPF on the internal list. */
export const IMPEDIMENT_MOMENTS = ['registration', 'login', 'deposit', 'game_session', 'sweep', 'internal_listing'] as const;
export type ImpedimentMoment = (typeof IMPEDIMENT_MOMENTS)[number];
export const IMPEDIMENT_OUTCOMES = ['not_impeded', 'impeded', 'unavailable'] as const;
export type ImpedimentOutcome = (typeof IMPEDIMENT_OUTCOMES)[number];

/**
 * Every question put to an impediment registry under br-spa and its answer: the compliance
 * record (a refused registration leaves only this row; `playerId` is null then).
 */
export const ImpedimentCheckEntity = defineEntity({
  name: 'ImpedimentCheck',
  tableName: 'impediment_checks',
  schema: 'players',
  properties: {
    id: p.bigint('string').primary().autoincrement().columnType('bigint').generated('identity'),
    operatorId: p.text(),
    brandId: p.text(),
    playerId: p.text().nullable(),
    cpf: p.text().check("cpf ~ '^[0-9]{11}$'"),
    moment: p.text().$type<ImpedimentMoment>().check(oneOf('moment', IMPEDIMENT_MOMENTS)),
    outcome: p.text().$type<ImpedimentOutcome>().check(oneOf('outcome', IMPEDIMENT_OUTCOMES)),
    /** Comma-separated reasons of an `impeded` answer (kept for our team, never sent to the operator). */
    reasons: p.text().nullable(),
    at: p.datetime(),
  },
  indexes: [{ name: 'impediment_checks_by_cpf', properties: ['cpf', 'at'] }],
});

/** The simulated SPA registry's impeded CPFs, per operator (sandbox routes and our team set them). */
export const SimulatedImpedimentEntity = defineEntity({
  name: 'SimulatedImpediment',
  tableName: 'simulated_impediments',
  schema: 'players',
  properties: {
    operatorId: p.text().primary(),
    cpf: p.text().primary().check("cpf ~ '^[0-9]{11}$'"),
    reason: p.text().check(oneOf('reason', IMPEDIMENT_REASONS)),
    createdAt: p.datetime(),
  },
});

/**
 * Our internal impediments registry (Lei 14.790/2023 art. 26: the operator's staff, athletes,
 * referees, relatives…), kept by our compliance team through the admin API: one row per CPF,
 * consulted for production brands before the SPA registry (impediments/domain/internal-registry.ts).
 */
export const InternalImpedimentEntity = defineEntity({
  name: 'InternalImpediment',
  tableName: 'internal_impediments',
  schema: 'players',
  properties: {
    cpf: p.text().primary().check("cpf ~ '^[0-9]{11}$'"),
    category: p.text().$type<InternalImpedimentCategory>().check(oneOf('category', INTERNAL_IMPEDIMENT_CATEGORIES)),
    note: p.text().check('length(note) >= 1 and length(note) <= 500'),
    /** The team member who filed (or last refiled) it. */
    addedBy: p.text(),
    addedAt: p.datetime(),
  },
  // The list, newest first (read backwards).
  indexes: [{ name: 'internal_impediments_by_added', properties: ['addedAt', 'cpf'] }],
});
export type InternalImpedimentRow = InstanceType<typeof InternalImpedimentEntity.class>;

/**
 * One sweep of every active br-spa player: where it stands, so a sweep interrupted by a crash
 * goes on from its last committed batch (`cursor`: the last player id done).
 */
export const ImpedimentSweepEntity = defineEntity({
  name: 'ImpedimentSweep',
  tableName: 'impediment_sweeps',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    startedAt: p.datetime(),
    cursor: p.text().nullable(),
    checked: p.integer(),
    hits: p.integer(),
    unavailable: p.integer(),
    finishedAt: p.datetime().nullable(),
  },
  // At most one sweep under way: two replicas starting one at once insert one row.
  uniques: [
    {
      name: 'impediment_sweeps_one_open',
      expression: 'create unique index "impediment_sweeps_one_open" on "players"."impediment_sweeps" ((finished_at is null)) where finished_at is null',
    },
  ],
});
export type ImpedimentSweepRow = InstanceType<typeof ImpedimentSweepEntity.class>;

/**
 * Every change of a player's account status (the daily regulator file's status changes, docs/aml.md),
 * written by a trigger on players.players (PlayerEntity's) in the statement that changes it, whatever path changed
 * it (our team, the player's self-exclusion and its end, screening, the impediment rules): no path
 * can forget it. Who and why stay where each path keeps them (the audit log, the RG history).
 */
export const PlayerStatusHistoryEntity = defineEntity({
  name: 'PlayerStatusHistory',
  tableName: 'player_status_history',
  schema: 'players',
  properties: {
    id: p.bigint('string').primary().autoincrement().columnType('bigint').generated('identity'),
    playerId: () => playerOf('player_status_history'),
    previousStatus: p.text().$type<PlayerStatus>().check(oneOf('previous_status', PLAYER_STATUSES)),
    status: p.text().$type<PlayerStatus>().check(oneOf('status', PLAYER_STATUSES)),
    at: p.datetime(),
  },
  indexes: [byPlayer('player_status_history', 'at'), { name: 'player_status_history_by_time', properties: ['at'] }],
  // Append-only, like the ledger: a record kept five years (docs/aml.md).
  triggers: [
    {
      name: 'player_status_history_append_only',
      timing: 'before',
      events: ['update', 'delete'],
      body: "raise exception 'player_status_history is append-only: % refused', tg_op using errcode = 'P0001';",
    },
  ],
});

/**
 * A brand's terms and conditions versions, as the operator publishes them (POST /terms-versions).
 * The one in force at a moment is the newest published at or before it. Never changed nor deleted:
 * what a bettor accepted stays readable.
 */
export const TermsVersionEntity = defineEntity({
  name: 'TermsVersion',
  tableName: 'terms_versions',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    operatorId: p.text(),
    brandId: p.text(),
    version: p.text().check('length(version) >= 1 and length(version) <= 64'),
    publishedAt: p.datetime(),
    url: p.text().nullable().check('length(url) <= 2048'),
    createdAt: p.datetime(),
  },
  uniques: [{ name: 'terms_versions_brand_version', properties: ['brandId', 'version'] }],
  // The version in force and the list: the brand's versions by publication, newest first (read backwards).
  indexes: [{ name: 'terms_versions_by_brand', properties: ['brandId', 'publishedAt'] }],
});
export type TermsVersionRow = InstanceType<typeof TermsVersionEntity.class>;

/** A bettor's acceptance of a terms version: which, when, from which IP address (kept as reported, append-only). */
export const TermsAcceptanceEntity = defineEntity({
  name: 'TermsAcceptance',
  tableName: 'terms_acceptances',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    playerId: () => playerOf('terms_acceptances'),
    version: p.text(),
    acceptedAt: p.datetime(),
    ip: p.text().check('length(ip) <= 45'),
    createdAt: p.datetime(),
  },
  indexes: [byPlayer('terms_acceptances', 'accepted_at')],
  triggers: [
    {
      name: 'terms_acceptances_append_only',
      timing: 'before',
      events: ['update', 'delete'],
      // An anonymisation (issue #69) may overwrite the IP, never delete a row.
      body: "if tg_op = 'UPDATE' and current_setting('bo.anonymising', true) = 'on' then return new; end if; raise exception 'terms_acceptances is append-only: % refused', tg_op using errcode = 'P0001';",
    },
  ],
});
export type TermsAcceptanceRow = InstanceType<typeof TermsAcceptanceEntity.class>;

/**
 * A message the operator sent a bettor, as the operator reports it (issue #46 item 4; IN SPA/MF
 * 31/2025: every communication after an impediment hit is recorded and kept five years). Never
 * changed; deleted by nothing before `retain_until` (a trigger refuses both).
 */
export const CommunicationEntity = defineEntity({
  name: 'Communication',
  tableName: 'communications',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    playerId: () => playerOf('communications'),
    channel: p.text().check(oneOf('channel', COMMUNICATION_CHANNELS)),
    kind: p.text().check(oneOf('kind', COMMUNICATION_KINDS)),
    sentAt: p.datetime(),
    summary: p.text().check('length(summary) >= 1 and length(summary) <= 2000'),
    reference: p.text().nullable().check('length(reference) >= 1 and length(reference) <= 128'),
    recordedAt: p.datetime(),
    retainUntil: p.datetime(),
  },
  indexes: [byPlayer('communications', 'sent_at')],
  triggers: [
    {
      name: 'communications_append_only',
      timing: 'before',
      events: ['update'],
      body: "raise exception 'communications is append-only: % refused', tg_op using errcode = 'P0001';",
    },
    {
      name: 'communications_retained',
      timing: 'before',
      events: ['delete'],
      body: "if old.retain_until > now() then raise exception 'communication % is kept until %', old.id, old.retain_until using errcode = 'P0001'; end if; return old;",
    },
  ],
});
export type CommunicationRow = InstanceType<typeof CommunicationEntity.class>;

/**
 * Every change of a player's registration data and marketing consent (issue #60): the field, its value
 * before and after, who (`operator` through the API with its request id, `team`, `system` for a consent a
 * block forced off), when. Append-only: a trigger refuses update and delete.
 */
export const RegistrationChangeEntity = defineEntity({
  name: 'RegistrationChange',
  tableName: 'registration_changes',
  schema: 'players',
  properties: {
    id: p.bigint('string').primary().autoincrement().columnType('bigint').generated('identity'),
    playerId: () => playerOf('registration_changes'),
    field: p.text().check('length(field) >= 1 and length(field) <= 64'),
    oldValue: p.json<unknown>().nullable(),
    newValue: p.json<unknown>().nullable(),
    by: p
      .text()
      .$type<RgChangeBy>()
      .check(oneOf('by', ['operator', 'team', 'system'])),
    actor: p.text().nullable(),
    requestId: p.text().nullable(),
    at: p.datetime(),
  },
  indexes: [byPlayer('registration_changes', 'at')],
  triggers: [
    {
      name: 'registration_changes_append_only',
      timing: 'before',
      events: ['update', 'delete'],
      // An anonymisation (issue #69) may overwrite a value, never delete a row: the kit's transaction sets bo.anonymising.
      body: "if tg_op = 'UPDATE' and current_setting('bo.anonymising', true) = 'on' then return new; end if; raise exception 'registration_changes is append-only: % refused', tg_op using errcode = 'P0001';",
    },
  ],
});
export type RegistrationChangeRow = InstanceType<typeof RegistrationChangeEntity.class>;

/**
 * Why a player may not be sent marketing, and over which time (issue #60 item 2): a block (self-exclusion,
 * pause, impediment, closing) from its start to its end (null: open), or a consent the bettor withdrew
 * until given again. The daily suppression list is the rows whose time meets the day. Kept, never deleted;
 * `until_at` is set when the reason ends.
 */
export const MarketingSuppressionEntity = defineEntity({
  name: 'MarketingSuppression',
  tableName: 'marketing_suppressions',
  schema: 'players',
  properties: {
    id: p.bigint('string').primary().autoincrement().columnType('bigint').generated('identity'),
    playerId: () => playerOf('marketing_suppressions'),
    brandId: p.text(),
    reason: p.text().$type<SuppressionReason>().check(oneOf('reason', SUPPRESSION_REASONS)),
    fromAt: p.datetime(),
    untilAt: p.datetime().nullable().check('until_at is null or until_at >= from_at'),
  },
  indexes: [
    { name: 'marketing_suppressions_by_brand', properties: ['brandId', 'playerId'] },
    { name: 'marketing_suppressions_by_player', properties: ['playerId', 'reason'] },
  ],
});
export type MarketingSuppressionRow = InstanceType<typeof MarketingSuppressionEntity.class>;

/**
 * A player's data request under the LGPD (issue #69; privacy/): filed by the operator, answered at once
 * when every service answers (else by the privacy loop), due 15 days after it was received (art. 19, II).
 * `answer_file`: the access or portability file as answered (JSON), its SHA-256 in `answer`.
 */
export const DataRequestEntity = defineEntity({
  name: 'DataRequest',
  tableName: 'data_requests',
  schema: 'players',
  properties: {
    id: p.text().primary(),
    operatorId: p.text(),
    brandId: p.text(),
    environment: p.text(),
    playerId: () => playerOf('data_requests'),
    type: p.text().check(oneOf('type', DATA_REQUEST_TYPES)),
    status: p.text().check(oneOf('status', DATA_REQUEST_STATUSES)),
    reference: p.text().nullable().check('length(reference) >= 1 and length(reference) <= 200'),
    corrections: p.json().nullable(),
    receivedAt: p.datetime(),
    dueAt: p.datetime(),
    answeredAt: p.datetime().nullable(),
    answer: p.json().nullable(),
    answerFile: p.text().nullable(),
    requestId: p.text(),
  },
  indexes: [
    byPlayer('data_requests', 'received_at'),
    { name: 'data_requests_open', expression: `create index "data_requests_open" on "players"."data_requests" ("due_at") where status = 'received'` },
  ],
});

export const playerEntities = [
  PlayerEntity,
  KycSubmissionEntity,
  KycHistoryEntity,
  OperatorComplianceEntity,
  ComplianceChangeEntity,
  RgLimitEntity,
  RgHistoryEntity,
  TeamMeasureEntity,
  ImpedimentCheckEntity,
  SimulatedImpedimentEntity,
  ImpedimentSweepEntity,
  PlayerStatusHistoryEntity,
  InternalImpedimentEntity,
  TermsVersionEntity,
  TermsAcceptanceEntity,
  CommunicationEntity,
  RegistrationChangeEntity,
  MarketingSuppressionEntity,
  DataRequestEntity,
];
