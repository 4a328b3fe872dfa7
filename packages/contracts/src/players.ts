import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox';
import { EnvironmentSchema, List, MoneyBoundInput, Nullable, Page, Timestamp, idOf, pageQuery } from './common.ts';
import { defineOperations } from './operations.ts';
import { NewLimitSchema, RgRulesSchema } from './responsible-gaming.ts';
import { defineMessages } from './messages.ts';
import { ComplianceProfileSchema } from './compliance-profile.ts';
import { IpAddress, TermsAcceptanceInputSchema, TermsAcceptanceSchema } from './terms.ts';
import { MarketingPermissionSchema } from './marketing.ts';

export const PLAYER_STATUSES = ['ativo', 'suspenso', 'bloqueado', 'autoexcluido', 'encerrado', 'restrito'] as const;
export const KYC_STATUSES = ['nao_iniciado', 'pendente', 'em_analise', 'documento_solicitado', 'aprovado', 'reprovado', 'expirado'] as const;
export const DOCUMENT_TYPES = ['rg', 'cnh', 'passaporte', 'rne', 'selfie', 'comprovante_residencia'] as const;
export type PlayerStatus = (typeof PLAYER_STATUSES)[number];
export type KycStatus = (typeof KYC_STATUSES)[number];
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

// Typed so that Static<> gives the union of the values, not `string`.
const literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as TUnion<TLiteral<T[number]>[]>;
export const PlayerStatusSchema = literals(PLAYER_STATUSES);
export const KycStatusSchema = literals(KYC_STATUSES);
/** Every KYC status a decision may set (all but nao_iniciado). */
export const KycDecisionStatusSchema = literals(KYC_STATUSES.filter((s): s is Exclude<KycStatus, 'nao_iniciado'> => s !== 'nao_iniciado'));
export const DocumentTypeSchema = literals(DOCUMENT_TYPES);
/** The bettor's gender as they declare it (Portaria SPA/MF 1.231/2024 art. 31, as amended by 2.579/2025). */
export const GENDERS = ['feminino', 'masculino', 'outro', 'nao_informado'] as const;
export type Gender = (typeof GENDERS)[number];
export const GenderSchema = literals(GENDERS);
/** The 27 federative units (UF) of a Brazilian address. */
export const BR_STATES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;
/** The bettor's residential address (Portaria SPA/MF 1.231/2024 art. 31 as amended by 2.579/2025, as reported: docs/players.md). */
export const PlayerAddressSchema = Type.Object(
  {
    street: Type.String({ minLength: 1, maxLength: 200 }),
    number: Type.String({ minLength: 1, maxLength: 20, description: 'the building number, or `s/n`' }),
    complement: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    district: Type.String({ minLength: 1, maxLength: 100, description: 'bairro' }),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    state: literals(BR_STATES),
    /** CEP: 8 digits, with or without the hyphen; kept and returned as 8 digits. */
    postalCode: Type.String({ pattern: '^[0-9]{5}-?[0-9]{3}$', description: 'CEP, 00000-000 or 00000000' }),
  },
  { additionalProperties: false, $id: 'PlayerAddress' },
);
export type PlayerAddress = Static<typeof PlayerAddressSchema>;
/**
 * What a br-spa registration must carry beyond name, e-mail, CPF and birth date (docs/players.md,
 * "Registration data"): a field by its property name, a required limit by its type (`loss`, `time`).
 * A player missing any is restricted until the operator completes it (PATCH /players/{playerId},
 * PUT …/limits): Portaria 1.231/2024 art. 34 sole paragraph.
 */
export const REGISTRATION_FIELDS = ['phone', 'gender', 'signupIp', 'address'] as const;
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];
export const REGISTRATION_ITEMS = [...REGISTRATION_FIELDS, 'loss', 'time'] as const;
export type RegistrationItem = (typeof REGISTRATION_ITEMS)[number];
export const RegistrationStatusSchema = Type.Object(
  {
    complete: Type.Boolean(),
    /** What is still missing, in REGISTRATION_ITEMS' order (empty when complete). */
    missing: Type.Array(literals(REGISTRATION_ITEMS)),
  },
  { additionalProperties: false, $id: 'RegistrationStatus' },
);
export type RegistrationStatus = Static<typeof RegistrationStatusSchema>;

