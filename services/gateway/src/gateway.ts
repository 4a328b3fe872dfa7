// Builds the gateway: the public API (PORT, base path /api/v1) and the admin API (ADMIN_PORT).
// Tests start it in-process (several replicas at once); main.ts starts it as a process.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { NatsConnection } from '@nats-io/transport-node';
import { isUnavailable as isNatsUnavailable, newId, publicOperations } from '@bo/contracts';
import {
  armCrashPoints,
  connectNats,
  logConnectionEvents,
  createLogger,
  createReadiness,
  isJetStreamUnavailable,
  jetStreamReadiness,
  natsReadiness,
  operatorStatusLease,
  startMetricsServer,
  waitForDependency,
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
import { createMetrics, observabilityRoutes, type Metrics } from './edge/http/observability.ts';
import { listenEarly, startingAnswer, type EarlyPort } from './edge/http/early-listen.ts';
import { operatorContext, registerOperations } from './edge/operations.ts';
import { getMe } from './edge/me.ts';
import { complianceProfiles } from './edge/compliance-profiles.ts';
import { consoleRoutes } from '@bo/console';
import { playRoutes, sandboxProviderRoutes, sandboxProviderWallet, walletGames } from '@bo/play';
import { apiIndexRoute, publicDocsRoutes } from '@bo/portal';
import { askOwnerOverNats, createOperatorCheck } from './edge/play-check.ts';
import { operatorsClient } from './edge/operators-client.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { registerProviderApi } from './edge/provider-api.ts';
import { registerConnectors } from './connectors/index.ts';

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

/** `port`: the port listened on at start (early-listen.ts), which the app takes over; none: the app makes its own server. */
function baseApp(log: Logger, config: GatewayConfig, port?: EarlyPort): FastifyInstance {
  const app = Fastify<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>({
    loggerInstance: log as FastifyBaseLogger,
    ...(port ? { serverFactory: port.serverFactory } : {}),
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

/** A gateway listening (503 with Retry-After) while it connects to NATS and opens its buckets. */
export interface StartingGateway {
  publicUrl: string;
  adminUrl: string;
  /** Resolves once NATS answers and the buckets are open: the ports then serve the API; rejects if the start fails or is stopped. */
  ready: Promise<RunningGateway>;
  /** Gives up a start still waiting (its `ready` rejects), or stops the gateway once ready. */
  stop(): Promise<void>;
}

/** Starts the gateway and resolves once it serves (what main.ts and the tests wait for). */
export async function startGateway(config: GatewayConfig, opts: GatewayOptions = {}): Promise<RunningGateway> {
  return (await listenGateway(config, opts)).ready;
}

/**
 * Listens first, then connects (issue #56): the ports, and the internal probes on METRICS_PORT,
 * answer within the process's start whatever NATS is doing. Until NATS answers and the KV buckets
 * are open (waited for as long as it takes, each try logged), every request is 503
 * SERVICE_UNAVAILABLE with Retry-After and the probes say not ready; then the API is served on the
 * same ports. Nothing of the edge needs Postgres (its state is in NATS KV and the services it asks).
 */
export async function listenGateway(config: GatewayConfig, opts: GatewayOptions = {}): Promise<StartingGateway> {
  const log = opts.log ?? createLogger('gateway', config.LOG_LEVEL);
  armCrashPoints(config.CRASH_AT);
  if (config.SECRETS_MASTER_KEY === DEV_MASTER_KEY) log.warn('SECRETS_MASTER_KEY is the development default; set it in production');
  const newRequestId = () => newId('request');
  let connected: NatsConnection | undefined;
  const early = {
    newRequestId,
    clientError: clientErrorAnswer(newRequestId),
    starting: (path: string, requestId: string) => startingAnswer(path, requestId, { nats: connected !== undefined, jetstream: false }),
  };
  const publicPort = opts.listen === false ? undefined : await listenEarly(config.PORT, config.HOST, early);
  const adminPort = publicPort && (await listenEarly(config.ADMIN_PORT, config.ADMIN_HOST, early).catch(failWith(publicPort)));
  const ports = publicPort && adminPort ? { public: publicPort, admin: adminPort } : undefined;
  // The internal probes (k8s) from the start: live at once, ready once NATS and JetStream answer.
  // The gateway's own dependencies only: the public /readyz also pings every service (decisions.md);
  // a probe doing that would take every replica out of the ingress while one service is down,
  // failing the operations of the healthy ones too.
  const metrics = createMetrics();
  const readiness = createReadiness();
  readiness.add('nats', () => (connected ? natsReadiness(connected)() : 'not connected yet'));
  readiness.add('jetstream', () => (connected ? jetStreamReadiness(connected)() : 'not connected yet'));
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : await startMetricsServer(metrics.registry, config.METRICS_HOST ?? '127.0.0.1', config.METRICS_PORT, log, readiness).catch(
          failWith(ports?.public, ports?.admin),
        );
  const metricsUrl = metricsServer ? `http://${config.METRICS_HOST ?? '127.0.0.1'}:${metricsServer.port}/metrics` : undefined;
  const publicUrl = ports?.public.url ?? '';
  const adminUrl = ports?.admin.url ?? '';
  if (ports) log.info({ publicUrl, adminUrl }, 'gateway listening; answering 503 until NATS answers');

  let stopped = false;
  let running: RunningGateway | undefined;
  const closeListening = async () => {
    await metricsServer?.stop();
    await Promise.all([ports?.public.close(), ports?.admin.close()]);
  };
  const ready = serveWhenConnected(config, {
    log,
    now: opts.now ?? Date.now,
    ports,
    metrics,
    stillWanted: () => !stopped,
    onConnected: (nc) => {
      connected = nc;
    },
  }).then(
    (parts) => {
      running = {
        ...parts,
        publicUrl,
        adminUrl,
        metricsUrl,
        async stop() {
          await parts.stop();
          await closeListening();
        },
      };
      log.info({ publicUrl, adminUrl, ...(metricsServer ? { metricsPort: metricsServer.port } : {}) }, 'gateway started');
      return running;
    },
    async (err: unknown) => {
      await closeListening();
      throw err;
    },
  );
  return {
    publicUrl,
    adminUrl,
    ready,
    async stop() {
      stopped = true;
      if (running) return running.stop();
      await ready.then(
        (gw) => gw.stop(),
        () => undefined,
      );
    },
  };
}

/** A start that failed after a port was listened on: the port is closed before the failure goes on. */
const failWith =
  (...opened: Array<EarlyPort | undefined>) =>
  async (err: unknown): Promise<never> => {
    await Promise.all(opened.map((port) => port?.close()));
    throw err;
  };

interface ServeOptions {
  log: Logger;
  now: () => number;
  ports: { public: EarlyPort; admin: EarlyPort } | undefined;
  metrics: Metrics;
  /** False once the start is given up: waiting for NATS ends. */
  stillWanted(): boolean;
  onConnected(nc: NatsConnection): void;
}

/** Connects to NATS and opens the buckets (waiting while they are unavailable), builds both apps, and serves them on the ports. */
async function serveWhenConnected(config: GatewayConfig, o: ServeOptions): Promise<Omit<RunningGateway, 'publicUrl' | 'adminUrl' | 'metricsUrl'>> {
  const { log, now, metrics } = o;
  const waitMs = Number.POSITIVE_INFINITY;
  // No database: the edge's state is in NATS (KV buckets) and the services it asks (issue #43).
  const nc = await waitForDependency(
    'NATS',
    (err) => o.stillWanted() && isNatsUnavailable(err),
    () => connectNats(config.NATS_URL, 'gateway', config.NATS_COALESCE_WRITES, config),
    log,
    waitMs,
  );
  o.onConnected(nc);
  logConnectionEvents(nc, log);
  const opened: Array<{ stop(): void }> = [];
  try {
    const forward = { nc, natsPrefix: config.NATS_PREFIX, rpcTimeoutMs: config.RPC_TIMEOUT_MS };
    const operators = operatorsClient(forward);
    const credentials = new CredentialCache(operators.credential, config.SECRETS_MASTER_KEY, config.CREDENTIAL_CACHE_TTL_MS, now);
    credentials.listen(nc, config.NATS_PREFIX);
    opened.push(credentials);
    // The play page's operator check: a lease that a status change waits out before it answers (docs/games.md, "Stopping play").
    const playOperatorStatus = operatorStatusLease({ nc, prefix: config.NATS_PREFIX, ask: operators.status });
    opened.push(playOperatorStatus);
    // Streams and buckets are created or checked once JetStream answers (a node may be being lost).
    const whenJetStream = <T>(open: () => Promise<T>) =>
      waitForDependency('JetStream', (err) => o.stillWanted() && isJetStreamUnavailable(err), open, log, waitMs);
    const limiter = await whenJetStream(() => SharedRateLimiter.open(nc, config.NATS_PREFIX, log, config.NATS_REPLICAS));
    const [claims, signatures] = await Promise.all([
      whenJetStream(() => KeyClaims.open(nc, config.NATS_PREFIX, config.IDEMPOTENCY_TTL_SECONDS, log, config.NATS_REPLICAS)),
      whenJetStream(() => SignatureBindings.open(nc, config.NATS_PREFIX, log, config.NATS_REPLICAS)),
    ]);
    // The answers are the owning services' (the kit's idempotency/): here, the claims and this replica's running keys.
    const edgeIdempotency = { claims, inFlight: new KeysInFlight() };
    const adminIdempotency = { claims, inFlight: new KeysInFlight() };

    const publicApp = baseApp(log, config, o.ports?.public);
    observabilityRoutes(publicApp, { nc, prefix: config.NATS_PREFIX, metrics });
    apiIndexRoute(publicApp, { apiPrefix: API_PREFIX });
    await publicApp.register(
      async (api) => {
        api.addHook('preValidation', operatorGuard({ credentials, limiter, idempotency: edgeIdempotency, signatures, metrics }));
        api.addHook('onSend', idempotencyRecorder(edgeIdempotency.inFlight, { ...forward, contextOf: operatorContext }));
        api.addHook('onResponse', async (req) => releaseIdempotencyKey(edgeIdempotency.inFlight, req));
        registerOperations(api, publicOperations, forward, { getMe: getMe(complianceProfiles(forward, config.CREDENTIAL_CACHE_TTL_MS)) }, operatorContext);
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
    opened.push(providerCredentials);
    // Aggregators calling us in their own protocol (Hub88, …), over the same provider wallet (docs/connectors.md).
    opened.push(
      await registerConnectors(publicApp, { ...forward, cacheTtlMs: config.CREDENTIAL_CACHE_TTL_MS, now, log, masterKey: config.SECRETS_MASTER_KEY }),
    );
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

    const adminApp = baseApp(log, config, o.ports?.admin);
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

    await Promise.all([publicApp.ready(), adminApp.ready()]);
    o.ports?.public.serve();
    o.ports?.admin.serve();
    return {
      publicApp,
      adminApp,
      nc,
      credentials,
      async stop() {
        await Promise.allSettled([publicApp.close(), adminApp.close()]);
        for (const part of opened) part.stop();
        await nc.drain().catch(() => undefined);
      },
    };
  } catch (err) {
    for (const part of opened) part.stop();
    await nc.close().catch(() => undefined);
    throw err;
  }
}
