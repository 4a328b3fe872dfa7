// A per-operator rate limit shared by every gateway replica without a database write per request.
// Fixed one-minute windows; the window's count lives in a NATS KV key, and each replica takes
// tokens from it in small batches by compare-and-set, then spends them locally. Tokens a replica
// still holds when the window ends are simply lost, so the limit is never exceeded; with a batch
// of 1 (small limits) it is exact.
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';
import { ensureStreamReplicas, type Logger } from '@bo/service-kit/edge';
import { isKvWriteConflict } from '../nats-kv.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface OperatorWindow {
  window: number;
  tokens: number;
  globalCount: number;
  reserving?: Promise<void>;
}

const WINDOW_MS = 60_000;

export function batchSizeFor(limit: number): number {
  return Math.max(1, Math.min(20, Math.floor(limit / 50)));
}

export class SharedRateLimiter {
  readonly #kv: KV;
  readonly #log: Logger;
  readonly #state = new Map<string, OperatorWindow>();

  private constructor(kv: KV, log: Logger) {
    this.#kv = kv;
    this.#log = log;
  }

  static async open(nc: NatsConnection, prefix: string, log: Logger, replicas: number): Promise<SharedRateLimiter> {
    const kv = await new Kvm(nc).create(`${prefix}_ratelimit`, { history: 1, ttl: 3 * WINDOW_MS, replicas });
    await ensureStreamReplicas(nc, `KV_${prefix}_ratelimit`, replicas);
    return new SharedRateLimiter(kv, log);
  }

  async take(operatorId: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const window = Math.floor(now / WINDOW_MS);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    let st = this.#state.get(operatorId);
    if (!st || st.window !== window) {
      st = { window, tokens: 0, globalCount: 0 };
      this.#state.set(operatorId, st);
    }
    // Requests of one operator on this replica reserve one batch at a time.
    while (st.tokens === 0) {
      if (st.reserving) {
        await st.reserving;
        if (st.window !== window) break;
        continue;
      }
      let exhausted = false;
      st.reserving = this.#reserve(operatorId, window, limit, st)
        .then((ok) => {
          exhausted = !ok;
        })
        .finally(() => {
          st!.reserving = undefined;
        });
      await st.reserving;
      if (exhausted && st.tokens === 0) return { allowed: false, limit, remaining: 0, resetSeconds };
    }
    st.tokens--;
    return { allowed: true, limit, remaining: Math.max(0, limit - st.globalCount + st.tokens), resetSeconds };
  }

  /** Takes a batch from the shared counter; false when the window is used up. */
  async #reserve(operatorId: string, window: number, limit: number, st: OperatorWindow): Promise<boolean> {
    const key = `${operatorId}.${window}`;
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        const entry = await this.#kv.get(key);
        const count = entry && entry.operation === 'PUT' ? Number(entry.string()) : 0;
        if (count >= limit) {
          st.globalCount = count;
          return false;
        }
        const n = Math.min(batchSizeFor(limit), limit - count);
        if (entry && entry.operation === 'PUT') await this.#kv.update(key, String(count + n), entry.revision);
        else await this.#kv.create(key, String(count + n));
        st.tokens += n;
        st.globalCount = count + n;
        return true;
      } catch (err) {
        if (isKvWriteConflict(err)) continue;
        // The limiter fails open: an outage of NATS KV must not take the API down.
        this.#log.warn({ err }, 'rate limiter unavailable; allowing request');
        st.tokens += 1;
        return true;
      }
    }
    return false;
  }
}
