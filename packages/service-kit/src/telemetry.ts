// NATS in traces, by hand (OpenTelemetry has no NATS instrumentation), by the messaging conventions:
// a request is a producer span at the caller (`send <subject>`) and a consumer span at the service
// (`process <subject>`); an event's JetStream message is published in a producer span (outbox.ts)
// and taken in a consumer span (durable-consumer.ts). Trace context crosses in the messages'
// headers (W3C traceparent), so one trace follows a request from the gateway through every service
// it touches to the webhook it causes. The rest (HTTP, fetch, Postgres, log lines) is traced by the
// official instrumentations (tracing.ts). Without tracing the kit adds no span of its own
// (`tracingOn`): the money path pays nothing for tracing it does not do.
import {
  context,
  propagation,
  trace,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';
import { rpcSubject } from '@bo/contracts';
import { logContext } from './log.ts';
import { tracingOn } from './tracing.ts';

export const tracer = trace.getTracer('back-office');

/** The header that carries the request id of an event's origin along with its trace context. */
export const REQUEST_ID_HEADER = 'bo-request-id';

/**
 * Where the handling of something that happens later (an event published, a webhook delivered)
 * came from: its trace headers and request id by id, kept in this process for a while (the oldest are forgotten
 * past `max`). What is not found (the process restarted in between, another replica took over)
 * starts a trace of its own.
 */
export class TraceOrigins {
  readonly #carriers = new Map<string, Record<string, string>>();
  readonly #max: number;
  constructor(max = 10_000) {
    this.#max = max;
  }
  /** Keeps the active trace context (when tracing is on) and the log context's request id as the origin of `id`. */
  note(id: string): void {
    const carrier = tracingOn() ? traceHeaders() : {};
    const requestId = logContext()?.requestId;
    if (requestId) carrier[REQUEST_ID_HEADER] = requestId;
    if (Object.keys(carrier).length === 0) return;
    this.#carriers.set(id, carrier);
    if (this.#carriers.size > this.#max) this.#carriers.delete(this.#carriers.keys().next().value!);
  }
  get(id: string): Record<string, string> | undefined {
    return this.#carriers.get(id);
  }
  forget(id: string): void {
    this.#carriers.delete(id);
  }
}

/** Runs `fn` in a span of `kind` whose parent is the context in `carrier` (a root span without one). */
export function withSpanFrom<T>(
  name: string,
  kind: SpanKind,
  carrier: Record<string, string> | undefined,
  fn: (span: Span) => Promise<T>,
  attributes: Attributes = {},
): Promise<T> {
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  return inSpan(name, { kind, attributes }, parent, fn);
}

/** Runs `fn` in an active span under `parent`: marked as an error when `fn` throws, ended either way. */
function inSpan<T>(name: string, options: SpanOptions, parent: Context, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, options, parent, async (span) => {
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

/** The active trace context as headers to send along (empty when nothing is traced). */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The messaging conventions' attributes of a NATS request (`operation`: send at the caller, process at the service). */
export function natsRequestAttributes(destination: string, operation: 'send' | 'process'): Attributes {
  return {
    'messaging.system': 'nats',
    'messaging.destination.name': destination,
    'messaging.operation.type': operation,
    'messaging.operation.name': operation === 'send' ? 'request' : 'process',
  };
}

/**
 * Sends a NATS request (`send` is given the headers to send with it) in a producer span named
 * `send <subject>` under `parent`, by the messaging conventions, when tracing is on; without
 * tracing it only hands over the (empty) trace headers.
 */
export function sendRequest<T>(prefix: string, subject: string, parent: Context, send: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  if (!tracingOn()) return send(traceHeaders(parent));
  const destination = rpcSubject(prefix, subject);
  return inSpan(`send ${destination}`, { kind: SpanKind.PRODUCER, attributes: natsRequestAttributes(destination, 'send') }, parent, () => send(traceHeaders()));
}
