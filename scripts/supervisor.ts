// How `npm start` keeps its processes running, the way an orchestrator would. A process that dies
// once the system has been ready is started again after a back-off (1 s, 2 s, 4 s … at most 30 s;
// back to 1 s once it has stayed up a minute), each restart logged with why it stopped and its last
// output line; the others keep running, and it keeps trying for as long as `npm start` runs, as a
// Kubernetes pod would. A process that dies before the system was first ready stops everything
// instead, with its reason: at start-up that is a configuration or migration error, which a restart
// would only repeat. stop() ends every process, tier by tier (0 first).

/** One run of a process. */
export interface Running {
  pid?: number;
  /** Settles when it exits, for whatever reason, with why (`SIGKILL`, `code 1`). */
  exited: Promise<string>;
  /** Its last output line, if any (shown with its exit). */
  lastLine(): string;
  stop(): Promise<void>;
}

export interface Unit {
  name: string;
  /** Stopped in tier order: 0 (services and gateway) first, then 1, … */
  tier: number;
  /** Starts it (again); none: it is not ours to restart. */
  start?: () => Promise<Running>;
}

interface Watched {
  unit: Unit;
  current?: Running;
  /** A start in progress, awaited by stop(). */
  starting?: Promise<void>;
  timer?: NodeJS.Timeout;
  restarts: number;
  since: number;
}

const MAX_DELAY_MS = 30_000;
/** Up this long, a process starts its back-off afresh. */
const STAYED_UP_MS = 60_000;

/** The wait before the nth restart in a row: 1 s, 2 s, 4 s … at most 30 s. */
export function restartDelayMs(restart: number): number {
  return Math.min(1000 * 2 ** (restart - 1), MAX_DELAY_MS);
}

export class Supervisor {
  readonly #log: (msg: string) => void;
  readonly #fatal: (reason: string) => void;
  readonly #watched: Watched[] = [];
  #ready = false;
  #stopping = false;

  /** fatal: a process died before the system was ready (the caller stops everything). */
  constructor(opts: { log: (msg: string) => void; fatal: (reason: string) => void }) {
    this.#log = opts.log;
    this.#fatal = opts.fatal;
  }

  /** Starts a unit and watches it (nothing once stopping). */
  async start(unit: Unit): Promise<void> {
    if (this.#stopping || !unit.start) return;
    const w: Watched = { unit, restarts: 0, since: Date.now() };
    this.#watched.push(w);
    await this.#run(w, unit.start);
  }

  /** Watches a unit that is already running. */
  adopt(unit: Unit, running: Running): void {
    const w: Watched = { unit, restarts: 0, since: Date.now() };
    this.#watched.push(w);
    this.#watch(w, running);
  }

  /** The system has been ready: from now on a process that dies is restarted. */
  ready(): void {
    this.#ready = true;
  }

  /** Cancels pending restarts and stops every process, tier by tier. Once. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const w of this.#watched) clearTimeout(w.timer);
    const tiers = [...new Set(this.#watched.map((w) => w.unit.tier))].sort((a, b) => a - b);
    for (const tier of tiers) {
      await Promise.all(
        this.#watched
          .filter((w) => w.unit.tier === tier)
          .map(async (w) => {
            await w.starting;
            await w.current?.stop().catch(() => undefined);
          }),
      );
    }
  }

  /** One start; a start that fails counts as an exit. */
  #run(w: Watched, start: () => Promise<Running>): Promise<void> {
    const starting = (async () => {
      try {
        const running = await start();
        if (this.#stopping) {
          // stop() came while it was starting: it waits for this start, and the process ends here.
          await running.stop().catch(() => undefined);
          return;
        }
        this.#watch(w, running);
        if (w.restarts > 0) this.#log(`${w.unit.name} restarted${running.pid ? ` (pid ${running.pid})` : ''}`);
      } catch (err) {
        const why = err instanceof Error ? err.message.split('\n')[0]! : String(err);
        w.since = Date.now();
        this.#exited(w, `did not start: ${why}`, '');
      }
    })();
    w.starting = starting.finally(() => {
      w.starting = undefined;
    });
    return w.starting;
  }

  #watch(w: Watched, running: Running): void {
    w.current = running;
    w.since = Date.now();
    void running.exited.then((why) => {
      if (w.current !== running) return;
      w.current = undefined;
      this.#exited(w, `exited (${why})`, running.lastLine());
    });
  }

  #exited(w: Watched, what: string, lastLine: string): void {
    if (this.#stopping) return;
    const last = lastLine ? `; its last line: ${lastLine.length > 300 ? `${lastLine.slice(0, 300)}…` : lastLine}` : '';
    const { start } = w.unit;
    if (!this.#ready) {
      this.#fatal(`${w.unit.name} ${what} before the system was ready${last}`);
      return;
    }
    if (!start) {
      this.#log(`${w.unit.name} ${what}; it is not ours to restart${last}`);
      return;
    }
    if (Date.now() - w.since >= STAYED_UP_MS) w.restarts = 0;
    w.restarts++;
    const delay = restartDelayMs(w.restarts);
    this.#log(`${w.unit.name} ${what}; restarting in ${delay / 1000} s (restart ${w.restarts})${last}`);
    w.timer = setTimeout(() => {
      w.timer = undefined;
      if (!this.#stopping) void this.#run(w, start);
    }, delay);
  }
}
