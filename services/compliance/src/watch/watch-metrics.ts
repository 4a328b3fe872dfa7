// The watch's lag: from an event's creation (its outbox commit) to the watch's ack, per event
// handled, so `npm run bench` and Prometheus can read its p99 (issue #28 asks ≤ 2 s at full rate).
import { Histogram, type Registry } from 'prom-client';

export function watchLagRecorder(registry: Registry): (createdAt: string) => void {
  const lag = new Histogram({
    name: 'bo_aml_watch_lag_seconds',
    help: 'Seconds from an event being created to the AML watch acknowledging it',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  return (createdAt) => {
    const ms = Date.now() - Date.parse(createdAt);
    if (Number.isFinite(ms)) lag.observe(Math.max(0, ms) / 1000);
  };
}
