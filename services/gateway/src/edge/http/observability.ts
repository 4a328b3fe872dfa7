// /healthz and /readyz on the gateway root (outside /api/v1); the metrics, which the public must
// not see, are served on METRICS_PORT (the kit's metrics server).
import type { FastifyInstance } from 'fastify';
import type { NatsConnection } from '@nats-io/transport-node';
import { Registry, collectDefaultMetrics, Counter, Histogram } from 'prom-client';
import { pingMessage, rpcSubject } from '@bo/contracts';
import { jetStreamReadiness } from '@bo/service-kit/edge';

export const BACKING_SERVICES = ['operators', 'players', 'wallet', 'payments', 'webhooks', 'compliance'] as const;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const idempotencyOutcomes = new Counter({
    name: 'bo_idempotency_outcomes_total',
    help: 'Idempotency-Key claims at the edge by outcome: claimed (first use), same (the request again: its service replays it), conflict, in_progress (a copy running on this replica).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Every outcome at 0 from the start: absent means down, and a rate works before the first claim.
  for (const outcome of ['claimed', 'same', 'conflict', 'in_progress']) idempotencyOutcomes.inc({ outcome }, 0);
  const rateLimitRefusals = new Counter({ name: 'bo_rate_limit_refusals_total', help: 'Requests refused with 429 RATE_LIMITED.', registers: [registry] });
  return { registry, httpDuration, idempotencyOutcomes, rateLimitRefusals };
}
export type Metrics = ReturnType<typeof createMetrics>;

export function observabilityRoutes(app: FastifyInstance, deps: { nc: NatsConnection; prefix: string; metrics: Metrics }): void {
  app.addHook('onResponse', async (req, reply) => {
    deps.metrics.httpDuration.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unknown', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    // The edge's own dependencies (it has no database: its state is in NATS KV), then every service.
    const checks: Record<string, boolean> = { nats: !deps.nc.isClosed() };
    checks.jetstream = await Promise.resolve()
      .then(jetStreamReadiness(deps.nc))
      .then(
        (problem) => problem === undefined,
        () => false,
      );
    await Promise.all(
      BACKING_SERVICES.map(async (svc) => {
        checks[svc] = await deps.nc.request(rpcSubject(deps.prefix, pingMessage(svc).subject), '{}', { timeout: 1000 }).then(
          () => true,
          () => false,
        );
      }),
    );
    const ready = Object.values(checks).every(Boolean);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
}
