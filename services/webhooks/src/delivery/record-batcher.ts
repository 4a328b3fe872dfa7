// Attempt records in batches: the records of attempts that finish within a few milliseconds of
// each other go to Postgres in one statement (recordAttemptResults) instead of one each. A record
// is not on the path an event takes to the operator (the POST has been answered), so waiting a
// window costs no webhook lag; it holds the attempt's endpoint slot and pool place that much longer.
// One batch is written at a time; what finishes meanwhile goes in the next.
import type { SqlRunner } from '@bo/service-kit';
import { recordAttemptResults, type FinishedAttempt } from '../persistence/delivery-queue.ts';

export interface RecordBatcherOptions {
  sql: SqlRunner;
  /** How long the first record of a batch waits for others. */
  windowMs: number;
  /** Records per statement at most. */
  maxBatch: number;
}

export interface RecordBatcher {
  /** Resolves with whether the lease was still ours (the record was written); rejects when it could not be written. */
  record(done: FinishedAttempt): Promise<boolean>;
}

interface Waiting {
  done: FinishedAttempt;
  resolve(kept: boolean): void;
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
      for (const w of batch) w.resolve(kept.has(w.done.claimed.deliveryId));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      // One record that cannot be written must not cost the others theirs: each again on its own.
      for (const w of batch) await write([w]);
    }
  }

  async function flush(): Promise<void> {
    timer = undefined;
    writing = true;
    try {
      while (queue.length > 0) await write(queue.splice(0, o.maxBatch));
    } finally {
      writing = false;
    }
  }

  return {
    record(done) {
      return new Promise<boolean>((resolve, reject) => {
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
