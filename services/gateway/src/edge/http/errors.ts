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
 * A request without a Host header in HTTP/1.1, with more than one in any version, or with a value
 * that is not one host (RFC 9112, 3.2: all three are 400): BAD_REQUEST in the envelope, before
 * authentication, and the connection closed. Node's own check of a missing one answers with an
 * empty body (baseApp turns it off); a second Host it drops silently from `headers`, so the raw
 * header lines are counted.
 */
export function refuseBadHost(req: FastifyRequest, reply: FastifyReply): void {
  const host = req.headers.host;
  const missing = req.raw.httpVersion === '1.1' && host === undefined;
  const several = !missing && hostLines(req.raw.rawHeaders) > 1;
  const invalid = !missing && !several && host !== undefined && host !== '' && !ONE_HOST.test(host);
  if (!missing && !several && !invalid) return;
  reply.header('connection', 'close');
  throw new AppError(
    'BAD_REQUEST',
    missing
      ? 'An HTTP/1.1 request must have a Host header.'
      : several
        ? 'A request must have one Host header, not several.'
        : 'The Host header must name one host: a name or an address, and a port.',
  );
}

// One host and an optional port (RFC 9110, 7.2: uri-host [ ":" port ]): a name or IPv4 address of
// letters, digits, `.`, `-`, `_`, `~`, or a bracketed IPv6 address. A comma listing a second host, a
// space, userinfo, a path: refused (an empty value is a Host, for a target without authority).
const ONE_HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{0,5})?$/;

function hostLines(rawHeaders: string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
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
