// Public surface of the service kit: what services build on. Test resources are behind the
// `@bo/service-kit/testing` subpath (testing.ts), never in a running service.
export { Migration, entitySchemaDrift, kitMigration, openDatabase, type DatabaseOptions, type MikroORM } from './db.ts';
export { kitTables, type KitTables } from './kit-tables.ts';
export { inOneSnapshot, isoTime, onlyRow, openSql, ormInOneSnapshot, prepare, sqlIn, sqlOnPool, uniqueViolation, type Sql, type SqlRunner } from './sql.ts';
export { startLoop, type Loop, type LoopOptions } from './loop.ts';
export { startDurableConsumer, type DurableConsumerConfig, type DurableConsumerOptions } from './durable-consumer.ts';
export { BaseConfigSchema, LOG_LEVELS, configOf, loadConfig, type BaseConfig } from './config.ts';
export { createLogger, withLogContext, logContext, type LogContext, type Logger } from './log.ts';
export { Money, addMoney, compareMoney, formatMoney, isPositiveWithin, subMoney } from './money.ts';
export { armCrashPoints, crashPoint } from './crash.ts';
export { groupCommit, type GroupCommitOptions } from './group-commit.ts';
export { runAlone, type StatementPart } from './statement-group.ts';
export { auditRowId, decisionAuthorOf, deciderOf, writeDecisionAudit, type DecisionAudit, type DecisionAuthor } from './audit-outbox.ts';
export { ruleClock } from './clock.ts';
export {
  handle,
  refusalRecorders,
  replyTo,
  serveOperations,
  type Handler,
  type HandlerEnv,
  type HandleOptions,
  type HandlerOf,
  type HandlerResult,
  type RequestOf,
  type Routed,
  type ServeOptions,
  type Server,
} from './serve.ts';
export {
  answersIn,
  AnswerStore,
  assertSameRequest,
  errorResponse,
  findStored,
  noStoredAnswer,
  processedRequestsClaimsSql,
  storedAnswerInsertFrom,
  idempotencyScope,
  keyFromRow,
  ormRunner,
  ormTransactor,
  processedRequestsFingerprintSql,
  processedRequestsKeepTextSql,
  processedRequestsTableSql,
  recordIntent,
  replay,
  ReplayedRefusal,
  StoredRefusal,
  requestKeyOf,
  runOnce,
  sqlTransactor,
  storeResponse,
  type IntentRow,
  type IntentStep,
  type RequestKey,
  type RunOnceOptions,
  type SchemaAnswers,
  type Transactor,
} from './idempotency/index.ts';
export { deleteExpiredStoredAnswers, deletePublishedOutboxRows, processedRequestsExpiryIndexSql } from './retention.ts';
export {
  ensureEventsStream,
  ensureInternalStream,
  eventInsertFrom,
  outboxTableSql,
  startOutboxRelay,
  writeEvent,
  writeInternalEvent,
  type EventRouting,
  type OutboxRelay,
  type OutboxRow,
} from './outbox.ts';
export { operatorStatusLease, type OperatorStatus, type OperatorStatusLease } from './operator-status-lease.ts';
export {
  coalesceWrites,
  connectNats,
  ensureStreamReplicas,
  logConnectionEvents,
  natsIdentityOptions,
  natsInboxPrefix,
  type NatsIdentitySettings,
} from './nats.ts';
export {
  composeService,
  startService,
  startServiceWith,
  type Background,
  type BackgroundTask,
  type ConfigSchema,
  type RunningService,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceModule,
} from './service.ts';
export { runMain } from './main.ts';
export {
  createReadiness,
  jetStreamReadiness,
  natsReadiness,
  postgresReadiness,
  type Readiness,
  type ReadinessCheck,
  type ReadinessReport,
} from './readiness.ts';
export { DEV_MASTER_KEY, openSecret, sealSecret } from './secrets.ts';
// Re-exported from contracts (their home since issue #43) for the services that import them from the kit.
export { dependencyUnavailable, isDependencyUnavailable, safeEqual } from '@bo/contracts';
// The players domain's client lives in contracts since issue #43; kept here for code that still imports it from the kit.
export { createPlayerStateCache, playerStatesOf, type PlayerStateCache } from '@bo/contracts';
export {
  PRODUCTION_SECRET_MIN_LENGTH,
  productionProblem,
  productionRefusal,
  providerSecret,
  natsPassword,
  natsPasswordsOf,
  providerSecretsOf,
  secretKey,
  secretSettingsOf,
  secretUrl,
  type SecretKind,
  type SecretSetting,
} from './production-secrets.ts';
export { adminScopeOf, internalScopeOf, operatorScopeOf, providerScopeOf, teamScopeOf } from './scopes.ts';
export { parseInput } from './parse-input.ts';
export { DEV_LIST_CURSOR_SECRET, ListCursorConfigSchema, listCursor, type ListCursor, type ListPosition } from './list-cursor.ts';
export {
  natsRequestAttributes,
  REQUEST_ID_HEADER,
  sendRequest,
  traceHeaders,
  TraceOrigins,
  tracer,
  withSpanFrom,
} from './telemetry.ts';
export { startTracing, stopTracing, tracingOn } from './tracing.ts';
export {
  counter,
  scrapedGauge,
  createServiceMetrics,
  registerOutboxMetrics,
  startMetricsServer,
  type MetricsServer,
  type ServiceMetrics,
} from './metrics.ts';
export { waitForJetStream } from './startup-wait.ts';
export {
  anonymiseIn,
  anonymisePersonalData,
  exportPersonalData,
  EXPORT_PAGE_CHARS,
  personalDataCoverage,
  personalDataHandlers,
  KIT_TABLES_WITHOUT_PLAYERS,
  type PersonalDataCatalogue,
  type PlayerTable,
} from './personal-data.ts';
