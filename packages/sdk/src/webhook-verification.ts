// Verifies webhook deliveries with either signature scheme the API sends:
// - the contract's `X-Webhook-Signature`: hex HMAC-SHA256 keyed with the whole `whsec_` string
//   over `timestamp + "." + raw body`;
// - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`):
//   HMAC-SHA256 keyed with the base64-decoded secret over `id.timestamp.body`.
// Always over the raw bytes received, never a re-serialised body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './webhook-events.ts';

export type WebhookScheme = 'x-webhook' | 'standard-webhooks';

/** Any of: fetch `Headers`, Node's `IncomingHttpHeaders`, or a plain object (names in any case). */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The webhook secret (`whsec_...`); several during a rotation: any one may match. */
  secret: string | readonly string[];
  /** How far the signed timestamp may be from now, either way. Default 300 s. */
  toleranceSeconds?: number;
  /** Clock in epoch milliseconds (e.g. to check a recorded delivery or a test vector). */
  now?: () => number;
  /**
   * `auto` (default) checks `X-Webhook-Signature` when present (the contract makes it
   * authoritative), else the Standard Webhooks headers.
   */
  scheme?: WebhookScheme | 'auto';
}

export interface VerifiedWebhook {
  /** Event id: deduplicate on it (delivery is at least once). */
  id: string;
  /** The signed timestamp, epoch seconds. */
  timestamp: number;
  scheme: WebhookScheme;
  event: WebhookEvent;
}

export type WebhookFailure = 'missing_headers' | 'invalid_timestamp' | 'timestamp_out_of_tolerance' | 'invalid_signature' | 'invalid_body';

export class WebhookVerificationError extends Error {
  readonly reason: WebhookFailure;
  constructor(reason: WebhookFailure, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Case-insensitive header lookup over any header shape; the first value of a repeated header. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() !== wanted || v === undefined) continue;
    return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

/** Checks the signature and timestamp of a delivery and returns the parsed event; throws WebhookVerificationError. */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, opts: VerifyWebhookOptions): VerifiedWebhook {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    // A parsed object cannot be verified: its bytes are gone. Say so rather than fail obscurely.
    throw new TypeError('verifyWebhook needs the raw body as received (string or Buffer), not a parsed object');
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const secrets = typeof opts.secret === 'string' ? [opts.secret] : [...opts.secret];
  if (secrets.length === 0 || secrets.some((s) => !s)) throw new TypeError('a webhook secret is required');

  const scheme = pickScheme(headers, opts.scheme ?? 'auto');
  const id = headerValue(headers, scheme === 'x-webhook' ? 'x-webhook-id' : 'webhook-id');
  const ts = headerValue(headers, scheme === 'x-webhook' ? 'x-webhook-timestamp' : 'webhook-timestamp');
  const sig = headerValue(headers, scheme === 'x-webhook' ? 'x-webhook-signature' : 'webhook-signature');
  if (!id || !ts || !sig) throw new WebhookVerificationError('missing_headers', `missing ${scheme} signature headers`);

  if (!/^\d{1,15}$/.test(ts.trim())) throw new WebhookVerificationError('invalid_timestamp', 'the webhook timestamp is not epoch seconds');
  const timestamp = Number(ts.trim());
  const tolerance = opts.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((opts.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', `the webhook timestamp is more than ${tolerance} s from now`);
  }

  const ok =
    scheme === 'x-webhook' ? secrets.some((s) => matchesXWebhook(s, ts.trim(), body, sig)) : secrets.some((s) => matchesStandard(s, id, ts.trim(), body, sig));
  if (!ok) throw new WebhookVerificationError('invalid_signature', 'no webhook signature matches');

  let event: WebhookEvent;
  try {
    event = JSON.parse(Buffer.from(body).toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the webhook body is not JSON');
  }
  return { id, timestamp, scheme, event };
}

function pickScheme(headers: HeaderSource, wanted: WebhookScheme | 'auto'): WebhookScheme {
  if (wanted !== 'auto') return wanted;
  return headerValue(headers, 'x-webhook-signature') !== undefined ? 'x-webhook' : 'standard-webhooks';
}

/** Hex signatures; a list separated by commas or spaces is accepted so one header can carry several. */
function matchesXWebhook(secret: string, ts: string, body: Uint8Array, header: string): boolean {
  const expected = createHmac('sha256', secret).update(`${ts}.`).update(body).digest();
  return header.split(/[\s,]+/).some((candidate) => /^[0-9a-fA-F]{64}$/.test(candidate) && timingSafeEqual(expected, Buffer.from(candidate, 'hex')));
}

/** `v1,<base64>` entries separated by spaces (several during a secret rotation); other versions ignored. */
function matchesStandard(secret: string, id: string, ts: string, body: Uint8Array, header: string): boolean {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest();
  return header
    .trim()
    .split(/\s+/)
    .some((entry) => {
      const [version, value] = entry.split(',', 2);
      if (version !== 'v1' || !value) return false;
      const got = Buffer.from(value, 'base64');
      return got.length === expected.length && timingSafeEqual(expected, got);
    });
}