export const PlayerSchema = Type.Object(
  {
    id: idOf('plr'),
    externalId: Nullable(Type.String()),
    name: Type.String(),
    email: Type.String(),
    cpf: Type.String({ pattern: '^[0-9]{11}$' }),
    phone: Nullable(Type.String()),
    birthDate: Nullable(Type.String({ format: 'calendar-date' })),
    status: PlayerStatusSchema,
    kycStatus: KycStatusSchema,
    currency: Type.String(),
    createdAt: Timestamp,
    /** Present when given at registration. */
    gender: Type.Optional(GenderSchema),
    /** The IP address the bettor registered from; present when given at registration. */
    signupIp: Type.Optional(Type.String()),
    /** The residential address; present when given. */
    address: Type.Optional(PlayerAddressSchema),
    /** br-spa: whether the registration data the profile requires is complete, and what is missing (absent under `off`). */
    registration: Type.Optional(RegistrationStatusSchema),
    /** The bettor's marketing permission: consent, and what keeps it off (docs/players.md, "Marketing permission"). */
    marketing: Type.Optional(MarketingPermissionSchema),
  },
  { additionalProperties: false, $id: 'Player' },
);
export type Player = Static<typeof PlayerSchema>;

export const CreatePlayerSchema = Type.Object(
  {
    externalId: Type.String({ minLength: 1, maxLength: 128 }),
    name: Type.String({ minLength: 2, maxLength: 200 }),
    email: Type.String({ format: 'email', maxLength: 254 }),
    cpf: Type.String({ format: 'cpf', description: 'Valid CPF, with or without punctuation' }),
    phone: Type.Optional(Type.String({ pattern: '^\\+?[0-9]{10,15}$' })),
    birthDate: Type.String({ format: 'adult-birth-date', description: 'YYYY-MM-DD, a real date; the player must be at least 18' }),
    /** Limits collected at registration: under br-spa a loss and a time limit are required (422 naming the missing ones). */
    limits: Type.Optional(Type.Array(NewLimitSchema, { maxItems: 12 })),
    gender: Type.Optional(GenderSchema),
    /** The IP address the bettor registered from. */
    signupIp: Type.Optional(IpAddress),
    /** The bettor's acceptance of the brand's terms during the sign-up (a published version). */
    termsAccepted: Type.Optional(TermsAcceptanceInputSchema),
    /** The residential address (required under br-spa). */
    address: Type.Optional(PlayerAddressSchema),
    /** The bettor agreed to receive marketing at the sign-up (absent: no consent). */
    marketingConsent: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreatePlayer' },
);
export type CreatePlayer = Static<typeof CreatePlayerSchema>;

const NEVER_CHANGES = 'never changes after registration';
/**
 * The operator completes or corrects a player's registration data: any of these fields, at least
 * one. The CPF and the birth date never change (422 naming them).
 */
export const UpdatePlayerSchema = Type.Object(
  {
    name: Type.Optional(CreatePlayerSchema.properties.name),
    email: Type.Optional(CreatePlayerSchema.properties.email),
    phone: Type.Optional(Type.String({ pattern: '^\\+?[0-9]{10,15}$' })),
    gender: Type.Optional(GenderSchema),
    /** The IP address the bettor registered from, for a player registered without it. */
    signupIp: Type.Optional(IpAddress),
    address: Type.Optional(PlayerAddressSchema),
    cpf: Type.Optional(Type.Never({ description: NEVER_CHANGES })),
    birthDate: Type.Optional(Type.Never({ description: NEVER_CHANGES })),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdatePlayer' },
);
export type UpdatePlayer = Static<typeof UpdatePlayerSchema>;
/** One change of a registration field: the value before and after, who (`operator`: through the API, with its key; `team`), when. */
export const RegistrationChangeSchema = Type.Object(
  {
    field: Type.String(),
    oldValue: Type.Unknown(),
    newValue: Type.Unknown(),
    by: Type.String(),
    actor: Nullable(Type.String()),
    requestId: Nullable(Type.String()),
    at: Timestamp,
  },
  { additionalProperties: false, $id: 'RegistrationChange' },
);
export type RegistrationChange = Static<typeof RegistrationChangeSchema>;

export const KycSubmissionSchema = Type.Object(
  {
    id: idOf('kyc'),
    documentType: DocumentTypeSchema,
    reference: Type.String(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);
export const KycRecordSchema = Type.Object(
  {
    playerId: idOf('plr'),
    status: KycStatusSchema,
    submissions: Type.Array(KycSubmissionSchema),
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'KycRecord' },
);
export type KycRecord = Static<typeof KycRecordSchema>;

export const CreateKycSubmissionSchema = Type.Object(
  {
    documentType: DocumentTypeSchema,
    reference: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { $id: 'CreateKycSubmission' },
);
export const KycSubmissionCreatedSchema = Type.Object(
  {
    id: idOf('kyc'),
    playerId: idOf('plr'),
    documentType: DocumentTypeSchema,
    reference: Type.String(),
    createdAt: Timestamp,
    kycStatus: KycStatusSchema,
  },
  { additionalProperties: false, $id: 'KycSubmissionCreated' },
);

export const KycDecisionSchema = Type.Object({ status: KycDecisionStatusSchema }, { $id: 'KycDecision' });
export const PlayerIdParams = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) });
export const FindPlayersQuery = Type.Object({ externalId: Type.String({ minLength: 1, maxLength: 128 }) });

export const playerOperations = defineOperations({
  createPlayer: {
    id: 'createPlayer',
    method: 'POST',
    path: '/players',
    subject: 'players.create',
    tag: 'Players',
    summary: 'Register a player',
    body: CreatePlayerSchema,
    response: PlayerSchema,
    status: 201,
    idempotent: true,
    errors: ['PLAYER_ALREADY_EXISTS'],
  },
  findPlayers: {
    id: 'findPlayers',
    method: 'GET',
    path: '/players',
    subject: 'players.find',
    tag: 'Players',
    summary: 'Find players by externalId',
    query: FindPlayersQuery,
    response: List(PlayerSchema),
    status: 200,
  },
  getPlayer: {
    id: 'getPlayer',
    method: 'GET',
    path: '/players/:playerId',
    subject: 'players.get',
    tag: 'Players',
    summary: 'A player of your brand, by its id',
    params: PlayerIdParams,
    response: PlayerSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  updatePlayer: {
    id: 'updatePlayer',
    method: 'PATCH',
    path: '/players/:playerId',
    subject: 'players.update',
    tag: 'Players',
    summary: "Complete or correct a player's registration data (never the CPF nor the birth date); each change is kept with who and when",
    params: PlayerIdParams,
    body: UpdatePlayerSchema,
    response: PlayerSchema,
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND'],
  },
  getKyc: {
    id: 'getKyc',
    method: 'GET',
    path: '/players/:playerId/kyc',
    subject: 'players.kyc.get',
    tag: 'KYC',
    summary: 'KYC status and submissions of a player',
    params: PlayerIdParams,
    response: KycRecordSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  submitKyc: {
    id: 'submitKyc',
    method: 'POST',
    path: '/players/:playerId/kyc/submissions',
    subject: 'players.kyc.submit',
    tag: 'KYC',
    summary: 'Register a KYC document submission',
    params: PlayerIdParams,
    body: CreateKycSubmissionSchema,
    response: KycSubmissionCreatedSchema,
    status: 201,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND', 'KYC_ALREADY_APPROVED'],
  },
  sandboxKycDecision: {
    id: 'sandboxKycDecision',
    method: 'POST',
    path: '/sandbox/players/:playerId/kyc/decision',
    subject: 'players.kyc.decide',
    tag: 'Sandbox',
    summary: 'Simulate the compliance team KYC decision',
    params: PlayerIdParams,
    body: KycDecisionSchema,
    response: KycRecordSchema,
    status: 200,
    sandboxOnly: true,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

// ---- admin (our team) ----
export const PlayerLimitsSchema = Type.Object(
  {
    // null: no limit; 0: no deposits at all.
    dailyDepositLimit: Nullable(MoneyBoundInput),
    selfExcludedUntil: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'PlayerLimits' },
);
export const PlayerLimitsResultSchema = Type.Object({
  playerId: Type.String(),
  dailyDepositLimit: Nullable(Type.String()),
  selfExcludedUntil: Nullable(Type.String()),
});
export const AdminPlayerIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** A player as our team sees it: the contract's player and where it lives. */
export const AdminPlayerSchema = Type.Object(
  {
    ...PlayerSchema.properties,
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: Type.String(),
  },
  { $id: 'AdminPlayer' },
);
/** One KYC status change: who made it (null: the operator's submission or sandbox simulation) and why. */
export const KycHistoryItemSchema = Type.Object(
  {
    previousStatus: KycStatusSchema,
    status: KycStatusSchema,
    actor: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    at: Timestamp,
  },
  { $id: 'KycHistoryItem' },
);
/**
 * What holds a player's status and the flow that ends it (docs/console.md, "Which flow ends which
 * restriction"): a running self-exclusion, a sanctions freeze, an impediment restriction. Our team's
 * generic status change cannot end them (409 STANDING_HAS_OWN_FLOW).
 */
export const STANDING_HOLDS = ['self_exclusion', 'sanctions_freeze', 'impediment'] as const;
export type StandingHold = (typeof STANDING_HOLDS)[number];
export const StandingSchema = Type.Object(
  {
    /** What holds the status; null: nothing, the generic status change may set any status but `restrito`. */
    heldBy: Nullable(literals(STANDING_HOLDS)),
    /** The flow that ends it, in words (null when nothing holds the status). */
    flow: Nullable(Type.String()),
    /** The statuses the generic status change may set now (the current one included). */
    statuses: Type.Array(PlayerStatusSchema),
  },
  { $id: 'PlayerStanding' },
);
export type Standing = Static<typeof StandingSchema>;

/** A player with everything a reviewer reads: KYC submissions and history, limits, what holds the status. */
export const AdminPlayerFileSchema = Type.Object(
  {
    player: AdminPlayerSchema,
    standing: StandingSchema,
    kyc: Type.Object({
      status: KycStatusSchema,
      updatedAt: Timestamp,
      submissions: Type.Array(KycSubmissionSchema),
      history: Type.Array(KycHistoryItemSchema),
    }),
    limits: PlayerLimitsResultSchema,
    /** The player's acceptances of the brand's terms, newest first (issue 46). */
    termsAcceptances: Type.Array(TermsAcceptanceSchema),
    /** br-spa: the registration data's completeness (null under `off`), and every change of it, newest first (issue #60). */
    registration: Type.Optional(
      Type.Object({ status: Nullable(RegistrationStatusSchema), changes: Type.Array(RegistrationChangeSchema) }, { additionalProperties: false }),
    ),
  },
  { $id: 'AdminPlayerFile' },
);
export const AdminKycDecisionSchema = Type.Object(
  {
    status: KycDecisionStatusSchema,
    /** Why: kept in the player's KYC history and the audit log. */
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { $id: 'AdminKycDecision' },
);
/** The statuses of a player waiting for compliance. */
export const KYC_REVIEW_STATUSES = ['em_analise', 'pendente', 'documento_solicitado'] as const;

export const playerAdminOperations = defineOperations({
  adminSetPlayerStatus: {
    id: 'adminSetPlayerStatus',
    method: 'POST',
    path: '/admin/players/:id/status',
    subject: 'players.admin.status',
    tag: 'Admin',
    summary:
      'Set a player status (not one a self-exclusion, a sanctions freeze or an impediment holds: those end through their own flows; never restrito or autoexcluido, each reached only through its flow)',
    params: AdminPlayerIdParams,
    body: Type.Object({ status: PlayerStatusSchema }),
    response: PlayerSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'STANDING_HAS_OWN_FLOW', 'PLAYER_CPF_EXISTS'],
  },
  adminSetPlayerLimits: {
    id: 'adminSetPlayerLimits',
    method: 'PUT',
    path: '/admin/players/:id/limits',
    subject: 'players.admin.limits',
    tag: 'Admin',
    summary:
      "Set v1.1's limits: the deposit/day limit, and a self-exclusion date that starts a self-exclusion or moves the running one's end later (never ends or shortens one: 409 STANDING_HAS_OWN_FLOW naming the flow that does)",
    params: AdminPlayerIdParams,
    body: PlayerLimitsSchema,
    response: PlayerLimitsResultSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND', 'STANDING_HAS_OWN_FLOW'],
  },
  adminKycDecision: {
    id: 'adminKycDecision',
    method: 'POST',
    path: '/admin/players/:id/kyc/decision',
    subject: 'players.admin.kycDecision',
    tag: 'Admin',
    summary: 'Record the compliance team KYC decision, with a reason',
    params: AdminPlayerIdParams,
    body: AdminKycDecisionSchema,
    response: KycRecordSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  adminKycQueue: {
    id: 'adminKycQueue',
    method: 'GET',
    path: '/admin/kyc-queue',
    subject: 'players.admin.kycQueue',
    tag: 'Admin',
    summary: 'Players waiting for a KYC decision, newest change first, with submissions and history',
    query: Type.Object({
      status: Type.Optional(literals(KYC_REVIEW_STATUSES)),
      /** One environment's queue (the console shows production unless asked for the sandbox); both when absent. */
      environment: Type.Optional(EnvironmentSchema),
      ...pageQuery(100),
    }),
    response: Page(AdminPlayerFileSchema),
    status: 200,
  },
  adminSearchPlayers: {
    id: 'adminSearchPlayers',
    method: 'GET',
    path: '/admin/players',
    subject: 'players.admin.search',
    tag: 'Admin',
    summary:
      'Find players by id, externalId, CPF or e-mail (exact match), or by name (containing the words typed, from 3 characters); any brand unless narrowed',
    query: Type.Object({
      q: Type.String({ minLength: 1, maxLength: 254 }),
      /** One environment's players; both when absent. */
      environment: Type.Optional(EnvironmentSchema),
      operatorId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    response: List(AdminPlayerSchema),
    status: 200,
  },
  adminGetPlayer: {
    id: 'adminGetPlayer',
    method: 'GET',
    path: '/admin/players/:id',
    subject: 'players.admin.get',
    tag: 'Admin',
    summary: 'A player with KYC submissions, KYC history and limits',
    params: AdminPlayerIdParams,
    response: AdminPlayerFileSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

// ---- internal: other services ask the players service ----
/** `players.state`: what deposits, withdrawals and game sessions need to apply their rules. */
export const PLAYER_STATE_SUBJECT = 'players.state';
export const PlayerStateRequestSchema = Type.Object({
  brandId: Type.String({ minLength: 1, maxLength: 64 }),
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type PlayerStateRequest = Static<typeof PlayerStateRequestSchema>;
export const PlayerStateSchema = Type.Object({
  exists: Type.Boolean(),
  playerId: Type.String(),
  externalId: Type.Optional(Nullable(Type.String())),
  currency: Type.Optional(Type.String()),
  status: Type.Optional(PlayerStatusSchema),
  kycStatus: Type.Optional(KycStatusSchema),
  /** autoexcluido, or selfExcludedUntil in the future. */
  selfExcluded: Type.Optional(Type.Boolean()),
  selfExcludedUntil: Type.Optional(Nullable(Type.String())),
  dailyDepositLimit: Type.Optional(Nullable(Type.String())),
  /** The responsible-gaming rules the enforcing services apply (absent for an unknown player). */
  rg: Type.Optional(RgRulesSchema),
  /** The operator's compliance profile (absent: `off`), and what its `br-spa` payment rules read. */
  compliance: Type.Optional(ComplianceProfileSchema),
  cpf: Type.Optional(Type.String()),
  /** When an impediment hit restricted the player (`restrito`): withdrawals stay open for a window from here. */
  restrictedAt: Type.Optional(Nullable(Type.String())),
  /** Until when a restricted player may still withdraw (restrictedAt + the window). */
  withdrawalsUntil: Type.Optional(Nullable(Type.String())),
  /** br-spa: the player's last successful impediment check (activityCheckDue reads it). */
  impedimentCheckedAt: Type.Optional(Nullable(Type.String())),
});
export type PlayerState = Static<typeof PlayerStateSchema>;

/** `<prefix>.players.changed` (core NATS broadcast): what players.state answers for this player changed. */
export const PlayerChangedSchema = Type.Object({ playerId: Type.String() });
/** The `playerId` of a broadcast that concerns every player (an operator's compliance profile changed). */
export const EVERY_PLAYER = '*';
export type PlayerChanged = Static<typeof PlayerChangedSchema>;

export const playerMessages = defineMessages({
  state: { subject: PLAYER_STATE_SUBJECT, body: PlayerStateRequestSchema, reply: PlayerStateSchema },
});

/**
 * `players.summaries`: who these players are, for the services whose admin lists our team reads by
 * name (issue #61: the withdrawal queue, providers' open rounds and debts): name, externalId, status
 * and KYC status of each player found, in one question for a page of them.
 */
export const PlayerSummarySchema = Type.Object({
  id: Type.String(),
  brandId: Type.String(),
  externalId: Nullable(Type.String()),
  name: Type.String(),
  status: PlayerStatusSchema,
  kycStatus: KycStatusSchema,
});
export type PlayerSummary = Static<typeof PlayerSummarySchema>;
export const PLAYER_SUMMARIES_MAX = 200;
export const playerSummaryMessages = defineMessages({
  summaries: {
    subject: 'players.summaries',
    body: Type.Object({ playerIds: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: PLAYER_SUMMARIES_MAX }) }),
    reply: Type.Object({ players: Type.Array(PlayerSummarySchema) }),
  },
});
