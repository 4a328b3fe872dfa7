// Bodies are kept as the raw bytes: the signature and the idempotency fingerprint are computed
// over exactly what was sent. JSON is parsed only after authentication (docs/decisions.md order).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from '@bo/contracts';
import { badTextIssues, jsonDepth, MAX_JSON_DEPTH } from './text-rules.ts';
import { repeatedMember } from './duplicate-members.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as sent, where keepRawBodies parses (the request's `body` stays undefined). */
    rawBody?: Buffer;
  }
}

export const BODY_LIMIT_BYTES = 100 * 1024;

export function keepRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (req, body, done) => {
    req.rawBody = body as Buffer;
    done(null, undefined);
  });
}

/** `application/json`, with parameters (`; charset=utf-8`) or as a `+json` suffix type. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * A request that carries bytes must say they are JSON; checked where the body is parsed (after
 * authentication), and for operations without a body too. No body at all needs no type.
 */
export function requireJsonMediaType(req: FastifyRequest): void {
  const hasBody = (req.rawBody?.length ?? 0) > 0;
  if (hasBody && !isJsonMediaType(req.headers['content-type'])) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
}

// JSON is UTF-8 (RFC 8259): bytes that are not are refused, never replaced with U+FFFD (two
// different references would be stored as the same text). A BOM is kept, so it stays a JSON error.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** An empty or absent body counts as `{}`; anything but a JSON object in UTF-8, each member named once per object, is a 422. */
export function parseJsonObject(raw: Buffer | undefined): Record<string, unknown> {
  if (!raw || raw.length === 0) return {};
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw validationError('body', [{ path: '/', message: 'The body is not valid UTF-8.' }]);
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw validationError('body', [{ path: '/', message: 'The body is not valid JSON.' }]);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw validationError('body', [{ path: '/', message: 'The body must be a JSON object.' }]);
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) {
    throw validationError('body', [{ path: '/', message: `The body must not nest deeper than ${MAX_JSON_DEPTH} levels.` }]);
  }
  const repeated = repeatedMember(text, value);
  if (repeated !== undefined) throw validationError('body', [{ path: repeated, message: 'Named more than once in its object: each member must appear once.' }]);
  const badText = badTextIssues(value);
  if (badText.length) throw validationError('body', badText);
  return value as Record<string, unknown>;
}

/**
 * The body as every operation checks it, whether it takes one or not: JSON by its media type, then
 * a JSON object (parseJsonObject; none at all is `{}`). Malformed JSON is refused even where the
 * operation ignores the body.
 */
export function jsonObjectBody(req: FastifyRequest): Record<string, unknown> {
  requireJsonMediaType(req);
  return parseJsonObject(req.rawBody);
}
