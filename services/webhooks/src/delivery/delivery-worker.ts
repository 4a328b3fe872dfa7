// The delivery loop: claims due deliveries from Postgres (several replicas share the queue via
// SKIP LOCKED), runs them concurrently in a bounded pool, records each attempt and schedules the
// next.
import { crashPoint, startLoop, type Logger, type Sql } from '@bo/service-kit';
import { nextStepAfter } from '../domain/retry-schedule.ts';
import { claimDueAttempts, recordAttemptResult, type ClaimedAttempt } from '../persistence/delivery-queue.ts';
import { performAttempt, type AttemptSettings } from './attempt.ts';

export interface DeliveryWorkerOptions {
  sql: Sql;
  log: Logger;
  attempt: AttemptSettings;
  schedule: number[];
  concurrency: number;
  perEndpoint: number;
  pollMs: number;
  /** How long a claim stays with this worker before another may take it over. */
  leaseMs: number;
  /** Counts each attempt's outcome (delivered, retrying, exhausted); see registerDeliveryMetrics. */
  countAttempt?: (outcome: 'delivered' | 'retrying' | 'exhausted') => void;
}

export interface DeliveryWorker {
  poke(): void;
  stop(): Promise<void>;
}

export function startDeliveryWorker(o: DeliveryWorkerOptions): DeliveryWorker {
  const inFlight = new Set<Promise<void>>();

  async function runAttempt(c: ClaimedAttempt): Promise<void> {
    crashPoint('webhooks.deliver.after-claim');
    const result = await performAttempt(c, o.attempt);
    crashPoint('webhooks.deliver.before-record');
    const next = nextStepAfter(c.attempt, c.maxAttempts, result, o.schedule);
    try {
      const kept = await recordAttemptResult(o.sql, c, result, next);
      if (!kept) o.log.warn({ deliveryId: c.deliveryId, attempt: c.attempt }, 'lease lost before the attempt was recorded; another worker took over');
    } catch (err) {
      // The lease will expire and the delivery be retried; the attempt shows as interrupted.
      o.log.error({ err, deliveryId: c.deliveryId, attempt: c.attempt }, 'could not record a webhook attempt');
    }
    const outcome = next.status === 'delivered' ? 'delivered' : next.status === 'failed' ? 'exhausted' : 'retrying';
    o.countAttempt?.(outcome);
    const fields = {
      eventId: c.eventId,
      deliveryId: c.deliveryId,
      attempt: c.attempt,
      maxAttempts: c.maxAttempts,
      statusCode: result.statusCode,
      error: result.error,
    };
    // A failed attempt is worth a look (warn); an event that will never arrive needs one (error).
    if (outcome === 'delivered') o.log.debug(fields, 'webhook delivered');
    else if (outcome === 'retrying')
      o.log.warn({ ...fields, retryInMs: next.status === 'pending' ? next.delayMs : undefined }, 'webhook attempt failed; will retry');
    else o.log.error(fields, 'webhook delivery failed after its last attempt');
  }

  async function claimAndStart(): Promise<boolean> {
    const free = o.concurrency - inFlight.size;
    if (free <= 0) return false;
    const claimed = await claimDueAttempts(o.sql, { slots: free, perEndpoint: o.perEndpoint, leaseMs: o.leaseMs });
    for (const c of claimed) {
      const p: Promise<void> = runAttempt(c)
        .catch((err) => o.log.error({ err, deliveryId: c.deliveryId }, 'webhook attempt failed unexpectedly'))
        .finally(() => {
          inFlight.delete(p);
          loop.poke();
        });
      inFlight.add(p);
    }
    return claimed.length === free;
  }

  // Woken when an event was stored and whenever a slot frees up; polls for retries that come due.
  const loop = startLoop({ name: 'claiming webhook deliveries', intervalMs: o.pollMs, log: o.log, run: claimAndStart });

  return {
    poke: loop.poke,
    async stop() {
      await loop.stop();
      // Attempts under way end within their HTTP timeout; let them record their result.
      await Promise.allSettled([...inFlight]);
    },
  };
}
