// A process that starts while a dependency is being failed over (a Postgres primary switched, a
// NATS node lost and its JetStream leaderships being elected again) waits for it, up to a minute,
// instead of exiting: in Kubernetes the pods of a lost node are rescheduled at the same moment,
// and a start that exits goes into a growing back-off (docs/operations.md). Anything but
// unavailability fails at once, with its own message.
import { isUnavailable as isNatsUnavailable } from '@bo/contracts';
import type { Logger } from './log.ts';

const START_WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitForDependency<T>(
  what: string,
  retryable: (err: unknown) => boolean,
  run: () => Promise<T>,
  log?: Logger,
  waitMs = START_WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    try {
      return await run();
    } catch (err) {
      if (!retryable(err) || Date.now() + delay > deadline) throw err;
      log?.warn({ err }, `${what} unavailable at start; trying again in ${delay} ms`);
      await sleep(delay);
    }
  }
}

/**
 * JetStream cannot answer now: no answer in time or no responders (the stream's or the cluster's
 * leader is being elected), its own "temporarily unavailable" and the like (contracts' rpc.ts,
 * `isUnavailable`), or JetStream not reachable through this server.
 */
export function isJetStreamUnavailable(err: unknown): boolean {
  return isNatsUnavailable(err) || (err as { name?: string } | undefined)?.name === 'JetStreamNotEnabled';
}

/** `run` (creating or checking streams and buckets at start) until JetStream answers. */
export function waitForJetStream<T>(run: () => Promise<T>, log?: Logger, waitMs?: number): Promise<T> {
  return waitForDependency('JetStream', isJetStreamUnavailable, run, log, waitMs);
}
