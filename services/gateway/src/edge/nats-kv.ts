// What the edge's NATS KV buckets (rate limit, key claims, signature bindings) share: telling a
// lost compare-and-set from an outage, and answering an outage.
import type { AppError } from '@bo/contracts';
import type { Logger } from '@bo/service-kit/edge';
import { dependencyUnavailable } from '@bo/service-kit/edge';

/** A write refused because the entry is not at the revision it expected (someone else wrote first). */
export function isKvWriteConflict(err: unknown): boolean {
  const e = err as { code?: number; api_error?: { err_code?: number }; message?: string };
  return e?.code === 10071 || e?.code === 10164 || e?.api_error?.err_code === 10071 || /wrong last sequence|key exists/i.test(String(e?.message));
}

/** NATS KV did not answer (down, timed out, bucket gone): 503 with Retry-After, the cause logged, never sent. */
export function kvUnavailable(log: Logger, err: unknown, what: string): AppError {
  log.warn({ err }, `${what} unavailable; request refused with 503`);
  return dependencyUnavailable();
}
