// Credentials and operator state, cached in memory per replica: a request whose key is cached asks
// neither NATS nor the database. A miss asks the operators service (which owns them) once. A change
// made through the admin API is broadcast on core NATS by the operators service and drops the
// operator's entries on every replica at once; the short TTL is the fallback if a broadcast is missed. A key's end (set by a rotation) is checked at
// every lookup, cached or not, so a key stops at its `expiresAt` without waiting for a re-read.
import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { gatewayInvalidateSubject, type CredentialRecord, type Environment, type OperatorChanged } from '@bo/contracts';
import { openSecret } from '@bo/service-kit/edge';
import { compileAllowList } from '@bo/http-kit';

export interface CachedCredential {
  operatorId: string;
  operatorName: string;
  operatorStatus: 'active' | 'suspended';
  environment: Environment;
  brand: { id: string; name: string; currency: string };
  rateLimitPerMinute: number;
  isAllowedIp: (address: string) => boolean;
  key: KeyObject;
  /** Epoch ms from which the key is refused (a rotation set it); null: no end. */
  expiresAt: number | null;
  /** SHA-256 of the operator key (`bk_…`): the credential's id, never the key itself. */
  keyHash: string;
}

const KEY_FORMAT = /^bk_(test|live)_[A-Za-z0-9]{16,64}$/;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The credential if its key is still in force at `now` (the operators service's rule: refused from `expiresAt` on). */
function inForce(value: CachedCredential | undefined, now: number): CachedCredential | undefined {
  return value && (value.expiresAt === null || now < value.expiresAt) ? value : undefined;
}

interface Entry {
  value: CachedCredential | undefined;
  loadedAt: number;
  operatorId?: string;
}

/** The operators service's record of a key, by the key's SHA-256; null when unknown or revoked. */
export type CredentialLoader = (keyHash: string) => Promise<CredentialRecord | null>;

export class CredentialCache {
  readonly #loadRecord: CredentialLoader;
  readonly #masterKey: string;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  // Bumped by every invalidation: a load that was in flight across one must not be cached,
  // or it would put back the state from before the change.
  #generation = 0;
  #sub?: Subscription;

  /** `now`: the clock of the key rules (epoch ms), the gateway's one; tests move it. */
  constructor(load: CredentialLoader, masterKey: string, ttlMs: number, now: () => number = Date.now) {
    this.#loadRecord = load;
    this.#masterKey = masterKey;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  listen(nc: NatsConnection, prefix: string): void {
    this.#sub = nc.subscribe(gatewayInvalidateSubject(prefix), {
      callback: (_err, msg) => {
        const { operatorId } = msg.json<OperatorChanged>();
        this.invalidateOperator(operatorId);
      },
    });
  }

  stop(): void {
    this.#sub?.unsubscribe();
  }

  invalidateOperator(operatorId: string): void {
    this.#generation++;
    for (const [k, e] of this.#entries) if (e.operatorId === operatorId || e.value === undefined) this.#entries.delete(k);
  }

  /** The credential for a key, or undefined when the key is malformed, unknown, revoked or past its end. */
  async lookup(key: string | undefined): Promise<CachedCredential | undefined> {
    if (!key || !KEY_FORMAT.test(key)) return undefined;
    const keyHash = hashKey(key);
    const cached = this.#entries.get(keyHash);
    const now = this.#now();
    if (cached && now - cached.loadedAt < this.#ttlMs) return inForce(cached.value, now);
    const generation = this.#generation;
    const value = await this.#load(keyHash, key.startsWith('bk_test_') ? 'sandbox' : 'production');
    const loadedAt = this.#now();
    // A load that was in flight across an invalidation answers its own request but is not cached.
    if (generation === this.#generation) {
      if (this.#entries.size > 100_000) this.#entries.clear();
      this.#entries.set(keyHash, { value, loadedAt, operatorId: value?.operatorId });
    }
    return inForce(value, loadedAt);
  }

  async #load(keyHash: string, environment: Environment): Promise<CachedCredential | undefined> {
    const r = await this.#loadRecord(keyHash);
    // A bk_test_ key must belong to a sandbox credential and bk_live_ to production.
    if (!r || r.environment !== environment) return undefined;
    return {
      operatorId: r.operatorId,
      operatorName: r.operatorName,
      operatorStatus: r.operatorStatus,
      environment: r.environment,
      brand: r.brand,
      rateLimitPerMinute: r.rateLimitPerMinute,
      isAllowedIp: compileAllowList(r.allowedIps),
      key: createSecretKey(Buffer.from(openSecret(r.secretSealed, this.#masterKey), 'utf8')),
      expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt).getTime(),
      keyHash,
    };
  }
}
