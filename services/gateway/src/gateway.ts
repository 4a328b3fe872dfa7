// Builds the gateway: the public API (PORT, base path /api/v1) and the admin API (ADMIN_PORT).
// Tests start it in-process (several replicas at once); main.ts starts it as a process.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { NatsConnection } from '@nats-io/transport-node';
import { newId, publicOperations } from '@bo/contracts';
import {
  armCrashPoints,
  connectNats,
  createLogger,
  createReadiness,
  jetStreamReadiness,
  natsReadiness,
  operatorStatusLease,
  startMetricsServer,
  waitForJetStream,
  DEV_MASTER_KEY,
  type Logger,
} from '@bo/service-kit/edge';
import type { GatewayConfig } from './config.ts';
import './edge/http/types.ts';
import { CredentialCache } from './edge/auth/credential-cache.ts';
import { SharedRateLimiter } from './edge/rate-limit/shared-rate-limiter.ts';
import { KeysInFlight } from './edge/idempotency/keys-in-flight.ts';
import { KeyClaims } from './edge/idempotency/key-claims.ts';
import { SignatureBindings } from './edge/auth/signature-binding.ts';
import { operatorGuard } from './edge/auth/operator-guard.ts';
import { idempotencyRecorder, releaseIdempotencyKey } from './edge/idempotency/http-idempotency.ts';
import { BODY_LIMIT_BYTES, envelope, keepRawBodies, toAppError } from '@bo/http-kit';
import { clientErrorAnswer, installErrorHandling, installProtocolErrorAnswers, refuseBadHost } from './edge/http/errors.ts';
import { parseQueryString } from './edge/http/query-string.ts';
import { bindRequest, handleRequestsInContext } from './edge/http/request-context.ts';
import { typeboxValidatorCompiler } from './edge/http/validation.ts';
import { createMetrics, observabilityRoutes } from './edge/http/observability.ts';
import { operatorContext, registerOperations } from './edge/operations.ts';
import { getMe } from './edge/me.ts';
import { consoleRoutes } from '@bo/console';
import { playRoutes, sandboxProviderRoutes, sandboxProviderWallet, walletGames } from '@bo/play';
import { apiIndexRoute, publicDocsRoutes } from '@bo/portal';
import { askOwnerOverNats, createOperatorCheck } from './edge/play-check.ts';
import { operatorsClient } from './edge/operators-client.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { registerProviderApi } from './edge/provider-api.ts';

export const API_PREFIX = '/api/v1';

export interface RunningGateway {
  publicApp: FastifyInstance;
  adminApp: FastifyInstance;
  publicUrl: string;
  adminUrl: string;
  nc: NatsConnection;
  credentials: CredentialCache;
  /** `GET /metrics` on the internal METRICS_PORT, when one is set. */
  metricsUrl?: string;
  stop(): Promise<void>;
}

/** TRUST_PROXY: true/false, a hop count, or comma-separated proxy addresses. */
function parseTrustProxy(v: string): boolean | string[] | ((addr: string, hop: number) => boolean) {
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_addr, hop) => hop < hops;
  }
  return v.split(',').map((s) => s.trim());
}

