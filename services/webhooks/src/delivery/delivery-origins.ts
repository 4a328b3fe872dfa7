// The trace (and request id) each event arrived in, from its intake to its deliveries' attempts in
// this process: a delivery's POST continues the trace of the request that caused the event.
import { REQUEST_ID_HEADER, TraceOrigins, withLogContext, withSpanFrom } from '@bo/service-kit';
import { SpanKind, type Span } from '@opentelemetry/api';

const origins = new TraceOrigins();

/** At intake, inside the message's handling: the event's trace is the one under way. */
export function noteEventOrigin(eventId: string): void {
  origins.note(eventId);
}

/** Once no attempt of the event's delivery is to come from this process. */
export function forgetEventOrigin(eventId: string): void {
  origins.forget(eventId);
}

/**
 * Runs an attempt of a delivery of `eventId` in a span of the event's trace (`webhook attempt`, with
 * the delivery's ids), its request id on every log line. The POST itself is a client span under it,
 * HTTP's instrumentation's (service-kit's tracing.ts), named and attributed by the conventions.
 */
export function inEventTrace<T>(eventId: string, attributes: Record<string, string | number>, fn: (span: Span) => Promise<T>): Promise<T> {
  const origin = origins.get(eventId);
  const requestId = origin?.[REQUEST_ID_HEADER];
  return withLogContext(requestId ? { requestId } : {}, () => withSpanFrom('webhook attempt', SpanKind.INTERNAL, origin, fn, attributes));
}
