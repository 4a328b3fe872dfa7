// The edge's key claim (docs/decisions.md, "Idempotency"): the first request to use an
// Idempotency-Key binds the key to its fingerprint (method, raw path, body digest) in a NATS KV
// bucket shared by every gateway replica, whichever service then keeps the key's answer (the one
// that owns the operation). The same key with another fingerprint is 409
// IDEMPOTENCY_CONFLICT, across operations and services; the same fingerprint goes on to the layer
// that answers replays and in-progress. Entries live as long as keys are remembered
// (IDEMPOTENCY_TTL_SECONDS, the bucket's max age). A 5xx does not remove the claim: the contract's
// release is for a retry of the same request, which the claim lets through, while a timed-out
// request may have had its effect, so its key must not go to another request.
import { createHash } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';
import { ensureStreamReplicas, type Logger } from '@bo/service-kit/edge';
import type { IdemScope } from './keys-in-flight.ts';
import { isKvWriteConflict, kvUnavailable } from '../nats-kv.ts';

export type KeyClaim = 'claimed' | 'same' | 'conflict';

/** The claim's entry key: a digest of the key's scope and the key (KV keys allow few characters). */
export function claimId(scope: IdemScope): string {
  return createHash('sha256').update(`${scope.operatorId}\n${scope.environment}\n${scope.key}`).digest('hex');
}

export class KeyClaims {
  readonly #kv: KV;
  readonly #log: Logger;

  private constructor(kv: KV, log: Logger) {
    this.#kv = kv;
    this.#log = log;
  }

  static async open(nc: NatsConnection, prefix: string, ttlSeconds: number, log: Logger, replicas: number): Promise<KeyClaims> {
    const kv = await new Kvm(nc).create(`${prefix}_idempotency_keys`, { history: 1, ttl: ttlSeconds * 1000, replicas });
    await ensureStreamReplicas(nc, `KV_${prefix}_idempotency_keys`, replicas);
    return new KeyClaims(kv, log);
  }

  /**
   * Claims the key for this fingerprint, or says whose it is. Throws 503 SERVICE_UNAVAILABLE when
   * NATS KV cannot answer: a keyed request is never let through unchecked.
   */
  async claim(scope: IdemScope, fingerprint: string): Promise<KeyClaim> {
    const id = claimId(scope);
    try {
      // Created only if the key has no entry (previousSeq 0), atomically across replicas. Entries
      // are not deleted, they expire; one removed by hand leaves a marker, claimed over its revision.
      let expected = 0;
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await this.#kv.put(id, fingerprint, { previousSeq: expected });
          return 'claimed';
        } catch (err) {
          if (!isKvWriteConflict(err)) throw err;
        }
        const entry = await this.#kv.get(id);
        if (entry?.operation === 'PUT') return entry.string() === fingerprint ? 'same' : 'conflict';
        expected = entry?.revision ?? 0;
      }
      throw new Error('the key claim kept changing under us');
    } catch (err) {
      throw kvUnavailable(this.#log, err, 'idempotency key claims');
    }
  }
}
