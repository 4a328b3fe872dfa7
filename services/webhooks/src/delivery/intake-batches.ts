// What the events consumer has taken from JetStream and not stored yet. What arrived together (one
// socket read) is stored as one batch once the current turn is over; at most `parallel` batches at
// once, each of distinct event ids (one statement inserts them; a repeat waits for the next batch).
//
// `settle()` resolves only once nothing taken is left unstored. The consumer's stop awaits it before
// the service drains its NATS connection: a batch started after the stop returned would store and
// deliver its events, then acknowledge them on a closed connection, and JetStream would hand them to
// the next consumer (a restored system: the drill's "after-T event sent again", docs/testing.md).

export interface IntakeBatchesOptions<T> {
  /** Stores one batch and acknowledges its messages; handles its own failures (nak). */
  store(batch: T[]): Promise<void>;
  /** The event id of an item: one per batch. */
  idOf(item: T): string;
  /** Batches stored at once. */
  parallel: number;
  /** Items per batch at most. */
  maxBatch: number;
  /** A batch whose store threw (a closed connection at its ack): logged, never an unhandled rejection. */
  onError(err: unknown): void;
}

export class IntakeBatches<T> {
  readonly #o: IntakeBatchesOptions<T>;
  readonly #pending: T[] = [];
  readonly #handling = new Set<Promise<void>>();
  #pumpQueued = false;

  constructor(o: IntakeBatchesOptions<T>) {
    this.#o = o;
  }

  /** Takes an item; its batch starts once this turn is over, with whatever else arrived in it. */
  add(item: T): void {
    this.#pending.push(item);
    if (!this.#pumpQueued) {
      this.#pumpQueued = true;
      setImmediate(() => this.#pump());
    }
  }

  /** Resolves once there is room to take more (the consumer's back-pressure on JetStream). */
  async room(): Promise<void> {
    while (this.#pending.length >= this.#o.maxBatch && this.#handling.size >= this.#o.parallel) await Promise.race(this.#handling);
  }

  /** Resolves once every item taken is stored (or given back by its store). */
  async settle(): Promise<void> {
    this.#pump();
    while (this.#handling.size > 0) await Promise.allSettled([...this.#handling]);
  }

  /** Items taken and not yet in a batch, and batches being stored (for tests and metrics). */
  get size(): { waiting: number; storing: number } {
    return { waiting: this.#pending.length, storing: this.#handling.size };
  }

  #pump(): void {
    this.#pumpQueued = false;
    while (this.#pending.length > 0 && this.#handling.size < this.#o.parallel) {
      const ids = new Set<string>();
      const batch: T[] = [];
      for (let i = 0; i < this.#pending.length && batch.length < this.#o.maxBatch; ) {
        const item = this.#pending[i]!;
        const id = this.#o.idOf(item);
        if (ids.has(id)) {
          i++;
          continue;
        }
        ids.add(id);
        batch.push(item);
        this.#pending.splice(i, 1);
      }
      const p: Promise<void> = this.#o
        .store(batch)
        .catch((err) => this.#o.onError(err))
        .finally(() => {
          this.#handling.delete(p);
          this.#pump();
        });
      this.#handling.add(p);
    }
  }
}
