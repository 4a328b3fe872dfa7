// Public surface of @bo/contracts: schemas, operations, messages, errors, subjects, signing, validation
// and the OpenAPI builder, each named here.
export {
  AppError,
  ERROR_CATALOGUE,
  isAppError,
  isErrorCode,
  statusOf,
  validationError,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetails,
  type ValidationIssue,
} from './errors.ts';
export { ID_PREFIXES, newId, type IdKind } from './ids.ts';
export { MAX_AMOUNT, generateCpf, isAdult, isCalendarDate, isEmail, isIsoDateTime, isValidCpf, normaliseCpf, registerFormats } from './formats.ts';
export {
  API_VERSION,
  Currency,
  DEFAULT_CURRENCY,
  ENVIRONMENTS,
  EmptyObject,
  EnvironmentSchema,
  ErrorEnvelope,
  List,
  Money,
  MoneyBoundInput,
  MoneyInput,
  Nullable,
  Page,
  Timestamp,
  ValidationIssueSchema,
  idOf,
  type Environment,
} from './common.ts';
export {
  COMPLIANCE_DEFAULTS,
  ComplianceProfileSchema,
  OPERATOR_COMPLIANCE_SUBJECT,
  SetOperatorComplianceSchema,
  COMPLIANCE_CHANGE_HOURS,
  COMPLIANCE_CHANGE_STATUSES,
  ComplianceChangeSchema,
  complianceAdminOperations,
  OperatorComplianceRequestSchema,
  OperatorComplianceSchema,
  complianceProfileMessages,
  type ComplianceChange,
  type ComplianceChangeStatus,
  type ComplianceSettings,
  type ComplianceProfile,
  type OperatorCompliance,
  type OperatorComplianceRequest,
  type SetOperatorCompliance,
} from './compliance-profile.ts';
export {
  AUDIT_RECORDED,
  AdminIdentitySchema,
  AuditRecordSchema,
  AuditRecordedSchema,
  CredentialRecordSchema,
  SessionIdentitySchema,
  operatorMessages,
  type AdminIdentity,
  type AuditRecord,
  type AuditRecorded,
  type CredentialRecord,
  type SessionIdentity,
  type SetupStep,
} from './operators.ts';
export {
  AML_CASE_STATUSES,
  AML_COS_STATES,
  AML_ANALYSIS_STATES,
  AmlAnalysisClockSchema,
  AML_RULES,
  AmlCaseDecisionSchema,
  AmlCaseSchema,
  AmlCaseSummarySchema,
  AmlThresholdsSchema,
  RISK_LEVELS,
  SCREENING_LISTS,
  amlAdminOperations,
  amlMessages,
  cosAdminOperations,
  dailyFileAdminOperations,
  walletLedgerDayMessages,
  screeningAdminOperations,
  walletStakesMessages,
  type AmlCase,
  type AmlCaseDecision,
  type AmlCaseStatus,
  type AmlCaseSummary,
  type AmlCosDeadline,
  type AmlCosState,
  type AmlAnalysisClock,
  type AmlAnalysisState,
  type AmlEvidence,
  type AmlHold,
  type AmlRule,
  type AmlThresholds,
  type CosRecord,
  type DailyFile,
  type LedgerDayAccount,
  type PlayerRisk,
  type RiskLevel,
  type ScreeningEntry,
  type ScreeningList,
  type WalletLargestWin,
  type WalletStakesRequest,
} from './aml.ts';
export {
  AML_ANNUAL_REPORT_STATES,
  AmlAnnualReportDocumentSchema,
  RISK_REVIEW_MONTHS,
  RISK_SUBJECT_KINDS,
  amlAnnualReportOperations,
  amlReportDecisionOperations,
  amlRiskRegisterOperations,
  amlRiskAssessmentOperations,
  type AddRiskSubject,
  type AmlAnnualReport,
  type AmlAnnualReportDocument,
  type AmlAnnualReportNarrative,
  type RiskAssessment,
  type SaveRiskAssessment,
  type AmlAnnualReportState,
  type AmlAnnualReportStatus,
  type RiskSubject,
  type RiskSubjectKind,
  type RiskSubjectWithHistory,
} from './aml-duties.ts';
export * from './harm.ts';
export {
  SigapMonthlyReportSchema,
  SigapOperatorSchema,
  sigapDutiesOperations,
  type SigapMonthlyReport,
  type SigapOperator,
} from './sigap-duties.ts';
export {
  DAILY_FILE_PARTS,
  DailyFileCheckSchema,
  DailyFileSummarySchema,
  FileChunkSchema,
  REGULATOR_IDS_PER_ASK,
  dailyFilesAdminOperations,
  regulatorFileMessages,
  type DailyFileCheck,
  type DailyFileCounts,
  type DailyFilePart,
  type DailyFileSummary,
  type FileChunk,
  type PaymentsDepositRecord,
  type PaymentsWithdrawalRecord,
  type RegulatorBettor,
  type RegulatorDeposit,
  type RegulatorRound,
  type RegulatorStatusChange,
  type RegulatorWithdrawal,
  type TimeZoneSource,
  type WalletMove,
} from './regulator-file.ts';
export {
  ACTIVITY_CHECK_SUBJECT,
  activityCheckDue,
  CLOSEOUT_SUBJECT,
  closeoutMessages,
  IMPEDED_MESSAGE,
  IMPEDIMENT_REASONS,
  INTERNAL_IMPEDIMENT_CATEGORIES,
  INTERNAL_REGISTRY_REASON,
  eligibilityMessages,
  eligibilityOperations,
  internalImpedimentAdminOperations,
  type ActivityCheck,
  type Closeout,
  type ImpedimentReason,
  type InternalImpediment,
  type InternalImpedimentCategory,
} from './eligibility.ts';
export { defineOperations, openApiPath, type HttpMethod, type Operation } from './operations.ts';
export { collectIssues, compilePart, type MessagePart, type PartValidator } from './validation.ts';
export {
  AdminScopeSchema,
  InternalScopeSchema,
  ProviderScopeSchema,
  OperatorChangedSchema,
  OPERATOR_STATUS_LEASE_MS,
  OperatorScopeSchema,
  PingReplySchema,
  defineMessages,
  pingMessage,
  recordRefusalMessage,
  RecordRefusalSchema,
  type RecordRefusal,
  type AdminScope,
  type InternalScope,
  type ProviderScope,
  type MessageDefinition,
  type OperationReply,
  type OperationRequest,
  type OperatorChanged,
  type OperatorScope,
  type RequestContext,
  type Scope,
} from './messages.ts';
export {
  DEFAULT_NATS_PREFIX,
  eventSubject,
  eventsStreamName,
  eventsWildcard,
  gatewayInvalidateSubject,
  internalEventSubject,
  internalEventsWildcard,
  internalStreamName,
  playerChangedSubject,
  queueGroup,
  rpcSubject,
  simulatedImpedimentsChangedSubject,
} from './subjects.ts';
export { DEFAULT_RPC_TIMEOUT_MS, callOperation, isUnavailable, requestOperation, type RpcOptions } from './rpc.ts';
export { dependencyUnavailable, isDependencyUnavailable } from './unavailable.ts';
export { safeEqual } from './safe-equal.ts';
export { createPlayerStateCache, playerStatesOf, type PlayerStateCache } from './players-client.ts';
export {
  EMPTY_BODY_SHA256,
  SIGNATURE_VERSIONS,
  TIMESTAMP_TOLERANCE_SECONDS,
  bodyDigest,
  canonicalString,
  canonicalStringV2,
  signRequest,
  signRequestV2,
  type SignatureVersion,
  signStandardWebhook,
  signWebhook,
  timestampInRange,
  verifyRequestSignature,
  webhookHeaders,
} from './signing.ts';
export { OperatorClient, type ClientOptions, type ClientResponse } from './client.ts';
export { MeComplianceSchema, MeSchema, PROFILE_RULES, meOperations, type Me, type MeCompliance } from './me.ts';
export {
  AdminPlayerIdParams,
  BR_STATES,
  CreateKycSubmissionSchema,
  CreatePlayerSchema,
  DOCUMENT_TYPES,
  DocumentTypeSchema,
  FindPlayersQuery,
  GENDERS,
  GenderSchema,
  KYC_STATUSES,
  KYC_REVIEW_STATUSES,
  KycDecisionSchema,
  KycDecisionStatusSchema,
  KycRecordSchema,
  KycStatusSchema,
  KycSubmissionCreatedSchema,
  KycSubmissionSchema,
  PLAYER_STATE_SUBJECT,
  PLAYER_STATUSES,
  PlayerChangedSchema,
  EVERY_PLAYER,
  PlayerIdParams,
  PlayerLimitsResultSchema,
  PlayerLimitsSchema,
  PlayerSchema,
  PlayerStateRequestSchema,
  PlayerStateSchema,
  PlayerStatusSchema,
  PlayerAddressSchema,
  REGISTRATION_FIELDS,
  REGISTRATION_ITEMS,
  RegistrationChangeSchema,
  RegistrationStatusSchema,
  UpdatePlayerSchema,
  STANDING_HOLDS,
  StandingSchema,
  playerAdminOperations,
  playerMessages,
  playerOperations,
  playerSummaryMessages,
  PLAYER_SUMMARIES_MAX,
  PlayerSummarySchema,
  type PlayerSummary,
  type CreatePlayer,
  type DocumentType,
  type Gender,
  type KycRecord,
  type KycStatus,
  type Player,
  type PlayerChanged,
  type PlayerState,
  type PlayerStateRequest,
  type PlayerStatus,
  type PlayerAddress as PlayerPostalAddress,
  type RegistrationChange,
  type RegistrationField,
  type RegistrationItem,
  type RegistrationStatus,
  type UpdatePlayer,
  type Standing,
  type StandingHold,
} from './players.ts';
export {
  BR_SPA_METHODS,
  ConfirmDepositSchema,
  DepositPayerSchema,
  CreateDepositSchema,
  CreateWithdrawalSchema,
  DEPOSIT_STATUSES,
  DepositIdParams,
  DepositSchema,
  FailDepositSchema,
  PRIZE_CLOCK_MINUTES,
  ReviewQueueQuery,
  WITHDRAWAL_DECISIONS,
  WITHDRAWAL_STATUSES,
  WithdrawalDecisionSchema,
  AdminWithdrawalDecisionSchema,
  WithdrawalReviewCardSchema,
  WithdrawalIdParams,
  WithdrawalSchema,
  paymentAdminOperations,
  paymentOperations,
  type Deposit,
  type DepositPayer,
  type DepositStatus,
  type ReviewQueueOrder,
  type Withdrawal,
  type WithdrawalReviewCard,
  type WithdrawalDecision,
  type WithdrawalStatus,
} from './payments.ts';
export {
  HOLD_STATUSES,
  LEDGER_TYPES,
  LedgerItemSchema,
  LedgerMismatchSchema,
  LedgerVerificationSchema,
  TransactionsQuery,
  WALLET_SUBJECTS,
  WalletCreditSchema,
  WalletHoldRefSchema,
  WalletHoldSchema,
  WalletMoveResultSchema,
  WalletSchema,
  walletAdminOperations,
  walletMessages,
  walletOperations,
  type HoldStatus,
  type LedgerItem,
  type LedgerType,
  type LedgerVerification,
  type Wallet,
  type WalletCredit,
  type WalletHold,
  type WalletHoldRef,
  type WalletMoveResult,
} from './wallet.ts';
export {
  CreateGameSessionSchema,
  GAME_KINDS,
  GAME_MODES,
  GAME_PLAY_SUBJECTS,
  GameSchema,
  GameSessionSchema,
  PlayOwnerSchema,
  PlayParamsSchema,
  PlayRoundInputSchema,
  PlayRoundResultSchema,
  PlaySessionViewSchema,
  ROULETTE_PICKS,
  EndedGameSessionSchema,
  gameOperations,
  gamePlayMessages,
  gameSessionAdminOperations,
  type AdminEndGameSessions,
  type CreateGameSession,
  type EndedGameSession,
  type Game,
  type GameKind,
  type GameMode,
  type GameSession,
  type PlayOwner,
  type PlayParams,
  type PlayRoundInput,
  type PlayRoundResult,
  type PlaySessionView,
} from './games.ts';
export {
  ATTEMPT_OUTCOMES,
  DELIVERY_STATUSES,
  DeliveryLogItemSchema,
  RedeliveryResultSchema,
  WebhookAttemptSchema,
  WebhookEventSummarySchema,
  WebhookEventsQuery,
  UpsertEndpointResultSchema,
  UpsertEndpointSchema,
  WEBHOOK_ENDPOINT_CHANGED,
  WEBHOOK_SUBJECTS,
  WEBHOOK_TEST_RPC_TIMEOUT_MS,
  WebhookEndpointChangedSchema,
  WebhookTestResultSchema,
  webhookAdminOperations,
  webhookMessages,
  webhookOperations,
  type AttemptOutcome,
  type DeliveryLogItem,
  type DeliveryStatus,
  type RedeliveryResult,
  type WebhookAttempt,
  type WebhookEventSummary,
  type UpsertEndpoint,
  type UpsertEndpointResult,
  type WebhookEndpointChanged,
  type WebhookTestResult,
} from './webhooks.ts';
export {
  EVENT_HEADERS,
  EVENT_TYPES,
  EventDataSchemas,
  domainEventSchema,
  isEventType,
  type DomainEvent,
  type EventDataByType,
  type EventType,
} from './events.ts';
export {
  ADMIN_ROLES,
  CREDENTIAL_STATUSES,
  CreatedOperatorSchema,
  KEY_ROTATION_OVERLAP_MINUTES,
  OperatorCredentialSchema,
  OperatorSchema,
  RotatedKeySchema,
  ServiceTokenSchema,
  TeamMemberSchema,
  baseAdminOperations,
  operatorAdminOperations,
  teamAdminOperations,
  PERSONAL_DATA_FIELDS,
  personalDataReadOperations,
  type PersonalDataField,
  type AdminRole,
  type CreatedOperator,
  type CredentialStatus,
  type OperatorCredential,
  type OperatorView,
  type RotatedKey,
} from './admin.ts';
export {
  OPERATION_DESCRIPTIONS,
  OPERATION_EXAMPLES,
  WEBHOOK_EXAMPLES,
  buildOpenApi,
  type ApiSurface,
  type OpenApiOptions,
  type OperationExample,
} from './openapi.ts';
export { PROVIDER_API_SURFACE, PROVIDER_OPERATION_EXAMPLES, buildProviderOpenApi } from './openapi-provider.ts';

