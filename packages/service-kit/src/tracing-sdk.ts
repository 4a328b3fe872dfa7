// The OpenTelemetry SDK and the instrumentations, started by tracing.ts only when a process traces:
// loaded only then (some 300 ms of module loading a process that does not trace never pays).
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

export interface TracingOptions {
  env?: NodeJS.ProcessEnv;
  spanProcessors?: SpanProcessor[] /** The loader thread even where in-thread hooks work (tests). */;
  loaderThread?: boolean;
}

/** Starts the SDK and its instrumentations (tracing.ts decides whether to). */
export function startNodeTracing(serviceName: string, opts: TracingOptions): { shutdown(): Promise<void> } {
  // In-thread hooks where this Node's module.registerHooks can carry them (24.11.1, 22.22.3 and
  // later); the loader thread before.
  if (supportsSyncHooks() && !opts.loaderThread) registerImportHooks({ include: PATCHED_IMPORTS });
  else registerLoader('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: PATCHED_IMPORTS } });
  return startNodeSdk({
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
