// Binds a signed change to its Idempotency-Key (docs/decisions.md, "Authentication"). The
// signature covers method, path, timestamp and body but not the key, so a captured request could
// be sent again inside its timestamp window with a new key, and be a new request each time. The
// first use of a signature records which key it came with (or that it came without one) in a
// NATS KV bucket shared by every gateway replica; the same signature with another key, or
// without the key it came with, is 401 SIGNATURE_REUSED (a keyless first use takes the first key
// that follows). The same signature with the same key (a retry of the same
// bytes) passes, and the idempotency layers answer it. Entries outlive the window in which a
// timestamp is accepted, so a signature cannot come back once its binding is forgotten.
import { createHash } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';
import { AppError, TIMESTAMP_TOLERANCE_SECONDS } from '@bo/contracts';
import { ensureStreamReplicas, type Logger } from '@bo/service-kit/edge';
import { isKvWriteConflict, kvUnavailable } from '../nats-kv.ts';

/**
 * A timestamp is accepted from 300 s before to 300 s after the server clock, so a signature can
 * be presented for 600 s; five more minutes cover clocks that differ between replicas.
 */
export const SIGNATURE_BINDING_SECONDS = 3 * TIMESTAMP_TOLERANCE_SECONDS;

/** What a signature was sent without an Idempotency-Key is bound to. */
const NO_KEY = 'none';

export class SignatureBindings {
  readonly #kv: KV;
  readonly #log: Logger;

  private constructor(kv: KV, log: Logger) {
    this.#kv = kv;
    this.#log = log;
  }

  static async open(nc: NatsConnection, prefix: string, log: Logger, replicas: number): Promise<SignatureBindings> {
    const kv = await new Kvm(nc).create(`${prefix}_signatures`, { history: 1, ttl: SIGNATURE_BINDING_SECONDS * 1000, replicas });
    await ensureStreamReplicas(nc, `KV_${prefix}_signatures`, replicas);
    return new SignatureBindings(kv, log);
  }

  /**
   * Binds the signature (of the credential whose key hashes to `keyHash`) to `boundTo` (the key
   * claim's id, or undefined for a request without a key). Throws 401 SIGNATURE_REUSED when it
   * is bound to something else, 503 SERVICE_UNAVAILABLE when NATS KV cannot answer.
   */
  async bind(keyHash: string, signature: string, boundTo: string | undefined): Promise<void> {
    const id = createHash('sha256').update(`${keyHash}\n${signature.toLowerCase()}`).digest('hex');
    const value = boundTo ?? NO_KEY;
    try {
      await this.#kv.put(id, value, { previousSeq: 0 });
      return;
    } catch (err) {
      if (!isKvWriteConflict(err)) throw kvUnavailable(this.#log, err, 'signature bindings');
    }
    let bound: string | undefined;
    try {
      // Entries are never deleted, only expired: one that exists is the signature's first use.
      const entry = await this.#kv.get(id);
      if (entry?.operation !== 'PUT') return;
      bound = entry.string();
      // First sent without a key, now with one: the key is bound from here on (adding a key to a
      // keyless request gains nothing the keyless replay would not; another key after this one
      // is refused). Two languages' snippets, or two operator processes, sending the same
      // keyless signed bytes in one second stay fine.
      if (bound === NO_KEY && boundTo !== undefined) {
        try {
          await this.#kv.put(id, value, { previousSeq: entry.revision });
          return;
        } catch (err) {
          if (!isKvWriteConflict(err)) throw err;
          bound = (await this.#kv.get(id))?.string();
        }
      }
    } catch (err) {
      throw kvUnavailable(this.#log, err, 'signature bindings');
    }
    if (bound !== value) throw new AppError('SIGNATURE_REUSED', undefined, undefined, { 'retry-after': '1' });
  }
}