import { meOperations } from './me.ts';
import { playerOperations } from './players.ts';
import { responsibleGamingOperations } from './responsible-gaming.ts';
import { eligibilityOperations } from './eligibility.ts';
import { termsOperations } from './terms.ts';
import { screeningSandboxOperations } from './screening-sandbox.ts';
import { paymentOperations } from './payments.ts';
import { walletOperations } from './wallet.ts';
import { gameOperations, gameSessionAdminOperations } from './games.ts';
import { webhookOperations } from './webhooks.ts';
import { playerRoundOperations, providerClearingOperations, providerReportOperations } from './provider-reads.ts';
import { afterHitAdminOperations, communicationOperations } from './after-hit.ts';
import { marketingAdminOperations, marketingOperations } from './marketing.ts';
import { dataRequestAdminOperations, dataRequestOperations } from './personal-data.ts';
import { harmOperations } from './harm.ts';

/** Every public operation under /api/v1. */
export const publicOperations = {
  ...meOperations,
  ...playerOperations,
  ...responsibleGamingOperations,
  ...eligibilityOperations,
  ...termsOperations,
  ...communicationOperations,
  ...marketingOperations,
  // Issue #69 item 1: a player's data request under the LGPD.
  ...dataRequestOperations,
  // Issue #68: the player's level of risk of gambling harm.
  ...harmOperations,
  ...screeningSandboxOperations,
  ...walletOperations,
  ...paymentOperations,
  ...gameOperations,
  ...playerRoundOperations,
  ...webhookOperations,
};
export * from './providers.ts';
export * from './connectors.ts';
export * from './hub88.ts';
export * from './evolution.ts';
export * from './betsy.ts';
import { baseAdminOperations } from './admin.ts';
import { providerAdminOperations } from './providers.ts';
import { connectorAdminOperations } from './connectors.ts';
import { gameRegisterOperations } from './game-register.ts';
import { providerMoneyAdminOperations } from './provider-money.ts';
import { sigapAdminOperations } from './sigap.ts';
import { sigapDutiesOperations } from './sigap-duties.ts';
import { brandAdminOperations } from './brands.ts';
import { integrityAdminOperations } from './integrity.ts';
import { harmAdminOperations, harmCaseAdminOperations } from './harm.ts';

