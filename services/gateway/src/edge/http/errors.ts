// The one error handler: every failure leaves as the contract's envelope
// `{ error: { code, message, requestId, details } }` (the mapping and the envelope: @bo/http-kit).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@bo/contracts';
import { envelope, logFailure, toAppError } from '@bo/http-kit';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, conflicting
 * Content-Length, control characters in a header, …) and expectations we do not meet: answered
 * in the envelope too, with a request id, and the connection closed.
 */
export function installProtocolErrorAnswers(app: FastifyInstance, newRequestId: () => string): void {
  app.server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const id = newRequestId();
    const body = JSON.stringify(envelope(new AppError('EXPECTATION_FAILED').toBody(), id));
    res.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
      connection: 'close',
    });
    res.end(body);
  });
}

/**
 * An HTTP/1.1 request without a Host header (RFC 9112, 3.2): 400 BAD_REQUEST in the envelope and the
 * connection closed. Node's own check does the same with an empty body; baseApp turns it off.
 */
export function refuseMissingHost(req: FastifyRequest, reply: FastifyReply): void {
  if (req.raw.httpVersion !== '1.1' || req.headers.host !== undefined) return;
  reply.header('connection', 'close');
  throw new AppError('BAD_REQUEST', 'An HTTP/1.1 request must have a Host header.');
}

export function clientErrorAnswer(newRequestId: () => string) {
  return (err: Error & { code?: string }, socket: Duplex): void => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const error = err.code === 'HPE_HEADER_OVERFLOW' ? new AppError('HEADERS_TOO_LARGE') : new AppError('BAD_REQUEST');
    const id = newRequestId();
    const body = JSON.stringify(envelope(error.toBody(), id));
    socket.end(
      `HTTP/1.1 ${error.status} ${error.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const appErr = toAppError(err);
    logFailure(req, err, appErr);
    // A 503 carries Retry-After, also one a service answered (AppError.fromBody).
    if (appErr.headers) reply.headers(appErr.headers);
    return reply
      .code(appErr.status)
      .type('application/json')
      .send(envelope(appErr.toBody(), req.replayedRequestId ?? req.id));
  });
  app.setNotFoundHandler((req, reply) => {
    return reply
      .code(404)
      .type('application/json')
      .send(envelope(new AppError('NOT_FOUND').toBody(), req.id));
  });
}
