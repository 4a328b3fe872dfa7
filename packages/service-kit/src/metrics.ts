// Prometheus metrics of a process, served on its own internal port (METRICS_PORT; never the
// public API port), with its probes: GET /livez (the process answers) and GET /readyz (readiness.ts).
// Every service gets RPC latency and outcome per subject and its outbox backlog; a service adds its
// own (webhook queue, reconciler, ledger verify) to the same registry.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
/** What the outbox gauges need of the pool (sql.ts's SqlRunner has it): kept here so processes without a database load no pg (edge.ts). */
type RowsQuery = { query(text: string): Promise<Record<string, unknown>[]> };
import type { Logger } from './log.ts';
import type { Readiness } from './readiness.ts';

export interface ServiceMetrics {
  registry: Registry;
  /** One served request: its subject, its outcome (`ok`, or the error code) and how long it took. */
  observeRpc(subject: string, outcome: string, seconds: number): void;
}

export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'bo_rpc_duration_seconds',
    help: 'Time to answer a NATS request, by subject and outcome (ok or the error code).',
    labelNames: ['subject', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, observeRpc: (subject, outcome, seconds) => duration.observe({ subject, outcome }, seconds) };
}

/** Gauges read from the service's outbox table when scraped: rows not yet published, and the oldest one's age. */
export function registerOutboxMetrics(registry: Registry, sql: RowsQuery, schema: string): void {
  let last: Promise<{ backlog: number; oldest: number }> | undefined;
  // One query per scrape feeds both gauges.
  const read = () =>
    (last ??= sql
      .query(`select count(*) as backlog, extract(epoch from now() - min(created_at))::float as oldest from "${schema}".outbox where published_at is null`)
      .then((rows) => ({ backlog: Number(rows[0]?.backlog ?? 0), oldest: Number(rows[0]?.oldest ?? 0) }))
      .finally(() => {
        setImmediate(() => {
          last = undefined;
        });
      }));
  new Gauge({
    name: 'bo_outbox_backlog',
    help: 'Outbox events written but not yet published to JetStream.',
    registers: [registry],
    async collect() {
      this.set((await read()).backlog);
    },
  });
  new Gauge({
    name: 'bo_outbox_oldest_age_seconds',
    help: 'Age of the oldest unpublished outbox event (0 when none).',
    registers: [registry],
    async collect() {
      this.set((await read()).oldest);
    },
  });
}

/** The pg pool's options and counts (node-postgres' Pool) that the pool gauges read. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

/**
 * The Postgres pool as it stands when scraped: connections in use and idle, requests waiting for one
 * (the pool is exhausted while this stays above 0) and the pool's size (DB pool max).
 */
export function registerPoolMetrics(registry: Registry, pool: PoolCounts): void {
  new Gauge({
    name: 'bo_pg_pool_connections',
    help: 'Postgres connections of the process pool, by state: in_use, idle, waiting (requests queued for a connection), max (pool size).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
      this.set({ state: 'max' }, pool.options.max ?? 10);
    },
  });
}

/** A counter registered once per registry (services and the gateway add their own this way). */
export function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames, registers: [registry] });
}

/**
 * A gauge read when scraped, registered once per registry: `collect` sets each label set's value
 * (services that keep no prom-client of their own count rows this way).
 */
export function scrapedGauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: (set: (labels: Partial<Record<L, string>>, value: number) => void) => Promise<void>,
): void {
  if (registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      await collect((labels, value) => this.set(labels, value));
    },
  });
}

export interface MetricsServer {
  port: number;
  stop(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * On host:port (port 0: any free one): `GET /metrics` in Prometheus text; `GET /livez` 200 while the
 * process's event loop answers (it depends on nothing else, so a database or NATS outage never
 * restarts it); `GET /readyz` 200 or 503 with every check and why it fails.
 */
export async function startMetricsServer(registry: Registry, host: string, port: number, log: Logger, readiness: Readiness): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || (path !== '/metrics' && path !== '/livez' && path !== '/readyz')) {
      res.writeHead(404).end();
      return;
    }
    if (path === '/livez') {
      json(res, 200, { status: 'live' });
      return;
    }
    if (path === '/readyz') {
      readiness.report().then(
        ({ ready, checks }) => json(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks }),
        (err: unknown) => {
          log.warn({ err }, 'readiness check failed');
          json(res, 503, { status: 'not_ready', checks: {} });
        },
      );
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType }).end(text);
      },
      (err: unknown) => {
        log.warn({ err }, 'metrics collection failed');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
