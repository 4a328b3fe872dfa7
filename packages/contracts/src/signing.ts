// Request and webhook signing as the contract defines them: one implementation, used by the
// gateway to verify, by clients and tests to sign, and to compute the published test vectors.
import { createHash, createHmac, type KeyObject } from 'node:crypto';

export const EMPTY_BODY_SHA256 = createHash('sha256').update('').digest('hex');

export function bodyDigest(body: Buffer | string | undefined): string {
  if (body === undefined || body.length === 0) return EMPTY_BODY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

/** METHOD \n raw path with query \n X-Timestamp \n sha256hex(body bytes). */
export function canonicalString(method: string, rawPath: string, timestamp: string, body: Buffer | string | undefined): string {
  return `${method.toUpperCase()}\n${rawPath}\n${timestamp}\n${bodyDigest(body)}`;
}

export function signRequest(secret: KeyObject | string, method: string, rawPath: string, timestamp: string, body?: Buffer | string): string {
  return createHmac('sha256', secret).update(canonicalString(method, rawPath, timestamp, body)).digest('hex');
}

/** X-Webhook-Signature: hex HMAC-SHA256 keyed with the whole whsec_ string over `timestamp.body`. */
export function signWebhook(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** Standard Webhooks `webhook-signature`: v1,base64 HMAC keyed with the decoded secret over `id.timestamp.body`. */
export function signStandardWebhook(secret: string, id: string, timestamp: string, rawBody: Buffer | string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64')}`;
}
