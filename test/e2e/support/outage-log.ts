// What each loss cost the chaos workload's clients: every request (with its retries until a final
// answer) is logged with its start, end and failed attempts, every loss (a NATS node killed until
// it is back, a Postgres primary lost until the standby serves) with its window; the report gives,
// per loss, the requests that overlapped it, how many attempts failed (5xx or no answer, then
// retried), how many never got a final answer, and their latency to the final answer (p50, p99, max).
export interface LossFigures {
  what: string;
  /** From the loss to the part serving again (the node back and current, the standby promoted and reachable). */
  lossMs: number;
  requests: number;
  failedAttempts: number;
  failedAfterRetries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface OutageLog {
  /** A request from its first attempt to its final answer; `failed` when it never got one. */
  request(startedAt: number, endedAt: number, failedAttempts: number, failed?: boolean): void;
  /** A loss, from when it began to when the part served again. */
  loss(what: string, from: number, to: number): void;
  report(): LossFigures[];
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);

export function startOutageLog(): OutageLog {
  const requests: Array<{ from: number; to: number; failedAttempts: number; failed: boolean }> = [];
  const losses: Array<{ what: string; from: number; to: number }> = [];
  return {
    request(from, to, failedAttempts, failed = false) {
      requests.push({ from, to, failedAttempts, failed });
    },
    loss(what, from, to) {
      losses.push({ what, from, to });
    },
    report() {
      return losses.map(({ what, from, to }) => {
        const hit = requests.filter((r) => r.from <= to && r.to >= from);
        const latencies = hit.map((r) => r.to - r.from).sort((a, b) => a - b);
        return {
          what,
          lossMs: to - from,
          requests: hit.length,
          failedAttempts: hit.reduce((n, r) => n + r.failedAttempts, 0),
          failedAfterRetries: hit.filter((r) => r.failed).length,
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
          maxMs: latencies.at(-1) ?? 0,
        };
      });
    },
  };
}
