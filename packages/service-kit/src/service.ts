// Builds a domain service from its definition: its configuration schema, database (own schema,
// migrations on start), an optional setup step (what its handlers and loops share), NATS
// request-reply handlers in a queue group, the outbox relay, and background loops. Tests start it
// in-process; main.ts starts it as a process (runMain) and stops it gracefully. With METRICS_PORT
// it serves its metrics and probes there; readiness covers NATS, Postgres, the outbox relay and
// every background task that reports its state.
import type { MikroORM, EntitySchema, Constructor } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Static, TObject } from '@sinclair/typebox';
import { callOperation, type RequestContext } from '@bo/contracts';
import { openDatabase, type Migration } from './db.ts';
import { openSql, type Sql } from './sql.ts';
import { connectNats, logConnectionEvents } from './nats.ts';
import { ensureEventsStream, ensureInternalStream, startOutboxRelay, type OutboxRelay } from './outbox.ts';
import { serveOperations, type Handler, type Server } from './serve.ts';
import { AnswerStore } from './idempotency/kit-kept.ts';
import { startRetention } from './retention.ts';
import { createLogger, logContext, type Logger } from './log.ts';
import { configOf, type BaseConfig } from './config.ts';
import { armCrashPoints } from './crash.ts';
import { waitForJetStream } from './startup-wait.ts';
import { sendRequest } from './telemetry.ts';
import { context } from '@opentelemetry/api';
import { createServiceMetrics, registerOutboxMetrics, registerPoolMetrics, startMetricsServer, type MetricsServer, type PoolCounts } from './metrics.ts';
import { createReadiness, natsReadiness, postgresReadiness } from './readiness.ts';
import type { Registry } from 'prom-client';
import { registerGroupCommitMetrics, statementGroup, type StatementPart } from './statement-group.ts';

export interface ServiceDeps<C extends BaseConfig = BaseConfig> {
  orm: MikroORM;
  /** Plain SQL on the ORM's pool, prepared statements: what the hot paths use (sql.ts). */
  sql: Sql;
  nc: NatsConnection;
  prefix: string;
  schema: string;
  log: Logger;
  /** The service's own configuration, validated against its schema when it was loaded. */
  config: C;
  /** Wake the outbox relay after a commit that wrote events. */
  outbox: OutboxRelay;
  /** Ask another service (internal scope). */
  call<R>(subject: string, body: unknown, ctx?: Partial<RequestContext>): Promise<R>;
  /** The service's Prometheus registry: register its own metrics here (served on METRICS_PORT). */
  metrics: Registry;
  /**
   * The group commit named `name` (one of the definition's `groupCommits`): a write's statement,
   * run together with the concurrent writes of the same group (statement-group.ts). Made on the
   * first call; later calls with the name answer the same group.
   */
  statementGroup<I, R>(
    name: string,
    opts: { keyOf(item: I): string; part(item: I, suffix: string): StatementPart; shapeOf?(item: I): string },
  ): (item: I) => Promise<R[]>;
}

/** A consumer or loop a service runs beside its handlers, named, with its state for readiness. */
export interface BackgroundTask {
  name: string;
  stop(): Promise<void>;
  /** Why it is not doing its work now (not started, failing), or undefined. */
  problem(): string | undefined;
}

/** What `background` returns: tasks that report their state, or bare stops. */
export type Background = BackgroundTask | (() => Promise<void>);

/** A config schema whose values include the kit's base settings. */
export type ConfigSchema = TObject & { static: BaseConfig };

export interface ServiceDefinition<S extends ConfigSchema = ConfigSchema, X = void> {
  name: string;
  /** The Postgres schema the service owns. */
  schema: string;
  /** Its configuration: the kit's BaseConfigSchema composed with its own settings. */
  config: S;
  // biome-ignore lint/suspicious/noExplicitAny: a registry of entities of every type
  entities: EntitySchema<any, any>[];
  migrations: { name: string; class: Constructor<Migration> }[];
  /** Whether it writes internal events (writeInternalEvent): the internal stream is made sure of at start. */
  internalEvents?: boolean;
  /** Built once at start, before handlers and loops; what they share (a delivery worker, settings). */
  setup?(deps: ServiceDeps<Static<S>>): X;
  handlers(deps: ServiceDeps<Static<S>>, shared: X): Record<string, Handler>;
  /** Loops and consumers that run beside the handlers (reconcilers, delivery workers); a task's problem makes the service unready. */
  background?(deps: ServiceDeps<Static<S>>, shared: X): Background[];
  /**
   * Idempotency keys the service remembers on its own rows (beside its stored answers, which the
   * kit forgets itself), forgotten on the same clock: at most `batch`; true when more are waiting.
   */
  forgetRowKeys?(deps: ServiceDeps<Static<S>>, olderThanSeconds: number, batch: number): Promise<boolean>;
  /** Rows of its own the service keeps only for a while (the webhooks' event log), deleted by the same loop: at most `batch`; true when more are waiting. */
  deleteExpiredRows?(deps: ServiceDeps<Static<S>>, batch: number): Promise<boolean>;
  /** The names of its group commits (`deps.statementGroup`): their metrics are there at zero from the start. */
  groupCommits?: readonly string[];
}

