// Attempt records in batches: the records of attempts that finish within a few milliseconds of
// each other go to Postgres in one statement (recordAttemptResults) instead of one each. A record
// is not on the path an event takes to the operator (the POST has been answered), so waiting a
// window costs no webhook lag; it holds the attempt's endpoint slot and pool place that much longer.
// One batch is written at a time; what finishes meanwhile goes in the next, and so does a record of
// an event that already has one in the batch (a 2xx ends the schedules of its event's other
// deliveries, which must not be recorded by the same statement: recordAttemptResults).
import type { SqlRunner } from '@bo/service-kit';
import { recordAttemptResults, type FinishedAttempt, type RecordOutcome } from '../store/delivery-queue.ts';

export interface RecordBatcherOptions {
  sql: SqlRunner;
  /** How long the first record of a batch waits for others. */
  windowMs: number;
  /** Records per statement at most. */
  maxBatch: number;
}

export interface RecordBatcher {
  /** Resolves with whether the lease was still ours (the record was written) and whether another delivery's 2xx had ended the schedule; rejects when it could not be written. */
  record(done: FinishedAttempt): Promise<Omit<RecordOutcome, 'next'>>;
}

interface Waiting {
  done: FinishedAttempt;
  resolve(outcome: Omit<RecordOutcome, 'next'>): void;
  reject(err: unknown): void;
}

export function createRecordBatcher(o: RecordBatcherOptions): RecordBatcher {
  const queue: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing = false;

  async function write(batch: Waiting[]): Promise<void> {
    try {
      const kept = await recordAttemptResults(
        o.sql,
        batch.map((w) => w.done),
      );
      for (const w of batch) {
        const id = w.done.claimed.deliveryId;
        w.resolve({ kept: kept.has(id), acknowledgedBy: kept.get(id) ?? undefined });
      }
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      // One record that cannot be written must not cost the others theirs: each again on its own.
      for (const w of batch) await write([w]);
    }
  }

  /** The next batch: oldest first, at most one record per event (the others stay queued, in order). */
  function nextBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const events = new Set<string>();
    const rest: Waiting[] = [];
    for (const w of queue) {
      if (batch.length < o.maxBatch && !events.has(w.done.claimed.eventId)) {
        batch.push(w);
        events.add(w.done.claimed.eventId);
      } else rest.push(w);
    }
    queue.splice(0, queue.length, ...rest);
    return batch;
  }

  async function flush(): Promise<void> {
    timer = undefined;
    writing = true;
    try {
      while (queue.length > 0) await write(nextBatch());
    } finally {
      writing = false;
    }
  }

  return {
    record(done) {
      return new Promise((resolve, reject) => {
        queue.push({ done, resolve, reject });
        if (writing) return; // taken by the batch after the one being written
        if (queue.length >= o.maxBatch) {
          clearTimeout(timer);
          void flush();
        } else if (!timer) {
          timer = setTimeout(() => void flush(), o.windowMs);
        }
      });
    },
  };
}
