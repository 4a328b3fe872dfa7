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
import type { TracingOptions } from './tracing-sdk.ts';

let sdk: { shutdown(): Promise<void> } | undefined;

/** Whether this process traces: the kit's own NATS spans are made only then. */
export function tracingOn(): boolean {
  return sdk !== undefined;
}

/**
 * Starts the SDK and its instrumentations when an exporter is configured in `env` (or span
 * processors are given: tests), loading them only then (tracing-sdk.ts). Await it before importing
 * anything it patches. Once per process.
 */
export async function startTracing(serviceName: string, opts: TracingOptions = {}): Promise<void> {
  const env = opts.env ?? process.env;
  if (sdk || (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_TRACES_EXPORTER && !opts.spanProcessors)) return;
  const { startNodeTracing } = await import('./tracing-sdk.ts');
  sdk ??= startNodeTracing(serviceName, opts);
}

/** Flushes and stops the SDK (at a graceful stop). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