export interface RunningService<C extends BaseConfig = BaseConfig> extends ServiceDeps<C> {
  stop(): Promise<void>;
  metricsPort?: number;
}

export async function startService<S extends ConfigSchema, X>(
  def: ServiceDefinition<S, X>,
  config: Static<S>,
  opts: { log?: Logger } = {},
): Promise<RunningService<Static<S>>> {
  const base: BaseConfig = config;
  const log = opts.log ?? createLogger(def.name, base.LOG_LEVEL);
  armCrashPoints(base.CRASH_AT);
  const orm = await openDatabase({ databaseUrl: base.DATABASE_URL, schema: def.schema, entities: def.entities, migrations: def.migrations, log });
  const sql = await openSql(orm);
  const nc = await connectNats(base.NATS_URL, def.name, base.NATS_COALESCE_WRITES, base);
  logConnectionEvents(nc, log);
  try {
    await waitForJetStream(() => ensureEventsStream(nc, base.NATS_PREFIX, base.NATS_REPLICAS), log);
    if (def.internalEvents) await waitForJetStream(() => ensureInternalStream(nc, base.NATS_PREFIX, base.NATS_REPLICAS), log);
  } catch (e) {
    // A start that fails here leaves nothing open: a process (a test's) would otherwise wait on them.
    await nc.close().catch(() => undefined);
    await orm.close(true);
    throw e;
  }
  const outbox = startOutboxRelay({
    sql,
    schema: def.schema,
    nc,
    prefix: base.NATS_PREFIX,
    log,
    pollMs: base.OUTBOX_POLL_MS,
    idleMaxMs: base.OUTBOX_IDLE_POLL_MS,
    service: def.name,
  });
  const metrics = createServiceMetrics(def.name);
  registerOutboxMetrics(metrics.registry, sql, def.schema);
  registerPoolMetrics(metrics.registry, (await orm.em.getConnection().getNativeClient()) as unknown as PoolCounts);
  // Only a service with group commits serves their series (the README lists them for payments and wallet).
  const groupMetrics = def.groupCommits?.length ? registerGroupCommitMetrics(metrics.registry, def.groupCommits) : undefined;
  // biome-ignore lint/suspicious/noExplicitAny: one map holds groups of every item type
  const groups = new Map<string, (item: any) => Promise<any[]>>();
  const deps: ServiceDeps<Static<S>> = {
    orm,
    sql,
    nc,
    prefix: base.NATS_PREFIX,
    schema: def.schema,
    log,
    config,
    outbox,
    metrics: metrics.registry,
    statementGroup: (name, opts) => {
      if (!def.groupCommits?.includes(name)) throw new Error(`group commit ${name} is not among ${def.name}'s groupCommits`);
      let group = groups.get(name);
      if (!group) {
        group = statementGroup(sql, {
          name,
          settings: { max: base.GROUP_COMMIT_MAX, windowMs: base.GROUP_COMMIT_WINDOW_MS },
          keyOf: opts.keyOf,
          part: opts.part,
          ...(opts.shapeOf ? { shapeOf: opts.shapeOf } : {}),
          metrics: groupMetrics,
        });
        groups.set(name, group);
      }
      return group;
    },
    call: (subject, body, ctx) =>
      // In a producer span of the handling under way when tracing is on (messaging conventions).
      sendRequest(base.NATS_PREFIX, subject, context.active(), (headers) =>
        callOperation(
          nc,
          subject,
          {
            // The request being handled, when there is one: the callee's log lines name it too.
            ctx: { requestId: ctx?.requestId ?? logContext()?.requestId ?? 'internal', scope: ctx?.scope ?? { kind: 'internal', service: def.name } },
            params: {},
            query: {},
            body,
          },
          { prefix: base.NATS_PREFIX, timeoutMs: base.RPC_TIMEOUT_MS, headers },
        ),
      ),
  };
  const shared = def.setup ? def.setup(deps) : (undefined as X);
  const server: Server = serveOperations({
    nc,
    prefix: base.NATS_PREFIX,
    service: def.name,
    handlers: def.handlers(deps, shared),
    answers: new AnswerStore({
      sql,
      schema: def.schema,
      ttlSeconds: base.IDEMPOTENCY_TTL_SECONDS,
      leaseSeconds: base.IDEMPOTENCY_LEASE_SECONDS,
      // The admin API's answers can carry a secret shown once (a new key, a password, a token).
      sealAdminAnswersWith: (config as { SECRETS_MASTER_KEY?: string }).SECRETS_MASTER_KEY,
      onError: (err, what) => log.error({ err }, what),
    }),
    log,
    observe: metrics.observeRpc,
    logSample: base.LOG_REQUESTS_SAMPLE,
  });
  const readiness = createReadiness();
  readiness.add('nats', natsReadiness(nc));
  readiness.add('postgres', postgresReadiness(sql));
  readiness.add('outbox relay', outbox.problem);
  const stops: Array<() => Promise<void>> = [];
  for (const task of def.background?.(deps, shared) ?? []) {
    if (typeof task === 'function') stops.push(task);
    else {
      stops.push(() => task.stop());
      readiness.add(task.name, () => task.problem());
    }
  }
  stops.push(
    startRetention({
      sql,
      schema: def.schema,
      idempotencyTtlSeconds: base.IDEMPOTENCY_TTL_SECONDS,
      outboxRetentionSeconds: base.OUTBOX_RETENTION_SECONDS,
      intervalMs: base.RETENTION_INTERVAL_MS,
      log,
      ...(def.forgetRowKeys ? { forgetRowKeys: (olderThan: number, batch: number) => def.forgetRowKeys!(deps, olderThan, batch) } : {}),
      ...(def.deleteExpiredRows ? { deleteExpiredRows: (batch: number) => def.deleteExpiredRows!(deps, batch) } : {}),
    }),
  );
  const metricsServer: MetricsServer | undefined =
    base.METRICS_PORT === undefined ? undefined : await startMetricsServer(metrics.registry, base.METRICS_HOST, base.METRICS_PORT, log, readiness);
  // The subscriptions are registered with the server once this returns: "started" means reachable.
  await nc.flush();
  log.info({ prefix: base.NATS_PREFIX, ...(metricsServer ? { metricsPort: metricsServer.port } : {}) }, `${def.name} service started`);
  return {
    ...deps,
    metricsPort: metricsServer?.port,
    async stop() {
      await metricsServer?.stop();
      await server.stop();
      await Promise.allSettled(stops.map((s) => s()));
      await outbox.stop();
      await nc.drain().catch(() => undefined);
      await orm.close();
    },
  };
}

