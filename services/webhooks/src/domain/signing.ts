// Outbound webhook signatures. The contract's `X-Webhook-Signature` is lowercase hex
// HMAC-SHA256 keyed with the whole `whsec_...` string over `timestamp.rawBody`; the Standard
// Webhooks `webhook-signature` is `v1,` + base64 HMAC-SHA256 keyed with the base64-decoded bytes
// after `whsec_` over `id.timestamp.rawBody`. Both are computed over the stored bytes, never a
// re-serialisation.
import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function contractSignature(secret: string, timestamp: number, body: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export function standardWebhooksSignature(secret: string, eventId: string, timestamp: number, body: Buffer): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${eventId}.${timestamp}.`).update(body).digest('base64')}`;
}

/** Every header of one delivery attempt; `timestamp` is the attempt's own epoch seconds. */
export function webhookHeaders(secret: string, eventId: string, timestamp: number, body: Buffer): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'bo-webhooks/1.1',
    'x-webhook-id': eventId,
    'x-webhook-timestamp': String(timestamp),
    'x-webhook-signature': contractSignature(secret, timestamp, body),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardWebhooksSignature(secret, eventId, timestamp, body),
  };
}
