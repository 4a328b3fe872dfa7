// The one error handler: every failure leaves as the contract's envelope
// `{ error: { code, message, requestId, details } }`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError, type ErrorBody } from '@bo/contracts';

export function envelope(body: ErrorBody, requestId: string) {
  return { error: { code: body.code, message: body.message, requestId, ...(body.details !== undefined ? { details: body.details } : {}) } };
}

/** Maps anything thrown to an AppError; unknown errors become INTERNAL_ERROR. */
export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const e = err as FastifyError;
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_NOT_FOUND': return new AppError('NOT_FOUND');
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('VALIDATION_ERROR', e.message, { in: 'path', issues: [{ path: '/', message: e.message }] });
  }
  return new AppError('INTERNAL_ERROR');
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const appErr = toAppError(err);
    if (appErr.code === 'INTERNAL_ERROR') req.log.error({ err, requestId: req.id }, 'unhandled error');
    if (appErr.headers) reply.headers(appErr.headers);
    return reply.code(appErr.status).type('application/json').send(envelope(appErr.toBody(), req.id));
  });
  app.setNotFoundHandler((req, reply) => {
    return reply.code(404).type('application/json').send(envelope(new AppError('NOT_FOUND').toBody(), req.id));
  });
}
