// The delivery pool of a replica: runs attempts concurrently (at most `concurrency`), records each
// (in batches while nothing waits for room: record-batcher.ts) and schedules the next. Most first
// attempts come from the intake, which leases them in its own statement after reserving a place
// here; while deliveries of an endpoint wait, the record of each attempt hands its slot and place
// to the oldest of them; the claim loop takes the rest from Postgres (retries of idle endpoints,
// deliveries that waited for this pool, lapsed leases; several replicas share the queue via SKIP
// LOCKED).
import { crashPoint, startLoop, type Logger, type Sql } from '@bo/service-kit';
import { nextStepAfter, type AttemptResult, type NextStep } from '../domain/retry-schedule.ts';
import { claimDueAttempts, isDeadlock, recordAttemptResult, type ClaimedAttempt, type ClaimResult, type RecordOutcome } from '../store/delivery-queue.ts';
import { performAttempt, type AttemptSettings } from './attempt.ts';
import { createRecordBatcher } from './record-batcher.ts';
import { forgetEventOrigin, inEventTrace } from './delivery-origins.ts';
import { SpanStatusCode, type Span } from '@opentelemetry/api';

/**
 * How long a finished attempt's record waits for others to share its statement (record-batcher.ts).
 * The wait holds the endpoint's slot: at 10 ms, a busy endpoint ran out of slots often enough that
 * 43% of records went alone with a hand-over; at 2 ms, 25%, the rest in batches (records finishing
 * while a batch is written join the next one anyway). docs/benchmarks.md, session 46.
 */
const RECORD_WINDOW_MS = 2;
const RECORD_MAX_BATCH = 64;

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
  /** Counts each attempt's outcome (delivered, retrying, exhausted, superseded); see registerDeliveryMetrics. */
  countAttempt?: (outcome: AttemptOutcome) => void;
}

/** How an attempt ended for its delivery: `superseded` = failed, but another delivery of the event was acknowledged meanwhile. */
export type AttemptOutcome = 'delivered' | 'retrying' | 'exhausted' | 'superseded';

export interface DeliveryWorker {
  /** Look for due deliveries now (something became due). */
  poke(): void;
  /** Holds up to `n` places in the pool for attempts the intake may lease, once a claim pass under way has taken its own; how many it got. */
  reserve(n: number): Promise<number>;
  /** Runs an attempt the intake leased in a reserved place, or gives one place back (undefined). */
  startReserved(c: ClaimedAttempt | undefined): void;
  /** A delivery was stored due but not started (no room): the claim loop should look once room frees. */
  noteWaiting(): void;
  stop(): Promise<void>;
  /** For readiness: why the last claim pass failed, until one succeeds again. */
  problem(): string | undefined;
}

