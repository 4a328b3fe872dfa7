// When a failed attempt is retried, and after how long. Idempotent operations (they carry an
// Idempotency-Key) and reads are retried on network errors, 5xx, 409 IDEMPOTENCY_IN_PROGRESS and
// 429 with the SAME key: the server replays or finishes the first attempt instead of repeating
// the effect. Other writes (game sessions, sandbox decisions, webhook test) are retried only
// when the server surely did nothing: 429 and 401 SIGNATURE_REUSED (refused before any work) and
// a refused connection. SIGNATURE_REUSED: another call sent the same bytes in the same second
// with another key; the retry, a second later, is signed with a new X-Timestamp.

export interface RetryOptions {
  /** Attempts in all, the first included (1 = never retry). Default 4. */
  maxAttempts: number;
  /** First backoff delay; doubles per attempt. Default 250 ms. */
  baseDelayMs: number;
  /** Cap of one backoff delay. Default 8 s. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. Default 60 s. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export type RetrySafety = 'idempotent' | 'unsafe';

/** What one failed attempt looked like. */
export type AttemptFailure = { kind: 'network'; connectRefused: boolean } | { kind: 'status'; status: number; code?: string };

export function isRetryable(failure: AttemptFailure, safety: RetrySafety): boolean {
  if (failure.kind === 'network') return safety === 'idempotent' || failure.connectRefused;
  if (failure.status === 429 || (failure.status === 401 && failure.code === 'SIGNATURE_REUSED')) return true;
  if (safety === 'unsafe') return false;
  return failure.status >= 500 || (failure.status === 409 && failure.code === 'IDEMPOTENCY_IN_PROGRESS');
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date names its day and month; Date.parse alone would read "-1" as a year.
  if (!/[A-Za-z]{3}/.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so replicas
 * that failed together do not retry together yet never retry at once. `attempt` is the number of
 * the attempt that just failed (1-based).
 */
export function backoffDelay(attempt: number, opts: RetryOptions, random: () => number): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
