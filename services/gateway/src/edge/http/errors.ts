// The one error handler: every failure leaves as the contract's envelope
// `{ error: { code, message, requestId, details } }`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError, validationError, type ErrorBody } from '@bo/contracts';
import { dependencyUnavailable, isDependencyUnavailable } from '@bo/service-kit';

export function envelope(body: ErrorBody, requestId: string) {
  return { error: { code: body.code, message: body.message, requestId, ...(body.details !== undefined ? { details: body.details } : {}) } };
}

/**
 * Maps anything thrown to an AppError: an unavailable dependency (the database, NATS) becomes 503
 * SERVICE_UNAVAILABLE with Retry-After, unknown errors INTERNAL_ERROR; neither shows the cause.
 */
export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const e = err as FastifyError;
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_NOT_FOUND':
      return new AppError('NOT_FOUND');
    // Refused before routing (no route can be matched), as the query's percent-encoding is refused
    // by validation: 422 with the part named (query-string.ts).
    case 'FST_ERR_BAD_URL':
      return validationError('path', [{ path: '/', message: 'The path is not validly percent-encoded UTF-8.' }]);
  }
  if (isDependencyUnavailable(err)) return dependencyUnavailable();
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('VALIDATION_ERROR', e.message, { in: 'path', issues: [{ path: '/', message: e.message }] });
  }
  return new AppError('INTERNAL_ERROR');
}

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

/** Logs what the caller is not shown: an unknown fault as an error, an unavailable dependency as a warning. */
export function logFailure(req: FastifyRequest, err: unknown, appErr: AppError): void {
  if (appErr.code === 'INTERNAL_ERROR') req.log.error({ err, requestId: req.id }, 'unhandled error');
  else if (!isAppError(err) && appErr.code === 'SERVICE_UNAVAILABLE') req.log.warn({ err, requestId: req.id }, 'dependency unavailable');
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
