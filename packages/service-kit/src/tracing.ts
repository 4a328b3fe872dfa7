// Tracing by the OpenTelemetry libraries: the Node SDK and the official instrumentations of what a
// process's requests go through — its HTTP server and clients (node:http: the gateway's requests,
// the webhook POSTs), fetch (undici: the screening provider, the game providers), Postgres (pg:
// the kit's sql and the ORM share its pool) and the logger (pino: the trace and span ids on each
// line). NATS has none: telemetry.ts adds its spans by the messaging conventions.
//
// The instrumentations patch modules as they load, so tracing starts before anything else is
// imported: each main.ts imports this module alone, calls startTracing, then imports the rest.
// It imports nothing of the kit's for that reason. ES modules are patched through
// import-in-the-middle's loader hooks (in-thread, module.registerHooks), registered here for the
// few packages patched, never for the whole module graph.
//
// Started only when an exporter is configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER,
// the SDK's own variables; it reads OTEL_TRACES_SAMPLER and the rest itself). Without one nothing
// is patched and the API stays the no-op: tracing that is not done costs nothing.
import type { IncomingMessage } from 'node:http';
import { register as registerLoader } from 'node:module';
import type { Span } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { startNodeSdk } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { register as registerImportHooks, supportsSyncHooks } from 'import-in-the-middle/register-hooks.mjs';
import { nameStatementSpan } from './db-span-names.ts';

/**
 * The packages whose ES-module imports are hooked: pino is patched only through its import; pg's
 * client and node:http are also reached through require (from inside pg, from Fastify), patched
 * without a hook.
 */
const PATCHED_IMPORTS = ['pino', 'pg', 'http', 'https', 'node:http', 'node:https'];

/** Paths no trace is made for: probes and scrapes, many a minute, each alike. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/livez', '/metrics']);

let sdk: { shutdown(): Promise<void> } | undefined;

/** Whether this process traces: the kit's own NATS spans are made only then. */
export function tracingOn(): boolean {
  return sdk !== undefined;
}

/**
 * Starts the SDK and its instrumentations when an exporter is configured in `env` (or span
 * processors are given: tests). Call it before importing anything it patches. Once per process.
 */
export function startTracing(
  serviceName: string,
  opts: {
    env?: NodeJS.ProcessEnv;
    spanProcessors?: SpanProcessor[] /** The loader thread even where in-thread hooks work (tests). */;
    loaderThread?: boolean;
  } = {},
): void {
  const env = opts.env ?? process.env;
  if (sdk || (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_TRACES_EXPORTER && !opts.spanProcessors)) return;
  // In-thread hooks where this Node's module.registerHooks can carry them (24.11.1, 22.22.3 and
  // later); the loader thread before.
  if (supportsSyncHooks() && !opts.loaderThread) registerImportHooks({ include: PATCHED_IMPORTS });
  else registerLoader('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: PATCHED_IMPORTS } });
  sdk = startNodeSdk({
    ...(opts.spanProcessors ? { spanProcessors: opts.spanProcessors } : {}),
    resourceAttributes: { 'service.name': serviceName },
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]!),
        requestHook: withoutValues,
      }),
      new UndiciInstrumentation({
        requestHook: (span, req) => {
          span.setAttribute('url.full', withoutQuery(`${req.origin}${req.path}`));
          const query = req.path.split('?')[1];
          if (query) span.setAttribute('url.query', keysOnly(query));
        },
      }),
      // Statements outside a trace (the loops' polling) make no span; the pool's checkouts neither.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true, requestHook: (span, info) => nameStatementSpan(span, info.query.text) }),
      // Only the ids on each line: the lines themselves stay on stderr, not sent as OTel logs.
      new PinoInstrumentation({ disableLogSending: true, logKeys: { traceId: 'traceId', spanId: 'spanId', traceFlags: 'traceFlags' } }),
    ],
  });
}

/** Flushes and stops the SDK (at a graceful stop). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}

// A URL's query may hold what a trace must not (a webhook URL's token, a player's e-mail in a
// search): the client span's url.full is kept without it, the server span's url.query without values.
function withoutValues(span: Span, req: unknown): void {
  const incoming = req as IncomingMessage;
  if (typeof incoming.url === 'string' && 'socket' in incoming && 'headers' in incoming && !('setHeader' in incoming)) {
    const query = incoming.url.split('?')[1];
    if (query) span.setAttribute('url.query', keysOnly(query));
    return;
  }
  const out = req as { protocol?: string; path?: string; getHeader?(name: string): unknown };
  const host = out.getHeader?.('host');
  if (typeof host === 'string' && out.path) span.setAttribute('url.full', withoutQuery(`${out.protocol ?? 'http:'}//${host}${out.path}`));
}

/** A query's keys, each value REDACTED (as the instrumentations write what they redact). */
function keysOnly(query: string): string {
  return [...new URLSearchParams(query).keys()].map((k) => `${k}=REDACTED`).join('&');
}

function withoutQuery(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