/** Every operation of the admin API (ADMIN_PORT). */
export const adminOperations = {
  ...baseAdminOperations,
  ...providerAdminOperations,
  ...connectorAdminOperations,
  ...gameRegisterOperations,
  ...providerMoneyAdminOperations,
  ...providerReportOperations,
  ...providerClearingOperations,
  ...sigapAdminOperations,
  ...sigapDutiesOperations,
  ...afterHitAdminOperations,
  ...marketingAdminOperations,
  ...dataRequestAdminOperations,
  ...brandAdminOperations,
  // Issue #60 item 3: integrity holds on sports prizes and the suspicious-betting export.
  ...integrityAdminOperations,
  // Issue #66 item 9: our team ends a player's open game sessions.
  ...gameSessionAdminOperations,
  // Issue #68 item 2: an operator's thresholds of the harm markers.
  ...harmAdminOperations,
  // Issue #68 item 3: our team's harm cases and interactions.
  ...harmCaseAdminOperations,
};
export * from './brands.ts';
export * from './provider-reads.ts';
export * from './game-register.ts';
export * from './provider-money.ts';
export * from './sigap.ts';
export * from './responsible-gaming.ts';
export * from './terms.ts';
export * from './standing.ts';
export * from './screening-sandbox.ts';
export * from './after-hit.ts';
export * from './marketing.ts';
export * from './personal-data.ts';
export * from './integrity.ts';
