// Builds a domain service from its parts: database (own schema, migrations on start), NATS
// request-reply handlers in a queue group, the outbox relay, and background loops. Tests start it
// in-process; main.ts starts it as a process and stops it gracefully.
import type { MikroORM, EntitySchema, Constructor } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { callOperation, type RequestContext } from '@bo/contracts';
import { openDatabase, type Migration } from './db.ts';
import { openSql, type Sql } from './sql.ts';
import { connectNats } from './nats.ts';
import { ensureEventsStream, startOutboxRelay, type OutboxRelay } from './outbox.ts';
import { serveOperations, type Handler, type Server } from './serve.ts';
import { createLogger, type Logger } from './log.ts';
import type { BaseConfig } from './config.ts';
import { traceHeaders } from './telemetry.ts';
import { createServiceMetrics, registerOutboxMetrics, startMetricsServer, type MetricsServer } from './metrics.ts';
import type { Registry } from 'prom-client';

export interface ServiceDeps {
  orm: MikroORM;
  /** Plain SQL on the ORM's pool, prepared statements: what the hot paths use (sql.ts). */
  sql: Sql;
  nc: NatsConnection;
  prefix: string;
  schema: string;
  log: Logger;
  config: BaseConfig;
  /** Wake the outbox relay after a commit that wrote events. */
  outbox: OutboxRelay;
  /** Ask another service (internal scope). */
  call<R>(subject: string, body: unknown, ctx?: Partial<RequestContext>): Promise<R>;
  /** The service's Prometheus registry: register its own metrics here (served on METRICS_PORT). */
  metrics: Registry;
}

export interface ServiceDefinition {
  name: string;
  schema: string;
  entities: EntitySchema<any, any>[];
  migrations: { name: string; class: Constructor<Migration> }[];
  handlers(deps: ServiceDeps): Record<string, Handler>;
  /** Loops that run beside the handlers (reconcilers, delivery workers); each returns its stop. */
  background?(deps: ServiceDeps): Array<() => Promise<void>>;
}

export interface RunningService extends ServiceDeps { stop(): Promise<void>; metricsPort?: number }

export async function startService(def: ServiceDefinition, config: BaseConfig, opts: { log?: Logger } = {}): Promise<RunningService> {
  const log = opts.log ?? createLogger(def.name);
  const orm = await openDatabase({ databaseUrl: config.DATABASE_URL, schema: def.schema, entities: def.entities, migrations: def.migrations });
  const sql = await openSql(orm);
  const nc = await connectNats(config.NATS_URL, def.name);
  await ensureEventsStream(nc, config.NATS_PREFIX);
  const outbox = startOutboxRelay({ sql, schema: def.schema, nc, prefix: config.NATS_PREFIX, log, pollMs: config.OUTBOX_POLL_MS, service: def.name });
  const metrics = createServiceMetrics(def.name);
  registerOutboxMetrics(metrics.registry, orm, def.schema);
  const deps: ServiceDeps = {
    orm, sql, nc, prefix: config.NATS_PREFIX, schema: def.schema, log, config, outbox, metrics: metrics.registry,
    call: (subject, body, ctx) => callOperation(nc, subject, {
      ctx: { requestId: ctx?.requestId ?? 'internal', scope: ctx?.scope ?? { kind: 'internal', service: def.name } },
      params: {}, query: {}, body,
    }, { prefix: config.NATS_PREFIX, timeoutMs: config.RPC_TIMEOUT_MS, headers: traceHeaders() }),
  };
  const server: Server = serveOperations({ nc, prefix: config.NATS_PREFIX, service: def.name, handlers: def.handlers(deps), log, observe: metrics.observeRpc });
  const stops = def.background?.(deps) ?? [];
  const metricsServer: MetricsServer | undefined = config.METRICS_PORT === undefined
    ? undefined : await startMetricsServer(metrics.registry, config.METRICS_HOST ?? '127.0.0.1', config.METRICS_PORT, log);
  // The subscriptions are registered with the server once this returns: "started" means reachable.
  await nc.flush();
  log.info({ prefix: config.NATS_PREFIX, ...(metricsServer ? { metricsPort: metricsServer.port } : {}) }, `${def.name} service started`);
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

/** A part of a service (e.g. the wallet's ledger and its games) contributing tables and handlers. */
export type ServiceModule = Omit<ServiceDefinition, 'name' | 'schema'>;

/** One service made of several modules sharing its schema, database and NATS connection. */
export function composeService(name: string, schema: string, modules: ServiceModule[]): ServiceDefinition {
  return {
    name, schema,
    entities: modules.flatMap((m) => m.entities),
    migrations: modules.flatMap((m) => m.migrations),
    handlers: (deps) => Object.assign({}, ...modules.map((m) => m.handlers(deps))),
    background: (deps) => modules.flatMap((m) => m.background?.(deps) ?? []),
  };
}
