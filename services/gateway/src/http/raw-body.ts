// Bodies are kept as the raw bytes: the signature and the idempotency fingerprint are computed
// over exactly what was sent. JSON is parsed only after authentication (decisions.md order).
import type { FastifyInstance } from 'fastify';
import { validationError } from '@bo/contracts';

export const BODY_LIMIT_BYTES = 100 * 1024;

export function keepRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (req, body, done) => {
    req.rawBody = body as Buffer;
    done(null, undefined);
  });
}

/** An empty or absent body counts as `{}`; anything but a JSON object is a 422. */
export function parseJsonObject(raw: Buffer | undefined): Record<string, unknown> {
  if (!raw || raw.length === 0 || raw.toString('utf8').trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw validationError('body', [{ path: '/', message: 'The body is not valid JSON.' }]);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw validationError('body', [{ path: '/', message: 'The body must be a JSON object.' }]);
  }
  return value as Record<string, unknown>;
}
