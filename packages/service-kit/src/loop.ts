// The one wake-able loop of the services (outbox relay, webhook delivery worker, reconciler,
// clearing roll-up, cleanups, and the JetStream consumers' restarts: durable-consumer.ts): `run`
// every `intervalMs` after the previous pass ended, at once when poked, never two passes at the
// same time (a poke during a pass asks for one more after it), and again at once when a pass says
// more work is waiting. A failed pass is logged and the loop goes on at its pace, or, with
// `maxBackoffMs`, after twice the wait of the failure before it (up to that), until a pass succeeds.
// With `idleMaxMs`, a pass that found nothing (`'idle'`) waits twice as long as the one before (up to
// that) until a pass finds work or a poke comes: a loop polled as a safety net (the outbox relay, woken
// after each commit) costs next to nothing while there is nothing to do, on every replica and in every
// test stack, and still finds what no poke announced within `idleMaxMs`.
import type { Logger } from './log.ts';

export interface Loop {
  /** Run a pass now (or right after the one under way). */
  poke(): void;
  /** Stop the timer and wait for the pass under way. */
  stop(): Promise<void>;
  /** For readiness: why the last pass failed, until one succeeds again. */
  problem(): string | undefined;
}

export interface LoopOptions {
  /** What the log says failed. */
  name: string;
  intervalMs: number;
  /** One pass; `true` when more work is waiting (runs again at once), `'idle'` when it found nothing. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a pass that returns nothing means no more work
  run(): Promise<boolean | 'idle' | void>;
  log: Pick<Logger, 'warn'>;
  /** First pass at once (default) or after one interval. */
  startNow?: boolean;
  /** Back off after failures in a row: `intervalMs`, then doubled per failure, at most this. */
  maxBackoffMs?: number;
  /** Slow down after passes in a row that found nothing: `intervalMs`, then doubled per idle pass, at most this; a poke or work found resets it. */
  idleMaxMs?: number;
}

/** The wait after a pass: the interval, doubled per failure (`maxBackoffMs`) or per idle pass (`idleMaxMs`) in a row, up to those. */
export function waitBeforeNextPass(o: Pick<LoopOptions, 'intervalMs' | 'maxBackoffMs' | 'idleMaxMs'>, failuresInARow: number, idleInARow: number): number {
  if (o.maxBackoffMs && failuresInARow > 0) return Math.min(o.intervalMs * 2 ** (failuresInARow - 1), o.maxBackoffMs);
  if (o.idleMaxMs && idleInARow > 0) return Math.min(o.intervalMs * 2 ** (idleInARow - 1), Math.max(o.idleMaxMs, o.intervalMs));
  return o.intervalMs;
}

export function startLoop(o: LoopOptions): Loop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let failure: string | undefined;
  let failuresInARow = 0;
  let idleInARow = 0;

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = stopped ? undefined : setTimeout(pass, waitBeforeNextPass(o, failuresInARow, idleInARow));
  };

  function pass(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = o
      .run()
      .then((more) => {
        failure = undefined;
        failuresInARow = 0;
        if (more === 'idle') idleInARow++;
        else idleInARow = 0;
        if (more === true) again = true;
      })
      .catch((err: unknown) => {
        failure = `last pass failed: ${err instanceof Error ? err.message : String(err)}`;
        failuresInARow++;
        o.log.warn({ err }, `${o.name} failed; will retry`);
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          pass();
        } else schedule();
      });
  }

  timer = setTimeout(pass, o.startNow === false ? o.intervalMs : 0);
  return {
    poke() {
      idleInARow = 0;
      pass();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    problem: () => failure,
  };
}
