// Readiness of a process, answered on its internal port (metrics.ts: GET /readyz): what it depends
// on (NATS, Postgres) and what it runs (the outbox relay, a service's consumers and loops) each
// answer a named check: nothing when fine, else why not. A check that does not answer within the
// deadline counts as failing, and is not started again while it still runs (a hung database must
// not pile up probe queries on the pool).
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
/** What a readiness check needs of the pool (sql.ts's SqlRunner has it): kept here so processes without a database load no pg (edge.ts). */
type OneQuery = { query(text: string): Promise<unknown[]> };

/** Nothing when fine, else why not (short: it is shown in the probe's answer). */
export type ReadinessCheck = () => string | undefined | Promise<string | undefined>;

export interface ReadinessReport {
  ready: boolean;
  /** Every check by name: `ok`, or why not. */
  checks: Record<string, string>;
}

export interface Readiness {
  add(name: string, check: ReadinessCheck): void;
  report(): Promise<ReadinessReport>;
}

export function createReadiness(deadlineMs = 2000): Readiness {
  const checks = new Map<string, ReadinessCheck>();
  const running = new Map<string, Promise<string | undefined>>();

  function run(name: string, check: ReadinessCheck): Promise<string | undefined> {
    let p = running.get(name);
    if (!p) {
      p = Promise.resolve()
        .then(check)
        .catch((err: unknown) => (err instanceof Error ? err.message : String(err)) || 'failed')
        .finally(() => running.delete(name));
      running.set(name, p);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${deadlineMs} ms`), deadlineMs);
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }

  return {
    add(name, check) {
      checks.set(name, check);
    },
    async report() {
      const entries = await Promise.all([...checks].map(async ([name, check]) => [name, await run(name, check)] as const));
      return {
        ready: entries.every(([, problem]) => problem === undefined),
        checks: Object.fromEntries(entries.map(([name, problem]) => [name, problem ?? 'ok'])),
      };
    },
  };
}

/** The NATS connection is open and the server answers a ping. */
export function natsReadiness(nc: NatsConnection): ReadinessCheck {
  return async () => {
    if (nc.isClosed()) return 'connection closed';
    await nc.rtt();
    return undefined;
  };
}

/** JetStream answers through the connection (its account info): what a process with no database, the gateway, keeps its state in. */
export function jetStreamReadiness(nc: NatsConnection, timeoutMs = 1000): ReadinessCheck {
  return async () => {
    const jsm = await jetstreamManager(nc, { checkAPI: false, timeout: timeoutMs });
    await jsm.getAccountInfo();
    return undefined;
  };
}

/** Postgres answers `select 1` on the process's pool. */
export function postgresReadiness(sql: OneQuery): ReadinessCheck {
  return async () => {
    await sql.query('select 1');
    return undefined;
  };
}
