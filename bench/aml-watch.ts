// The AML watch under load (issue #28: its lag p99 ≤ 2 s at full deposit rate): after a br-spa
// deposit run, wait until the watch's durable consumer has nothing pending or unacknowledged, then
// read the compliance process's lag histogram (bo_aml_watch_lag_seconds, event creation to ack)
// and take the run's share of it: the bucket counts after minus before.
import type { ChildProcess } from 'node:child_process';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventsStreamName } from '@bo/contracts';
import { watchConsumerName } from '@bo/compliance';
import { waitFor } from '@bo/service-kit/testing';
import { ask } from './child.ts';

export interface HistogramReading {
  type: 'histogram';
  /** Cumulative counts per upper bound (seconds); +Inf (null: IPC is JSON) last. */
  buckets: Array<{ le: number | null; count: number }>;
}

export interface WatchLag {
  events: number;
  /** The upper bound of the bucket holding the 99th percentile (seconds; Infinity past the last bound); null with no event. */
  p99AtMostS: number | null;
}

export function readLagHistogram(compliance: ChildProcess): Promise<HistogramReading> {
  return ask<HistogramReading>(compliance, { type: 'histogram', name: 'bo_aml_watch_lag_seconds' }, 'histogram');
}

/** The run's lag: the histogram's growth between two readings. */
export function lagBetween(before: HistogramReading, after: HistogramReading): WatchLag {
  const grown = after.buckets.map((b, i) => ({ le: b.le, count: b.count - (before.buckets[i]?.count ?? 0) }));
  const events = grown.at(-1)?.count ?? 0;
  if (events === 0) return { events, p99AtMostS: null };
  const p99 = grown.find((b) => b.count >= Math.ceil(events * 0.99))!;
  return { events, p99AtMostS: p99.le ?? Number.POSITIVE_INFINITY };
}

/** Resolves once the watch has taken in and acknowledged everything published so far. */
export async function watchDrained(natsUrl: string, prefix: string, timeoutMs = 180_000): Promise<void> {
  const nc = await connect({ servers: natsUrl, name: 'bench aml watch probe' });
  try {
    const jsm = await jetstreamManager(nc);
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(eventsStreamName(prefix), watchConsumerName(prefix));
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      { timeoutMs, intervalMs: 200, what: 'the AML watch to catch up' },
    );
  } finally {
    await nc.close();
  }
}
