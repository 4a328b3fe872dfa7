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
   * `auto` (default) accepts the delivery when any scheme whose headers it carries verifies
   * (`X-Webhook-Signature` tried first). Naming one scheme checks only that one.
   */
  scheme?: WebhookScheme | 'auto';
}

export interface VerifiedWebhook {
  /** Event id: deduplicate on it (delivery is at least once). */
  id: string;
  /** The signed timestamp, epoch seconds. */
  timestamp: number;
  /** The scheme that verified. */
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

/**
 * Checks the signature and timestamp of a delivery and returns the parsed event; throws
 * WebhookVerificationError. By default (`scheme: 'auto'`) the delivery is accepted when any scheme
 * whose headers it carries verifies: during a secret rotation `X-Webhook-Signature` stays on the
 * previous secret while `webhook-signature` carries both, so a receiver given only the new secret
 * verifies through the latter.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, opts: VerifyWebhookOptions): VerifiedWebhook {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    // A parsed object cannot be verified: its bytes are gone. Say so rather than fail obscurely.
    throw new TypeError('verifyWebhook needs the raw body as received (string or Buffer), not a parsed object');
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const secrets = typeof opts.secret === 'string' ? [opts.secret] : [...opts.secret];
  if (secrets.length === 0 || secrets.some((s) => !s)) throw new TypeError('a webhook secret is required');

  const wanted = opts.scheme ?? 'auto';
  const candidates = wanted === 'auto' ? SCHEMES.filter((scheme) => signed(headers, scheme) !== undefined) : [wanted];
  if (candidates.length === 0) throw new WebhookVerificationError('missing_headers', 'missing webhook signature headers');
  // The contract's scheme first: its failure is the one reported when none verifies.
  let firstFailure: WebhookVerificationError | undefined;
  for (const scheme of candidates) {
    const outcome = checkScheme(scheme, headers, body, secrets, opts);
    if (!(outcome instanceof WebhookVerificationError)) return { ...outcome, event: parseEvent(body) };
    firstFailure ??= outcome;
  }
  throw firstFailure!;
}

const SCHEMES: readonly WebhookScheme[] = ['x-webhook', 'standard-webhooks'];

/** The id, timestamp and signature headers of one scheme, or undefined when any is missing. */
function signed(headers: HeaderSource, scheme: WebhookScheme): { id: string; ts: string; sig: string } | undefined {
  const prefix = scheme === 'x-webhook' ? 'x-webhook-' : 'webhook-';
  const [id, ts, sig] = ['id', 'timestamp', 'signature'].map((name) => headerValue(headers, `${prefix}${name}`));
  return id && ts && sig ? { id, ts: ts.trim(), sig } : undefined;
}

/** One scheme's verdict: its id and timestamp when the timestamp is within tolerance and a secret signs, else why not. */
function checkScheme(
  scheme: WebhookScheme,
  headers: HeaderSource,
  body: Uint8Array,
  secrets: readonly string[],
  opts: VerifyWebhookOptions,
): Omit<VerifiedWebhook, 'event'> | WebhookVerificationError {
  const h = signed(headers, scheme);
  if (!h) return new WebhookVerificationError('missing_headers', `missing ${scheme} signature headers`);
  if (!/^\d{1,15}$/.test(h.ts)) return new WebhookVerificationError('invalid_timestamp', 'the webhook timestamp is not epoch seconds');
  const timestamp = Number(h.ts);
  const tolerance = opts.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((opts.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    return new WebhookVerificationError('timestamp_out_of_tolerance', `the webhook timestamp is more than ${tolerance} s from now`);
  }
  const ok =
    scheme === 'x-webhook' ? secrets.some((s) => matchesXWebhook(s, h.ts, body, h.sig)) : secrets.some((s) => matchesStandard(s, h.id, h.ts, body, h.sig));
  return ok ? { id: h.id, timestamp, scheme } : new WebhookVerificationError('invalid_signature', 'no webhook signature matches');
}

function parseEvent(body: Uint8Array): WebhookEvent {
  try {
    return JSON.parse(Buffer.from(body).toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the webhook body is not JSON');
  }
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
