// The edge's part of idempotency besides the key claim (key-claims.ts): the key's format, the
// request's fingerprint, and the keys whose request is running on this replica. The answers are
// kept by the service that owns the operation (the kit's idempotency/): the gateway writes no
// database row for a key.
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_KEY_FORMAT = /^[A-Za-z0-9_\-:.]{8,128}$/;

export interface IdemScope {
  operatorId: string;
  environment: string;
  key: string;
}

/** A key this request holds: its scope, the request's fingerprint, and the service that keeps the key's answer (the first word of the subject). */
export interface ClaimedKey extends IdemScope {
  fingerprint: string;
  keptBy: string;
}

export function fingerprint(method: string, rawPath: string, body: Buffer | undefined): string {
  const h = createHash('sha256');
  h.update(`${method.toUpperCase()}\n${rawPath}\n`);
  if (body) h.update(body);
  return h.digest('hex');
}

const HOLD_MAX_MS = 60_000;
const heldKey = (scope: IdemScope) => `${scope.operatorId}\n${scope.environment}\n${scope.key}`;

/**
 * Keys held while their request runs on this replica (key → since when): a copy on the same
 * replica is told at once that the first is running, without asking the service. A copy on
 * another replica reaches the service, whose claim on the key answers it. A hold older than
 * HOLD_MAX_MS is taken over, so a request that never reached onSend/onResponse (its client went
 * away) cannot block its key for good; the service still answers the copy rightly.
 */
export class KeysInFlight {
  readonly #held = new Map<string, number>();

  /** False when a request with the key is running here already. */
  hold(scope: IdemScope): boolean {
    const k = heldKey(scope);
    const since = this.#held.get(k);
    const now = Date.now();
    if (since !== undefined && now - since < HOLD_MAX_MS) return false;
    this.#held.set(k, now);
    return true;
  }

  release(scope: IdemScope): void {
    this.#held.delete(heldKey(scope));
  }
}
