// What the connectors answered, counted per provider, environment and status in memory, and sent
// to the wallet every few seconds (one message for all of them): our team's view of a connector's
// health (the provider's page: the last call, refusals by status, the error rate). Nothing per
// call but a map update; a report that fails is kept and sent with the next one.
import { connectorMessages, requestOperation, type Environment } from '@bo/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@bo/service-kit/edge';

interface Count {
  providerId: string;
  environment: Environment;
  status: string;
  calls: number;
  lastAt: string;
}

export class ConnectorHealthCounts {
  #counts = new Map<string, Count>();
  #timer?: NodeJS.Timeout;
  #sending?: Promise<void>;

  count(providerId: string, environment: Environment, status: string, at = new Date()): void {
    const key = `${providerId} ${environment} ${status}`;
    const c = this.#counts.get(key);
    if (c) {
      c.calls++;
      c.lastAt = at.toISOString();
    } else this.#counts.set(key, { providerId, environment, status, calls: 1, lastAt: at.toISOString() });
  }

  /** Reports to the wallet every `intervalMs`. */
  start(o: { nc: NatsConnection; prefix: string; timeoutMs: number; intervalMs: number; log: Logger }): void {
    const send = async () => {
      if (this.#counts.size === 0) return;
      const counts = [...this.#counts.values()];
      this.#counts = new Map();
      try {
        const r = await requestOperation(
          o.nc,
          connectorMessages.health.subject,
          { ctx: { requestId: 'gateway', scope: { kind: 'internal', service: 'gateway' } }, params: {}, query: {}, body: { counts } },
          { prefix: o.prefix, timeoutMs: o.timeoutMs },
        );
        if (!r.ok) throw new Error(r.error.code);
      } catch (e) {
        // Kept for the next report (counts only grow: nothing is lost but time).
        for (const c of counts) {
          const key = `${c.providerId} ${c.environment} ${c.status}`;
          const now = this.#counts.get(key);
          if (now) {
            now.calls += c.calls;
            if (c.lastAt > now.lastAt) now.lastAt = c.lastAt;
          } else this.#counts.set(key, c);
        }
        o.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'connector health report not delivered; kept for the next one');
      }
    };
    this.#timer = setInterval(() => {
      this.#sending ??= send().finally(() => {
        this.#sending = undefined;
      });
    }, o.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
