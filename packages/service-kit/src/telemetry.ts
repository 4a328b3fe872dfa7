// OpenTelemetry: each process starts the Node SDK when an exporter is configured
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER, the SDK's own variables). Trace context
// crosses NATS in message headers (W3C traceparent), so one trace follows a request from the
// gateway through every service it touches.
import { context, propagation, trace, SpanKind, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';
import { startNodeSdk } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { BaseConfig } from './config.ts';

export const tracer = trace.getTracer('back-office');

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts the SDK when an exporter is configured (`config`: OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_TRACES_EXPORTER from the process's configuration) or span processors are given (tests).
 */
export function startTelemetry(
  serviceName: string,
  opts: { config?: Pick<BaseConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_TRACES_EXPORTER'>; spanProcessors?: SpanProcessor[] } = {},
): Telemetry {
  const configured = opts.config?.OTEL_EXPORTER_OTLP_ENDPOINT || opts.config?.OTEL_TRACES_EXPORTER;
  if (!configured && !opts.spanProcessors) return { shutdown: async () => undefined };
  const sdk = startNodeSdk({
    ...(opts.spanProcessors ? { spanProcessors: opts.spanProcessors } : {}),
    resourceAttributes: { 'service.name': serviceName },
    metricReaders: [],
    logRecordProcessors: [],
  });
  return { shutdown: () => sdk.shutdown() };
}

/** The active trace context as headers to send along (empty when nothing is traced). */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** Runs `fn` in a server span whose parent is the context carried by incoming headers. */
export function withServerSpan<T>(name: string, carrier: Record<string, string>, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = propagation.extract(context.active(), carrier);
  return tracer.startActiveSpan(name, { kind: SpanKind.SERVER }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw e;
    } finally {
      span.end();
    }
  });
}
