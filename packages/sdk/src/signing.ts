// Request signing exactly as the contract's "Authentication" section defines it, with node:crypto
// only (the SDK has no run-time dependencies). Exported so operators can check it against the
// published test vectors.
import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

export const EMPTY_BODY_SHA256 = createHash('sha256').update('').digest('hex');

/** Lowercase hex SHA-256 of the body bytes as sent; the empty string's digest when there is no body. */
export function bodySha256(body: string | Uint8Array | undefined): string {
  if (body === undefined || body.length === 0) return EMPTY_BODY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

/** METHOD, raw path with query, X-Timestamp, body digest, joined by LF. */
export function canonicalRequestString(method: string, rawPath: string, timestamp: string, body?: string | Uint8Array): string {
  return `${method.toUpperCase()}\n${rawPath}\n${timestamp}\n${bodySha256(body)}`;
}

/**
 * X-Signature: lowercase hex HMAC-SHA256 keyed with the whole `sk_` secret (UTF-8, prefix
 * included). `rawPath` is the request target as sent, `/api/v1` prefix and query included.
 */
export function signRequest(secret: string | PreparedSecret, method: string, rawPath: string, timestamp: string, body?: string | Uint8Array): string {
  return createHmac('sha256', secret as string | KeyObject)
    .update(canonicalRequestString(method, rawPath, timestamp, body))
    .digest('hex');
}

/**
 * Version 2 of the canonical string (sent with `X-Signature-Version: 2`): a `v2` line, the four fields
 * of version 1, and the request's Idempotency-Key last (the empty string without one). The key is
 * signed, so two requests alike but for their keys sent in the same second are both accepted.
 */
export function canonicalRequestStringV2(
  method: string,
  rawPath: string,
  timestamp: string,
  body: string | Uint8Array | undefined,
  idempotencyKey: string | undefined,
): string {
  return `v2\n${canonicalRequestString(method, rawPath, timestamp, body)}\n${idempotencyKey ?? ''}`;
}

/** X-Signature of version 2: what the client sends, with `X-Signature-Version: 2`. */
export function signRequestV2(
  secret: string | PreparedSecret,
  method: string,
  rawPath: string,
  timestamp: string,
  body: string | Uint8Array | undefined,
  idempotencyKey: string | undefined,
): string {
  return createHmac('sha256', secret as string | KeyObject)
    .update(canonicalRequestStringV2(method, rawPath, timestamp, body, idempotencyKey))
    .digest('hex');
}

/**
 * A secret prepared once (a node:crypto KeyObject inside). Opaque in the declarations, so they
 * compile in a project without @types/node.
 */
export type PreparedSecret = { readonly __preparedSecret: unique symbol };

/** Prepared once per client: an HMAC with a KeyObject costs a third of one with a string key. */
export function prepareSecret(secret: string): PreparedSecret {
  return createSecretKey(Buffer.from(secret, 'utf8')) as unknown as PreparedSecret;
}
