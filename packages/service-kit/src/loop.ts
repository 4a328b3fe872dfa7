// The one wake-able loop of the services (outbox relay, webhook delivery worker, reconciler,
// clearing roll-up, cleanups, and the JetStream consumers' restarts: durable-consumer.ts): `run`
// every `intervalMs` after the previous pass ended, at once when poked, never two passes at the
// same time (a poke during a pass asks for one more after it), and again at once when a pass says
// more work is waiting. A failed pass is logged and the loop goes on at its pace, or, with
// `maxBackoffMs`, after twice the wait of the failure before it (up to that), until a pass succeeds.
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
  /** One pass; `true` when more work is waiting (runs again at once). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a pass that returns nothing means no more work
  run(): Promise<boolean | void>;
  log: Pick<Logger, 'warn'>;
  /** First pass at once (default) or after one interval. */
  startNow?: boolean;
  /** Back off after failures in a row: `intervalMs`, then doubled per failure, at most this. */
  maxBackoffMs?: number;
}

export function startLoop(o: LoopOptions): Loop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let failure: string | undefined;
  let failuresInARow = 0;

  const schedule = () => {
    if (timer) clearTimeout(timer);
    const wait = o.maxBackoffMs && failuresInARow > 0 ? Math.min(o.intervalMs * 2 ** (failuresInARow - 1), o.maxBackoffMs) : o.intervalMs;
    timer = stopped ? undefined : setTimeout(pass, wait);
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
    poke: pass,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    problem: () => failure,
  };
}
