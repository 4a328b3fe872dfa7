// The kit's face for a process without a database (the gateway, issue #43): configuration, logs,
// NATS and JetStream, readiness, metrics, crash points, secrets and the operator-status lease. None
// of these modules loads MikroORM or pg; `npm run check:imports` holds it (rule `edge-loads-no-database`).
export { dependencyUnavailable, safeEqual } from '@bo/contracts';
export { BaseConfigSchema, configOf, loadConfig } from './config.ts';
export { armCrashPoints } from './crash.ts';
export { createLogger, logContext, withLogContext, type Logger } from './log.ts';
export { runMain } from './main.ts';
export { startMetricsServer } from './metrics.ts';
export { connectNats, ensureStreamReplicas, logConnectionEvents } from './nats.ts';
export { operatorStatusLease } from './operator-status-lease.ts';
export { secretKey } from './production-secrets.ts';
export { createReadiness, jetStreamReadiness, natsReadiness } from './readiness.ts';
export { DEV_MASTER_KEY, openSecret } from './secrets.ts';
export { isJetStreamUnavailable, waitForDependency, waitForJetStream } from './startup-wait.ts';
export { sendRequest } from './telemetry.ts';
