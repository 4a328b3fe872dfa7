// The webhooks service's own metrics, on the kit's registry (served on METRICS_PORT): attempts by
// outcome, and the queue as it stands when scraped.
import { Gauge, type Registry } from 'prom-client';
import { counter, type SqlRunner } from '@bo/service-kit';
import { queueState, type QueueState } from '../store/delivery-queue.ts';
import type { AttemptOutcome } from './delivery-worker.ts';

export function registerDeliveryMetrics(registry: Registry, sql: SqlRunner): (outcome: AttemptOutcome) => void {
  const attempts = counter(
    registry,
    'bo_webhook_attempts_total',
    'Webhook delivery attempts by outcome: delivered, retrying (failed, another attempt is due), exhausted (failed for good), superseded (failed, another delivery of the event was acknowledged meanwhile).',
    ['outcome'] as const,
  );
  // Every outcome at 0 from the start: absent means down, and a rate works before the first attempt.
  for (const outcome of ['delivered', 'retrying', 'exhausted', 'superseded'] satisfies AttemptOutcome[]) attempts.inc({ outcome }, 0);
  // One query per scrape feeds both gauges (the queue's depth and its lag).
  let last: Promise<QueueState | undefined> | undefined;
  const read = () =>
    (last ??= queueState(sql).finally(() => {
      setImmediate(() => {
        last = undefined;
      });
    }));
  new Gauge({
    name: 'bo_webhook_queue_depth',
    help: 'Webhook deliveries waiting for an attempt: all pending, and those already due.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const row = await read();
      this.set({ state: 'pending' }, Number(row?.pending ?? 0));
      this.set({ state: 'due' }, Number(row?.due ?? 0));
    },
  });
  new Gauge({
    name: 'bo_webhook_oldest_due_age_seconds',
    help: 'How long the oldest due delivery has waited past its attempt time (0 when none is due): the delivery lag.',
    registers: [registry],
    async collect() {
      this.set((await read())?.lag ?? 0);
    },
  });
  return (outcome) => attempts.inc({ outcome });
}
