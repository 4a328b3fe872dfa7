// Game providers' keys (`pk_test_…` / `pk_live_…`), cached in memory per replica like operators'
// (credential-cache.ts): a miss asks the wallet, which owns providers (docs/providers.md). Our
// team's change of a provider (disabled, a key revoked or rotated at once) is broadcast by the
// wallet and drops the provider's entries on every replica; the TTL is the fallback. A key's end
// is checked at every lookup, cached or not.
import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { PROVIDER_KEY_FORMAT, providerInvalidateSubject, type Environment, type ProviderCredentialRecord } from '@bo/contracts';
import { openSecret } from '@bo/service-kit/edge';
import { compileAllowList } from '@bo/http-kit';

export interface ProviderCredential {
  providerId: string;
  providerName: string;
  environment: Environment;
  isAllowedIp: (address: string) => boolean;
  key: KeyObject;
  expiresAt: number | null;
}

interface Entry {
  value: ProviderCredential | undefined;
  loadedAt: number;
}

export type ProviderCredentialLoader = (keyHash: string) => Promise<ProviderCredentialRecord | null>;

export class ProviderCredentials {
  readonly #load: ProviderCredentialLoader;
  readonly #masterKey: string;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  #generation = 0;
  #sub?: Subscription;

  constructor(load: ProviderCredentialLoader, masterKey: string, ttlMs: number, now: () => number = Date.now) {
    this.#load = load;
    this.#masterKey = masterKey;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  listen(nc: NatsConnection, prefix: string): void {
    this.#sub = nc.subscribe(providerInvalidateSubject(prefix), {
      callback: (_err, msg) => {
        const { providerId } = msg.json<{ providerId: string }>();
        this.#generation++;
        for (const [k, e] of this.#entries) if (e.value === undefined || e.value.providerId === providerId) this.#entries.delete(k);
      },
    });
  }

  stop(): void {
    this.#sub?.unsubscribe();
  }

  /** The key's credential, or undefined when malformed, unknown, revoked, past its end or of the other environment. */
  async lookup(key: string | undefined): Promise<ProviderCredential | undefined> {
    if (!key || !PROVIDER_KEY_FORMAT.test(key)) return undefined;
    const keyHash = createHash('sha256').update(key).digest('hex');
    const now = this.#now();
    let entry = this.#entries.get(keyHash);
    if (!entry || now - entry.loadedAt >= this.#ttlMs) {
      const generation = this.#generation;
      const record = await this.#load(keyHash);
      const environment: Environment = key.startsWith('pk_test_') ? 'sandbox' : 'production';
      entry = { value: record && record.environment === environment ? this.#toCredential(record) : undefined, loadedAt: this.#now() };
      // A load in flight across an invalidation answers its own request but is not kept.
      if (generation === this.#generation) {
        if (this.#entries.size > 10_000) this.#entries.clear();
        this.#entries.set(keyHash, entry);
      }
    }
    const v = entry.value;
    return v && (v.expiresAt === null || this.#now() < v.expiresAt) ? v : undefined;
  }

  #toCredential(r: ProviderCredentialRecord): ProviderCredential {
    return {
      providerId: r.providerId,
      providerName: r.providerName,
      environment: r.environment,
      isAllowedIp: compileAllowList(r.allowedIps),
      key: createSecretKey(Buffer.from(openSecret(r.secretSealed, this.#masterKey), 'utf8')),
      expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt).getTime(),
    };
  }
}