function baseApp(log: Logger, config: GatewayConfig): FastifyInstance {
  const app = Fastify<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>({
    loggerInstance: log as FastifyBaseLogger,
    // Per-request log lines are off; metrics and error logs carry what operations need.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId('request'),
    requestIdHeader: false,
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    // Long path values reach schema validation (422) rather than Fastify's bare 414; a query that
    // is not validly percent-encoded is refused by validation (query-string.ts).
    routerOptions: { maxParamLength: 2048, querystringParser: parseQueryString },
    // Node answers a bare 400 to an HTTP/1.1 request without Host; refuseBadHost answers it (and two Hosts) in the envelope.
    http: { requireHostHeader: false },
    clientErrorHandler: clientErrorAnswer(() => newId('request')),
    // A malformed URL (a path not validly percent-encoded) is answered in the envelope, never echoed.
    frameworkErrors: (err, req, res) => {
      const appErr = toAppError(err);
      const reply = res as unknown as FastifyReply;
      void reply.code(appErr.status).header('x-request-id', req.id).type('application/json').send(envelope(appErr.toBody(), req.id));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(typeboxValidatorCompiler);
  keepRawBodies(app);
  installErrorHandling(app);
  installProtocolErrorAnswers(app, () => newId('request'));
  handleRequestsInContext(app.server);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    req.span = bindRequest(req);
    refuseBadHost(req, reply);
  });
  app.addHook('onResponse', async (req, reply) => {
    // One access-log line per request: what the team looks up by an operator's X-Request-Id.
    log.info(
      {
        requestId: req.id,
        // The admin API's caller: the token's name or the signed-in person (absent on the public API).
        actor: req.adminIdentity?.actor,
        operatorId: req.credential?.operatorId,
        providerId: req.providerCredential?.providerId,
        environment: req.credential?.environment,
        method: req.method,
        route: req.routeOptions.url ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
  return app as unknown as FastifyInstance;
}

export interface GatewayOptions {
  log?: Logger;
  listen?: boolean;
  /** The clock of the key rules (epoch ms): when a rotated key stops. Tests move it; Date.now otherwise. */
  now?: () => number;
}

export async function startGateway(config: GatewayConfig, opts: GatewayOptions = {}): Promise<RunningGateway> {
  const log = opts.log ?? createLogger('gateway', config.LOG_LEVEL);
  const now = opts.now ?? Date.now;
  armCrashPoints(config.CRASH_AT);
  if (config.SECRETS_MASTER_KEY === DEV_MASTER_KEY) log.warn('SECRETS_MASTER_KEY is the development default; set it in production');
  // No database: the edge's state is in NATS (KV buckets) and the services it asks (issue #43).
  const nc = await connectNats(config.NATS_URL, 'gateway', config.NATS_COALESCE_WRITES, config);
  const forward = { nc, natsPrefix: config.NATS_PREFIX, rpcTimeoutMs: config.RPC_TIMEOUT_MS };
  const operators = operatorsClient(forward);
  const credentials = new CredentialCache(operators.credential, config.SECRETS_MASTER_KEY, config.CREDENTIAL_CACHE_TTL_MS, now);
  credentials.listen(nc, config.NATS_PREFIX);
  // The play page's operator check: a lease that a status change waits out before it answers (docs/games.md, "Stopping play").
  const playOperatorStatus = operatorStatusLease({ nc, prefix: config.NATS_PREFIX, ask: operators.status });
  // Streams and buckets are created or checked once JetStream answers (a node may be being lost).
  const limiter = await waitForJetStream(() => SharedRateLimiter.open(nc, config.NATS_PREFIX, log, config.NATS_REPLICAS), log);
  const [claims, signatures] = await Promise.all([
    waitForJetStream(() => KeyClaims.open(nc, config.NATS_PREFIX, config.IDEMPOTENCY_TTL_SECONDS, log, config.NATS_REPLICAS), log),
    waitForJetStream(() => SignatureBindings.open(nc, config.NATS_PREFIX, log, config.NATS_REPLICAS), log),
  ]);
  // The answers are the owning services' (the kit's idempotency/): here, the claims and this replica's running keys.
  const edgeIdempotency = { claims, inFlight: new KeysInFlight() };
  const adminIdempotency = { claims, inFlight: new KeysInFlight() };
  const metrics = createMetrics();

  const publicApp = baseApp(log, config);
  observabilityRoutes(publicApp, { nc, prefix: config.NATS_PREFIX, metrics });
  apiIndexRoute(publicApp, { apiPrefix: API_PREFIX });
  await publicApp.register(
    async (api) => {
      api.addHook('preValidation', operatorGuard({ credentials, limiter, idempotency: edgeIdempotency, signatures, metrics }));
      api.addHook('onSend', idempotencyRecorder(edgeIdempotency.inFlight, { ...forward, contextOf: operatorContext }));
      api.addHook('onResponse', async (req) => releaseIdempotencyKey(edgeIdempotency.inFlight, req));
      registerOperations(api, publicOperations, forward, { getMe }, operatorContext);
      await api.register(publicDocsRoutes, { publicBaseUrl: config.PUBLIC_BASE_URL, apiPrefix: API_PREFIX });
    },
    { prefix: API_PREFIX },
  );
  // The provider wallet API beside /api/v1 (docs/providers.md).
  const providerCredentials = await registerProviderApi(publicApp, {
    ...forward,
    masterKey: config.SECRETS_MASTER_KEY,
    cacheTtlMs: config.CREDENTIAL_CACHE_TTL_MS,
    now,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
  await publicApp.register(playRoutes, {
    games: walletGames({ nc, prefix: config.NATS_PREFIX, timeoutMs: config.RPC_TIMEOUT_MS }),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    // The gateway's own rule before the wallet's: nothing of a suspended operator's is played.
    operatorRefusal: createOperatorCheck({ askOwner: askOwnerOverNats(forward), operatorStatus: playOperatorStatus.status }),
  });
  // The built-in sandbox provider's game page: bets on the provider wallet as a provider would (docs/providers.md).
  await publicApp.register(sandboxProviderRoutes, {
    wallet: sandboxProviderWallet({ nc, prefix: config.NATS_PREFIX, timeoutMs: config.RPC_TIMEOUT_MS }),
  });

  const adminApp = baseApp(log, config);
  adminApp.get('/healthz', async () => ({ status: 'ok' }));
  await adminApp.register(adminRoutes, {
    ...forward,
    rootToken: config.ADMIN_TOKEN,
    rootActsForClaimedPerson: config.NODE_ENV !== 'production',
    operators,
    idempotency: adminIdempotency,
    onOperatorChanged: (operatorId: string) => credentials.invalidateOperator(operatorId),
  });
  // The console's accounts port: the operators service, asked over NATS (SessionIdentity is the console's `Who`).
  await adminApp.register(consoleRoutes, {
    accounts: operators.accounts,
    // The cookie lasts as long as the operators service's sessions at most (CONSOLE_ABSOLUTE_HOURS, set alike on both).
    policy: { absoluteHours: config.CONSOLE_ABSOLUTE_HOURS },
    // Secure cookies everywhere but local development on a loopback admin port (plain http there).
    secureCookie: config.CONSOLE_COOKIE_SECURE ?? !['127.0.0.1', 'localhost', '::1'].includes(config.ADMIN_HOST),
  });

  let publicUrl = '';
  let adminUrl = '';
  if (opts.listen !== false) {
    publicUrl = await publicApp.listen({ port: config.PORT, host: config.HOST });
    adminUrl = await adminApp.listen({ port: config.ADMIN_PORT, host: config.ADMIN_HOST });
  } else {
    await Promise.all([publicApp.ready(), adminApp.ready()]);
  }
  // The internal probes (k8s): the gateway's own dependencies only. The public /readyz also pings
  // every service (decisions.md); a probe doing that would take every replica out of the ingress
  // while one service is down, failing the operations of the healthy ones too.
  const readiness = createReadiness();
  readiness.add('nats', natsReadiness(nc));
  readiness.add('jetstream', jetStreamReadiness(nc));
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : await startMetricsServer(metrics.registry, config.METRICS_HOST ?? '127.0.0.1', config.METRICS_PORT, log, readiness);
  log.info({ publicUrl, adminUrl, ...(metricsServer ? { metricsPort: metricsServer.port } : {}) }, 'gateway started');
  return {
    publicApp,
    adminApp,
    publicUrl,
    adminUrl,
    nc,
    credentials,
    metricsUrl: metricsServer ? `http://${config.METRICS_HOST ?? '127.0.0.1'}:${metricsServer.port}/metrics` : undefined,
    async stop() {
      await metricsServer?.stop();
      await Promise.allSettled([publicApp.close(), adminApp.close()]);
      credentials.stop();
      playOperatorStatus.stop();
      providerCredentials.stop();
      await nc.drain().catch(() => undefined);
    },
  };
}
