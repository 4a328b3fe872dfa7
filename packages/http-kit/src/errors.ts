// Every failure of an HTTP surface leaves as the contract's envelope
// `{ error: { code, message, requestId, details } }`: the gateway's one error handler and the
// surfaces that answer their own failures (the launch page) map and log them here.
import type { FastifyError, FastifyRequest } from 'fastify';
import { AppError, dependencyUnavailable, isAppError, isDependencyUnavailable, validationError, type ErrorBody } from '@bo/contracts';

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
    // by validation: 422 with the part named (the gateway's query-string.ts).
    case 'FST_ERR_BAD_URL':
      return validationError('path', [{ path: '/', message: 'The path is not validly percent-encoded UTF-8.' }]);
  }
  if (isDependencyUnavailable(err)) return dependencyUnavailable();
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('VALIDATION_ERROR', e.message, { in: 'path', issues: [{ path: '/', message: e.message }] });
  }
  return new AppError('INTERNAL_ERROR');
}

/** Logs what the caller is not shown: an unknown fault as an error, an unavailable dependency as a warning. */
export function logFailure(req: FastifyRequest, err: unknown, appErr: AppError): void {
  if (appErr.code === 'INTERNAL_ERROR') req.log.error({ err, requestId: req.id }, 'unhandled error');
  else if (!isAppError(err) && appErr.code === 'SERVICE_UNAVAILABLE') req.log.warn({ err, requestId: req.id }, 'dependency unavailable');
}