export function startDeliveryWorker(o: DeliveryWorkerOptions): DeliveryWorker {
  const inFlight = new Set<Promise<void>>();
  let reserved = 0;
  /** The claim pass under way, whose room is not the intake's to take until it has started its attempts. */
  let claiming: Promise<unknown> | undefined;
  // Whether a due delivery may be waiting for room: only then does a finished attempt wake the
  // claim loop (a claim transaction after every attempt would cost more than the attempt's intake).
  let waiting = false;
  let notes = 0;
  let stopping = false;
  const records = createRecordBatcher({ sql: o.sql, windowMs: RECORD_WINDOW_MS, maxBatch: RECORD_MAX_BATCH });

  /**
   * Writes the attempt's record. While deliveries may be waiting for room, alone, handing the slot
   * to the oldest of them; otherwise in a batch with the records finishing around it, every slot
   * freed. Stopping, alone and without a hand-over.
   */
  async function record(c: ClaimedAttempt, result: AttemptResult, next: NextStep): Promise<RecordOutcome> {
    try {
      if (stopping) return await recordAttemptResult(o.sql, c, result, next);
      if (waiting) return await recordAttemptResult(o.sql, c, result, next, { perEndpoint: o.perEndpoint, leaseMs: o.leaseMs });
      return await records.record({ claimed: c, result, next });
    } catch (err) {
      // Two 2xx of one event recorded at the same moment: each statement ends the other delivery's
      // schedule, so each waits for the other's row and Postgres aborts one. Written again, alone,
      // it finds the other's record done.
      if (isDeadlock(err)) return recordAttemptResult(o.sql, c, result, next);
      throw err;
    }
  }

  /** Runs one attempt; returns the attempt its record handed the slot (and this place) to, if any. */
  async function runAttempt(c: ClaimedAttempt): Promise<ClaimedAttempt | undefined> {
    return inEventTrace(c.eventId, { 'bo.event_id': c.eventId, 'bo.delivery_id': c.deliveryId, 'bo.attempt': c.attempt }, (span) => attemptAndRecord(c, span));
  }

  async function attemptAndRecord(c: ClaimedAttempt, span: Span): Promise<ClaimedAttempt | undefined> {
    crashPoint('webhooks.deliver.after-claim');
    const result = await performAttempt(c, o.attempt);
    crashPoint('webhooks.deliver.before-record');
    const next = nextStepAfter(c.attempt, c.maxAttempts, result, o.schedule);
    let handedTo: ClaimedAttempt | undefined;
    let acknowledgedBy: string | undefined;
    try {
      const recorded = await record(c, result, next);
      if (!recorded.kept) o.log.warn({ deliveryId: c.deliveryId, attempt: c.attempt }, 'lease lost before the attempt was recorded; another worker took over');
      handedTo = recorded.next;
      acknowledgedBy = recorded.acknowledgedBy;
    } catch (err) {
      // The lease will expire and the delivery be retried; the attempt shows as interrupted.
      o.log.error({ err, deliveryId: c.deliveryId, attempt: c.attempt }, 'could not record a webhook attempt');
    }
    // Another delivery's 2xx ended this one's schedule while the attempt was in flight: no retry.
    const outcome: AttemptOutcome =
      next.status === 'delivered' ? 'delivered' : acknowledgedBy !== undefined ? 'superseded' : next.status === 'failed' ? 'exhausted' : 'retrying';
    o.countAttempt?.(outcome);
    if (outcome !== 'retrying') forgetEventOrigin(c.eventId);
    if (outcome !== 'delivered') span.setStatus({ code: SpanStatusCode.ERROR });
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
    else if (outcome === 'superseded')
      o.log.warn({ ...fields, acknowledgedBy }, 'webhook attempt failed; another delivery of the event was acknowledged, no retry');
    else if (outcome === 'retrying')
      o.log.warn({ ...fields, retryInMs: next.status === 'pending' ? next.delayMs : undefined }, 'webhook attempt failed; will retry');
    else o.log.error(fields, 'webhook delivery failed after its last attempt');
    return handedTo;
  }

  function start(c: ClaimedAttempt): void {
    const p: Promise<void> = runAttempt(c)
      .catch((err) => {
        o.log.error({ err, deliveryId: c.deliveryId }, 'webhook attempt failed unexpectedly');
        return undefined;
      })
      .then((handedTo) => {
        inFlight.delete(p);
        // The next attempt takes this place; otherwise the record freed the slot and the place.
        if (handedTo) start(handedTo);
        else if (waiting) loop.poke();
      });
    inFlight.add(p);
  }

  const room = () => o.concurrency - inFlight.size - reserved;

  async function claimAndStart(): Promise<boolean> {
    const free = room();
    if (free <= 0) return false;
    const notesBefore = notes;
    // The places this pass may fill are its own while it looks: an intake waits for the pass to
    // start what it claimed (reserve, below). Offered to both, they were filled twice and the pool
    // ran up to twice its size (docs/testing.md, a loaded run of 8d69ff3).
    const pass = claimDueAttempts(o.sql, { room: free, perEndpoint: o.perEndpoint, leaseMs: o.leaseMs });
    claiming = pass;
    let claimed: ClaimResult;
    try {
      claimed = await pass;
    } finally {
      claiming = undefined;
    }
    const { attempts, heldBack } = claimed;
    // A delivery noted meanwhile may have been stored after this pass looked.
    waiting = heldBack || notes !== notesBefore;
    for (const c of attempts) start(c);
    return attempts.length === free;
  }

  // Polls for retries that come due and leases that lapse; woken when room frees while deliveries wait.
  const loop = startLoop({ name: 'claiming webhook deliveries', intervalMs: o.pollMs, log: o.log, run: claimAndStart });

  return {
    poke: loop.poke,
    problem: loop.problem,
    async reserve(n) {
      // Its attempts are started in the same turn as the pass ends, before this continues.
      while (claiming) await claiming.catch(() => undefined);
      // Stopping: what the intake still stores waits for the claim loop of the next process or replica.
      if (stopping) return 0;
      const granted = Math.max(0, Math.min(n, room()));
      reserved += granted;
      return granted;
    },
    startReserved(c) {
      reserved--;
      if (c) start(c);
      else if (waiting) loop.poke();
    },
    noteWaiting() {
      waiting = true;
      notes++;
      // Nothing in flight here would wake the loop when room frees (the slots may be another replica's).
      if (inFlight.size === 0) loop.poke();
    },
    async stop() {
      stopping = true;
      await loop.stop();
      // Attempts under way end within their HTTP timeout; let them record their result (a record
      // under way may still hand its slot over once).
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
