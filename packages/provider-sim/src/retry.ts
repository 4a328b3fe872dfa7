// What a careful caller does when the other side is away: the same request again (same
// transaction id or Idempotency-Key) after no answer, a 5xx, a 429 or a 409 IDEMPOTENCY_IN_PROGRESS
// (the first copy still running, e.g. in a service killed under it: its key is taken over once its
// lease ends), with a growing pause, until a final answer or a deadline.

export interface RetryPolicy {
  /** Give up after this long without a final answer (ms). */
  deadlineMs: number;
  /** Called for each failed attempt (no answer, 5xx, 429, a copy in progress): what was sent and what came back. */
  onRetry?: (what: string, status: number | undefined) => void;
  /** Called for each 5xx answer (the chaos run checks they are all 503 with Retry-After). */
  onServerError?: (what: string, status: number, retryAfter: string | null, code: string | undefined) => void;
}

export const NO_RETRY: RetryPolicy = { deadlineMs: 0 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Answered {
  status: number;
  body: any;
  headers?: Headers;
}

/** Not final: the first request under the same key is still running (retry shortly, as its Retry-After says). */
const inProgress = (a: Answered) => a.status === 409 && a.body?.error?.code === 'IDEMPOTENCY_IN_PROGRESS';

/** `send` again until it answers something final (< 500, not 429, not in progress), or the policy's deadline passes (then throws). */
export async function untilAnswered<A extends Answered>(send: () => Promise<A>, what: string, policy: RetryPolicy): Promise<A> {
  const deadline = Date.now() + policy.deadlineMs;
  for (let attempt = 0; ; attempt++) {
    let answer: A | undefined;
    let failure: unknown;
    try {
      answer = await send();
    } catch (e) {
      failure = e;
    }
    if (answer && answer.status >= 500) policy.onServerError?.(what, answer.status, answer.headers?.get('retry-after') ?? null, answer.body?.error?.code);
    if (answer && answer.status < 500 && answer.status !== 429 && !inProgress(answer)) return answer;
    if (Date.now() >= deadline) {
      if (answer) return answer;
      throw new Error(`${what}: no answer${failure instanceof Error ? ` (${failure.message})` : ''}`);
    }
    policy.onRetry?.(what, answer?.status);
    await sleep(Math.min(2000, 50 * 2 ** Math.min(attempt, 6)));
  }
}
