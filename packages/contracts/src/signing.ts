// Request and webhook signing as the contract defines them: the one implementation the gateway
// verifies requests with, the webhooks service signs deliveries with, and clients, tests, the
// published test vectors and snippets are checked against. (The operator SDK carries its own copy
// so that it has no run-time dependency; its tests check it against this one.)
import { createHash, createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

export const EMPTY_BODY_SHA256 = createHash('sha256').update('').digest('hex');

export function bodyDigest(body: Buffer | string | undefined): string {
  if (body === undefined || body.length === 0) return EMPTY_BODY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

// ---- requests (contract "Authentication") ----

/** METHOD \n raw path with query \n X-Timestamp \n sha256hex(body bytes). */
export function canonicalString(method: string, rawPath: string, timestamp: string, body: Buffer | string | undefined): string {
  return `${method.toUpperCase()}\n${rawPath}\n${timestamp}\n${bodyDigest(body)}`;
}

/**
 * Version 2 (`X-Signature-Version: 2`, issue #61): the same fields after a `v2` line, and the request's
 * Idempotency-Key last (the empty string without one). Two requests alike but for their keys, sent in
 * the same second, are signed differently, so neither is refused as the other's replay
 * (SIGNATURE_REUSED); a captured request sent again with another key no longer verifies.
 */
export function canonicalStringV2(
  method: string,
  rawPath: string,
  timestamp: string,
  body: Buffer | string | undefined,
  idempotencyKey: string | undefined,
): string {
  return `v2\n${canonicalString(method, rawPath, timestamp, body)}\n${idempotencyKey ?? ''}`;
}

/** The signature versions the gateway takes: 1 (the default, no header) and 2 (covers the Idempotency-Key). */
export const SIGNATURE_VERSIONS = ['1', '2'] as const;
export type SignatureVersion = (typeof SIGNATURE_VERSIONS)[number];

export function signRequest(secret: KeyObject | string, method: string, rawPath: string, timestamp: string, body?: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(canonicalString(method, rawPath, timestamp, body))
    .digest('hex');
}

/** X-Signature of version 2 (send it with `X-Signature-Version: 2` and the same Idempotency-Key). */
export function signRequestV2(
  secret: KeyObject | string,
  method: string,
  rawPath: string,
  timestamp: string,
  body: Buffer | string | undefined,
  idempotencyKey: string | undefined,
): string {
  return createHmac('sha256', secret)
    .update(canonicalStringV2(method, rawPath, timestamp, body, idempotencyKey))
    .digest('hex');
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * Constant-time check of an X-Signature (hex compared case-insensitively), of version 1 unless
 * `v2` gives the Idempotency-Key the request came with (version 2).
 */
export function verifyRequestSignature(
  key: KeyObject,
  method: string,
  rawPath: string,
  timestamp: string,
  body: Buffer | undefined,
  signature: string | undefined,
  v2?: { idempotencyKey: string | undefined },
): boolean {
  if (!signature || !HEX64.test(signature)) return false;
  const canonical = v2 ? canonicalStringV2(method, rawPath, timestamp, body, v2.idempotencyKey) : canonicalString(method, rawPath, timestamp, body);
  const expected = createHmac('sha256', key).update(canonical).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** X-Timestamp: an integer of epoch seconds within ±300 s of now. */
export function timestampInRange(value: string | undefined, nowMs = Date.now()): boolean {
  if (!value || !/^-?\d{1,15}$/.test(value)) return false;
  return Math.abs(Number(value) - Math.floor(nowMs / 1000)) <= TIMESTAMP_TOLERANCE_SECONDS;
}

// ---- webhooks (contract "Events", docs/decisions.md "Events") ----

/** X-Webhook-Signature: lowercase hex HMAC-SHA256 keyed with the whole `whsec_` string over `timestamp.body`. */
export function signWebhook(secret: string, timestamp: string | number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 keyed with the base64-decoded
 * bytes after `whsec_`, over `id.timestamp.body`.
 */
export function signStandardWebhook(secret: string, id: string, timestamp: string | number, rawBody: Buffer | string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64')}`;
}

/**
 * Every header of one delivery attempt, signed over the stored bytes (never a re-serialisation);
 * `timestamp` is the attempt's own epoch seconds. During a secret rotation's overlap
 * (`previousSecret` given) `webhook-signature` carries a `v1,` signature per secret (new first),
 * as Standard Webhooks allows, and `X-Webhook-Signature`, which holds one value by contract, stays
 * signed with the previous secret until the overlap ends: a receiver that keeps the old secret
 * goes on verifying, and one that tries both secrets switches whenever it likes
 * (docs/webhooks.md, "Secret rotation").
 */
export function webhookHeaders(secret: string, eventId: string, timestamp: number, body: Buffer, previousSecret?: string | null): Record<string, string> {
  const standard = [secret, ...(previousSecret ? [previousSecret] : [])].map((s) => signStandardWebhook(s, eventId, timestamp, body));
  return {
    'content-type': 'application/json',
    'user-agent': 'bo-webhooks/1.2',
    'x-webhook-id': eventId,
    'x-webhook-timestamp': String(timestamp),
    'x-webhook-signature': signWebhook(previousSecret || secret, timestamp, body),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.join(' '),
  };
}
