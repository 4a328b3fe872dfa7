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
 * Runs an attempt of a delivery of `eventId` to `url` in an HTTP client span of the event's trace
 * (the conventions' `POST`, with the method, the URL without its query or credentials, the server's
 * address and port), its request id on every log line.
 */
export function inEventTrace<T>(eventId: string, url: string, attributes: Record<string, string | number>, fn: (span: Span) => Promise<T>): Promise<T> {
  const origin = origins.get(eventId);
  const requestId = origin?.[REQUEST_ID_HEADER];
  return withLogContext(requestId ? { requestId } : {}, () =>
    withSpanFrom('POST', SpanKind.CLIENT, origin, fn, { ...httpClientAttributes(url), ...attributes }),
  );
}

/** What the HTTP client conventions name of the target; a query or user info (which may hold a secret) is left out. */
function httpClientAttributes(url: string): Record<string, string | number> {
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    return { 'http.request.method': 'POST', 'url.full': `${u.protocol}//${u.host}${u.pathname}`, 'server.address': u.hostname, 'server.port': port };
  } catch {
    return { 'http.request.method': 'POST' };
  }
}
