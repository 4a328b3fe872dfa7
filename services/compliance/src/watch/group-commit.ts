// Group commit: work items handed in one at a time are run in batches, one batch at a time. A
// batch is whatever arrived while the one before ran (at most `max`), so a lone item waits for
// nothing, and under load each transaction carries many items (the AML watch's in-order deposits).

/** `run` answers each item of a batch, in order; when it throws, every item of the batch fails with it. */
export function groupCommit<I, O>(max: number, run: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  const waiting: Array<{ item: I; resolve(o: O): void; reject(e: unknown): void }> = [];
  let running = false;
  const next = (): void => {
    if (running || waiting.length === 0) return;
    running = true;
    const batch = waiting.splice(0, max);
    run(batch.map((w) => w.item))
      .then(
        (out) => {
          for (const [i, w] of batch.entries()) w.resolve(out[i]!);
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        running = false;
        next();
      });
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      next();
    });
}
