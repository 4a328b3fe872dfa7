// The gateway's ports are listened on first, before NATS is asked anything (issue #56: a gateway
// restarted while NATS was away exited, was restarted, and took ~35 s to listen). Until the app
// that serves a port is built (NATS connected, its KV buckets open), every request on it is
// answered 503 SERVICE_UNAVAILABLE with Retry-After, in the envelope (`/readyz` in its own shape);
// then the app takes the same listening server over (Fastify's serverFactory), so the port is never
// closed in between.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyServerFactory, FastifyServerFactoryHandler } from 'fastify';
import { AppError } from '@bo/contracts';
import { envelope } from '@bo/http-kit';

export interface EarlyPort {
  url: string;
  /** For the app's `serverFactory`: it is built on this server, and answers once `serve()` is called. */
  serverFactory: FastifyServerFactory;
  serve(): void;
  close(): Promise<void>;
}

/** What a request is answered while the app is not built yet. */
export interface StartingAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * 503 SERVICE_UNAVAILABLE with Retry-After in the envelope, to every request but `GET /readyz`, which
 * answers as the app's does when something is down (`status`, `checks`), so what reads it reads this too.
 */
export function startingAnswer(path: string, requestId: string, checks: Record<string, boolean>): StartingAnswer {
  if (path === '/readyz') return { status: 503, headers: { 'retry-after': '1' }, body: { status: 'not_ready', checks } };
  const err = new AppError('SERVICE_UNAVAILABLE', 'The gateway is starting; retry shortly.');
  return { status: err.status, headers: { ...err.headers }, body: envelope(err.toBody(), requestId) };
}

/** Listens on `host:port` now and answers `starting` until `serve()`; `clientError` answers malformed HTTP meanwhile (the app's own answer after). */
export async function listenEarly(
  port: number,
  host: string,
  o: { newRequestId(): string; clientError(err: Error & { code?: string }, socket: Duplex): void; starting(path: string, requestId: string): StartingAnswer },
): Promise<EarlyPort> {
  // Node answers a request without Host with a bare 400: the app answers it in the envelope (baseApp).
  const server = http.createServer({ requireHostHeader: false });
  let appHandler: FastifyServerFactoryHandler | undefined;
  let serving = false;
  const starting = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const id = o.newRequestId();
    const answer = o.starting((req.url ?? '/').split('?')[0]!, id);
    const body = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      ...answer.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
    });
    res.end(body);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => (serving && appHandler ? appHandler(req, res) : starting(req, res)));
  server.on('clientError', o.clientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    serverFactory: (handler, fastifyOptions) => {
      appHandler = handler;
      // The timeouts Fastify sets on a server it makes itself; malformed HTTP is the app's to answer from now on.
      const opts = fastifyOptions as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket: number };
      server.keepAliveTimeout = opts.keepAliveTimeout;
      server.requestTimeout = opts.requestTimeout;
      server.setTimeout(opts.connectionTimeout);
      if (opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
      server.off('clientError', o.clientError);
      return server;
    },
    serve: () => {
      serving = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