/** Starts a service with settings given in code: its schema's defaults fill the rest (tests, tools). */
export function startServiceWith<S extends ConfigSchema, X>(
  def: ServiceDefinition<S, X>,
  values: Partial<Static<S>>,
  opts: { log?: Logger } = {},
): Promise<RunningService<Static<S>>> {
  return startService(def, configOf(def.config, values), opts);
}

/** A part of a service (e.g. the wallet's ledger and its games) contributing tables and handlers. */
export interface ServiceModule<C extends BaseConfig = BaseConfig> {
  // biome-ignore lint/suspicious/noExplicitAny: a registry of entities of every type
  entities: EntitySchema<any, any>[];
  migrations: { name: string; class: Constructor<Migration> }[];
  handlers(deps: ServiceDeps<C>): Record<string, Handler>;
  background?(deps: ServiceDeps<C>): Background[];
  /** The names of its group commits (ServiceDefinition's `groupCommits`). */
  groupCommits?: readonly string[];
}

/** One service made of several modules sharing its schema, configuration, database and NATS connection. */
export function composeService<S extends ConfigSchema>(name: string, schema: string, config: S, modules: ServiceModule<Static<S>>[]): ServiceDefinition<S> {
  return {
    name,
    schema,
    config,
    entities: modules.flatMap((m) => m.entities),
    migrations: modules.flatMap((m) => m.migrations),
    handlers: (deps) => Object.assign({}, ...modules.map((m) => m.handlers(deps))),
    background: (deps) => modules.flatMap((m) => m.background?.(deps) ?? []),
    groupCommits: modules.flatMap((m) => m.groupCommits ?? []),
  };
}
