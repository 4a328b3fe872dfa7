// Each HTTP request is handled inside its own log context and its server span: the log lines of
// its whole handling (the gateway's own, at any depth) carry its `requestId` and, when tracing is
// on, the span's trace and span ids, and every span it starts (Postgres, NATS) is that span's child.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { logContext, tracer, withLogContext } from '@bo/service-kit';

const spans = new WeakMap<IncomingMessage, Span>();

// The HTTP server span by the conventions: named by the method until the route is known (then
// `<method> <route>`, with http.route, in the gateway's onResponse).
const startSpan = (method: string | undefined, url: string | undefined) =>
  tracer.startSpan(method ?? 'HTTP', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': method ?? '_OTHER', 'url.path': (url ?? '').split('?')[0], 'url.scheme': 'http' },
  });

/** Wraps the server's request listeners (Fastify's) so each request runs in its own context. */
export function handleRequestsInContext(server: Server): void {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  for (const listener of listeners) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const span = startSpan(req.method, req.url);
      spans.set(req, span);
      withLogContext({}, () => context.with(trace.setSpan(context.active(), span), () => listener(req, res)));
    });
  }
}

/** onRequest: names the request in its log context and on its span (one started here for an injected request). */
export function bindRequest(req: FastifyRequest): Span {
  const ctx = logContext();
  if (ctx) ctx.requestId = req.id;
  const span = spans.get(req.raw) ?? startSpan(req.method, req.url);
  span.setAttribute('bo.request_id', req.id);
  return span;
}
