// Public surface of @bo/contracts: schemas, operations, messages, errors, subjects, signing, validation
// and the OpenAPI builder, each named here.
export {
  AppError, ERROR_CATALOGUE, isAppError, statusOf, validationError, type ErrorBody, type ErrorCode,
  type ErrorDetails, type ValidationIssue
} from './errors.ts';
export { ID_PREFIXES, newId, type IdKind } from './ids.ts';
export { isAdult, isCalendarDate, isEmail, isIsoDateTime, isValidCpf, normaliseCpf, registerFormats } from './formats.ts';
export {
  API_VERSION, Currency, ENVIRONMENTS, EmptyObject, EnvironmentSchema, ErrorEnvelope, List,
  MAX_AMOUNT, Money, MoneyInput, Nullable, Page, Timestamp, ValidationIssueSchema, idOf,
  type Environment
} from './common.ts';
export { defineOperations, openApiPath, type HttpMethod, type Operation } from './operations.ts';
export { collectIssues, compilePart, type MessagePart, type PartValidator } from './validation.ts';
export {
  AdminScopeSchema, InternalScopeSchema, OperatorChangedSchema, OperatorScopeSchema, PingReplySchema,
  defineMessages, pingMessage, type AdminScope, type AuditTrail, type InternalScope,
  type MessageDefinition, type OperationReply, type OperationRequest, type OperatorChanged,
  type OperatorScope, type RequestContext, type Scope
} from './messages.ts';
export {
  DEFAULT_NATS_PREFIX, eventSubject, eventsStreamName, eventsWildcard, gatewayInvalidateSubject,
  internalEventSubject, internalEventsWildcard, internalStreamName, playerChangedSubject, queueGroup, rpcSubject
} from './subjects.ts';
export { DEFAULT_RPC_TIMEOUT_MS, callOperation, isUnavailable, requestOperation, type RpcOptions } from './rpc.ts';
export {
  EMPTY_BODY_SHA256, TIMESTAMP_TOLERANCE_SECONDS, bodyDigest, canonicalString, signRequest,
  signStandardWebhook, signWebhook, timestampInRange, verifyRequestSignature, webhookHeaders
} from './signing.ts';
export { OperatorClient, type ClientOptions, type ClientResponse } from './client.ts';
export { MeSchema, meOperations, type Me } from './me.ts';
export {
  AdminPlayerIdParams, CreateKycSubmissionSchema, CreatePlayerSchema, DOCUMENT_TYPES,
  DocumentTypeSchema, FindPlayersQuery, KYC_STATUSES, KycDecisionSchema,
  KycDecisionStatusSchema, KycRecordSchema, KycStatusSchema, KycSubmissionCreatedSchema,
  KycSubmissionSchema, PLAYER_STATE_SUBJECT, PLAYER_STATUSES, PlayerChangedSchema, PlayerIdParams,
  PlayerLimitsResultSchema, PlayerLimitsSchema, PlayerSchema, PlayerStateRequestSchema,
  PlayerStateSchema, PlayerStatusSchema, playerAdminOperations, playerMessages, playerOperations,
  type CreatePlayer, type DocumentType, type KycRecord, type KycStatus, type Player,
  type PlayerChanged, type PlayerState, type PlayerStateRequest, type PlayerStatus
} from './players.ts';
export {
  CreateDepositSchema, CreateWithdrawalSchema, DEPOSIT_STATUSES, DepositIdParams, DepositSchema,
  FailDepositSchema, ReviewQueueQuery, WITHDRAWAL_DECISIONS, WITHDRAWAL_STATUSES,
  WithdrawalDecisionSchema, WithdrawalIdParams, WithdrawalSchema, paymentAdminOperations,
  paymentOperations, type Deposit, type DepositStatus, type Withdrawal, type WithdrawalDecision,
  type WithdrawalStatus
} from './payments.ts';
export {
  HOLD_STATUSES, LEDGER_TYPES, LedgerItemSchema, LedgerMismatchSchema, LedgerVerificationSchema,
  TransactionsQuery, WALLET_SUBJECTS, WalletCreditSchema, WalletHoldRefSchema, WalletHoldSchema,
  WalletMoveResultSchema, WalletSchema, walletAdminOperations, walletMessages, walletOperations,
  type HoldStatus, type LedgerItem, type LedgerType, type LedgerVerification, type Wallet,
  type WalletCredit, type WalletHold, type WalletHoldRef, type WalletMoveResult
} from './wallet.ts';
export {
  CreateGameSessionSchema, GAME_KINDS, GAME_MODES, GAME_PLAY_SUBJECTS, GameSchema, GameSessionSchema,
  PlayParamsSchema, PlayRoundInputSchema, PlayRoundResultSchema, PlaySessionViewSchema,
  ROULETTE_PICKS, gameOperations, gamePlayMessages, type CreateGameSession, type Game, type GameKind,
  type GameMode, type GameSession, type PlayParams, type PlayRoundInput, type PlayRoundResult,
  type PlaySessionView
} from './games.ts';
export {
  ATTEMPT_OUTCOMES, DeliveryLogItemSchema, UpsertEndpointResultSchema, UpsertEndpointSchema,
  WEBHOOK_ENDPOINT_CHANGED, WEBHOOK_SUBJECTS, WEBHOOK_TEST_RPC_TIMEOUT_MS, WebhookEndpointChangedSchema, WebhookTestResultSchema,
  webhookAdminOperations, webhookMessages, webhookOperations, type AttemptOutcome, type DeliveryLogItem, type UpsertEndpoint,
  type UpsertEndpointResult, type WebhookEndpointChanged, type WebhookTestResult
} from './webhooks.ts';
export {
  EVENT_HEADERS, EVENT_TYPES, EventDataSchemas, domainEventSchema, type DomainEvent,
  type EventDataByType, type EventType
} from './events.ts';
export {
  ADMIN_ROLES, CreatedOperatorSchema, OperatorSchema, ServiceTokenSchema, TeamMemberSchema,
  adminOperations, operatorAdminOperations, teamAdminOperations, type AdminRole,
  type CreatedOperator, type OperatorView
} from './admin.ts';
export {
  OPERATION_DESCRIPTIONS, OPERATION_EXAMPLES, WEBHOOK_EXAMPLES, buildOpenApi, type OpenApiOptions,
  type OperationExample
} from './openapi.ts';

import { meOperations } from './me.ts';
import { playerOperations } from './players.ts';
import { paymentOperations } from './payments.ts';
import { walletOperations } from './wallet.ts';
import { gameOperations } from './games.ts';
import { webhookOperations } from './webhooks.ts';

/** Every public operation under /api/v1. */
export const publicOperations = {
  ...meOperations,
  ...playerOperations,
  ...walletOperations,
  ...paymentOperations,
  ...gameOperations,
  ...webhookOperations,
};
