// One delivery attempt of a claimed delivery: open the secret, sign with this attempt's
// timestamp, POST the stored bytes. Never throws: every problem is a failed attempt.
import { openSecret } from '@bo/service-kit';
import type { AttemptResult } from '../domain/retry-schedule.ts';
import { webhookHeaders } from '@bo/contracts';
import { mustGuardAddresses, urlShapeProblem, type UrlPolicy } from '../domain/url-policy.ts';
import type { ClaimedAttempt } from '../store/delivery-queue.ts';
import { postWebhook } from './http-sender.ts';

export interface AttemptSettings {
  masterKey: string;
  timeoutMs: number;
  policy: UrlPolicy;
}

// Opened secrets, per settings (one master key): an AES-GCM open per attempt was measurable CPU.
// Secrets rotate by a new sealed value, so a stale entry is never used; the map is capped.
const opened = new WeakMap<AttemptSettings, Map<string, string>>();
const MAX_OPENED = 10_000;
function openCached(sealed: string, s: AttemptSettings): string {
  let cache = opened.get(s);
  if (!cache) {
    cache = new Map();
    opened.set(s, cache);
  }
  let secret = cache.get(sealed);
  if (secret === undefined) {
    secret = openSecret(sealed, s.masterKey);
    if (cache.size >= MAX_OPENED) cache.delete(cache.keys().next().value!);
    cache.set(sealed, secret);
  }
  return secret;
}

export async function performAttempt(c: ClaimedAttempt, s: AttemptSettings): Promise<AttemptResult> {
  // The URL was checked when it was set; configuration may have become stricter since.
  const problem = urlShapeProblem(c.url, c.environment, s.policy);
  if (problem) return { delivered: false, statusCode: null, error: `destination refused: URL ${problem}`, durationMs: 0 };
  let secret: string;
  let previous: string | null;
  try {
    secret = openCached(c.secretSealed, s);
    previous = c.previousSecretSealed ? openCached(c.previousSecretSealed, s) : null;
  } catch {
    return { delivered: false, statusCode: null, error: 'the webhook secret cannot be opened with SECRETS_MASTER_KEY', durationMs: 0 };
  }
  const timestamp = Math.floor(Date.now() / 1000);
  return postWebhook({
    url: c.url,
    body: c.body,
    timeoutMs: s.timeoutMs,
    headers: webhookHeaders(secret, c.eventId, timestamp, c.body, previous),
    guardAddresses: mustGuardAddresses(c.environment, s.policy),
  });
}
