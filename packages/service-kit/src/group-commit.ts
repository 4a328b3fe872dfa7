// Group commit (docs/money.md, "Group commit"): work items handed in one at a time are run in
// batches. A batch is what arrived while the batches before it ran (at most `max`), plus what
// arrives within `windowMs` of its first item: with no window a lone item waits for nothing, and
// under load each statement carries many items. At most `lanes` batches run at once.
//
// Items with the same key (`keyOf`: a deposit, an account) never share a batch: the later one
// waits for the next, so one row is written once per statement and a key's items keep their order.

export interface GroupCommitOptions<I> {
  /** Most items in one batch; 1 runs every item alone (group commit off). */
  max: number;
  /** How long the first item of a batch waits for company when no batch is running; 0: not at all. */
  windowMs?: number;
  /** Batches running at once (1 by default). */
  lanes?: number;
  /** Items with the same key go in different batches, in the order they came. */
  keyOf?: (item: I) => string;
  /**
   * Batches of 1, 2, 4, 8… items only (what is left waits for the next): a statement's text
   * grows with its batch, and fewer sizes are fewer texts for Postgres to plan.
   */
  powersOfTwo?: boolean;
  /** Told each batch's size as it starts (metrics). */
  onBatch?: (size: number) => void;
}

interface Waiting<I, O> {
  item: I;
  resolve(o: O): void;
  reject(e: unknown): void;
}

/** `run` answers each item of a batch, in order; when it throws, every item of the batch fails with it. */
export function groupCommit<I, O>(opts: GroupCommitOptions<I>, run: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  const max = Math.max(1, opts.max);
  const lanes = Math.max(1, opts.lanes ?? 1);
  const windowMs = opts.windowMs ?? 0;
  const waiting: Waiting<I, O>[] = [];
  let running = 0;
  let timer: NodeJS.Timeout | undefined;

  /** The next batch: in arrival order, at most `max` (a power of two when asked), one item per key. */
  const take = (): Waiting<I, O>[] => {
    const picked: number[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < waiting.length && picked.length < max; i++) {
      const key = opts.keyOf?.(waiting[i]!.item);
      if (key !== undefined) {
        if (keys.has(key)) continue;
        keys.add(key);
      }
      picked.push(i);
    }
    const n = opts.powersOfTwo ? 2 ** Math.floor(Math.log2(picked.length)) : picked.length;
    const chosen = picked.slice(0, n);
    const batch = chosen.map((i) => waiting[i]!);
    for (const i of chosen.reverse()) waiting.splice(i, 1);
    return batch;
  };

  const start = (): void => {
    const batch = take();
    running++;
    opts.onBatch?.(batch.length);
    let answered: Promise<O[]>;
    try {
      answered = run(batch.map((w) => w.item));
    } catch (err) {
      answered = Promise.reject(err);
    }
    answered
      .then(
        (out) => {
          for (const [i, w] of batch.entries()) w.resolve(out[i]!);
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        running--;
        next();
      });
  };

  /** Starts batches while lanes are free; `windowOver`: the first item has waited its window. */
  const next = (windowOver = false): void => {
    if (timer) return;
    while (running < lanes && waiting.length > 0) {
      // Alone on an idle batcher: wait the window for company (unless the batch is full already).
      if (!windowOver && windowMs > 0 && running === 0 && waiting.length < max) {
        timer = setTimeout(() => {
          timer = undefined;
          next(true);
        }, windowMs);
        return;
      }
      start();
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (timer && waiting.length >= max) {
        clearTimeout(timer);
        timer = undefined;
        start();
        return;
      }
      next();
    });
}
