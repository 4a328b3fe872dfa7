// Each HTTP request is handled inside its own log context: the log lines of its whole handling (the
// gateway's own, at any depth) carry its `requestId`. When tracing is on, its server span is
// HTTP's instrumentation's (service-kit's tracing.ts), active around the same handling: the lines
// carry its trace and span ids, and every span it starts (NATS) is its child. The route, which
// only Fastify knows, names the span by the conventions (`<method> <route>`, http.route): the
// instrumentation reads it from the request's RPC metadata when the response ends. A caller's own
// trace context (`traceparent`, `tracestate`) is dropped before the instrumentation reads it: each
// request starts a trace of ours, sampled by our setting, whatever an operator's client sends.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { context, trace, type Span } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import type { FastifyRequest } from 'fastify';
import { logContext, withLogContext } from '@bo/service-kit/edge';

/** Wraps the server's request listeners (Fastify's) so each request runs in its own log context, in a trace of ours. */
export function handleRequestsInContext(server: Server): void {
  // The instrumentation opens the server span in the prototype's emit: this runs before it.
  server.emit = function emit(this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const headers = (args[0] as IncomingMessage).headers;
      delete headers.traceparent;
      delete headers.tracestate;
    }
    return Reflect.apply((Object.getPrototypeOf(this) as Server).emit, this, [event, ...args]) as boolean;
  } as Server['emit'];
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  for (const listener of listeners) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => withLogContext({}, () => listener(req, res)));
  }
}

/** onRequest: names the request in its log context and its server span (none for an injected request, or without tracing). */
export function bindRequest(req: FastifyRequest): Span | undefined {
  const ctx = logContext();
  if (ctx) ctx.requestId = req.id;
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  span.setAttribute('bo.request_id', req.id);
  const rpc = getRPCMetadata(context.active());
  if (rpc?.type === RPCType.HTTP && req.routeOptions.url) rpc.route = req.routeOptions.url;
  return span;
}
