// When to try again: the contract's schedule (docs/decisions.md) of 7 delays after failed attempts
// 1..7, so 8 attempts at most, each delay jittered so that many failed deliveries do not retry
// in lockstep. A Retry-After of a 429/503 postpones the next attempt but never beyond the longest
// step, and never adds attempts.

export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** ±10 % around each step. */
const JITTER = 0.1;

export function parseRetrySchedule(text: string): number[] {
  const steps = text.split(',').map((s) => s.trim());
  if (steps.length !== 7 || steps.some((s) => !/^\d+$/.test(s))) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE_MS must be 7 comma-separated non-negative integers, got "${text}"`);
  }
  return steps.map(Number);
}

/** Attempts of a normal delivery: the first one plus one per step. */
export function maxAttemptsOf(schedule: readonly number[]): number {
  return schedule.length + 1;
}

export interface AttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Set only for a 429 or 503 that carried a usable Retry-After. */
  retryAfterMs?: number;
}

export type NextStep = { status: 'delivered' } | { status: 'failed' } | { status: 'pending'; delayMs: number };

/** What follows attempt number `attempt` (1-based) of a delivery allowed `maxAttempts`. */
export function nextStepAfter(
  attempt: number,
  maxAttempts: number,
  result: AttemptResult,
  schedule: readonly number[],
  random: () => number = Math.random,
): NextStep {
  if (result.delivered) return { status: 'delivered' };
  if (attempt >= maxAttempts) return { status: 'failed' };
  const base = schedule[Math.min(attempt, schedule.length) - 1] ?? 0;
  let delayMs = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if (result.retryAfterMs !== undefined) {
    delayMs = Math.max(delayMs, Math.min(result.retryAfterMs, Math.max(...schedule)));
  }
  return { status: 'pending', delayMs };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; undefined when unusable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
