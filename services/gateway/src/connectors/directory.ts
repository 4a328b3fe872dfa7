// A provider's connector as a gateway replica keeps it (connector.ts): asked of the wallet, which
// owns providers, on a miss; kept until our team changes the provider (the wallet's broadcast, the
// one that drops its /provider/v1 keys) or the cache's TTL ends. Their public keys are prepared
// once here (KeyObjects): a call's verification then costs the RSA operation only; their shared
// secrets (Evolution's API token) are opened once here. A key's or secret's end (a rotation's
// overlap) is checked at every call.
import type { KeyObject } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { hub88PublicKey, providerInvalidateSubject, safeEqual, type ConnectorRecord, type Environment } from '@bo/contracts';
import { compileAllowList } from '@bo/http-kit';
import { openSecret } from '@bo/service-kit/edge';

export interface ConnectorEntry {
  record: ConnectorRecord;
  isAllowedIp: (address: string) => boolean;
  theirKeys: Array<{ key: KeyObject; expiresAt: number | null }>;
  /** Their shared secrets opened (Evolution's authToken), by name. */
  theirSecrets: Array<{ name: string; value: string; expiresAt: number | null }>;
}

export type ConnectorLoader = (providerId: string, environment: Environment) => Promise<ConnectorRecord | null>;

interface Entry {
  value: ConnectorEntry | undefined;
  loadedAt: number;
}

export class ConnectorDirectory {
  readonly #load: ConnectorLoader;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  #generation = 0;
  #sub?: Subscription;

  readonly #masterKey: string;

  constructor(load: ConnectorLoader, ttlMs: number, now: () => number = Date.now, masterKey = '') {
    this.#load = load;
    this.#ttlMs = ttlMs;
    this.#now = now;
    this.#masterKey = masterKey;
  }

  listen(nc: NatsConnection, prefix: string): void {
    this.#sub = nc.subscribe(providerInvalidateSubject(prefix), {
      callback: (_err, msg) => {
        const { providerId } = msg.json<{ providerId: string }>();
        this.#generation++;
        for (const k of this.#entries.keys()) if (k.startsWith(`${providerId} `)) this.#entries.delete(k);
      },
    });
  }

  stop(): void {
    this.#sub?.unsubscribe();
  }

  /** The provider's connector for the environment; undefined for an unknown provider. */
  async get(providerId: string, environment: Environment): Promise<ConnectorEntry | undefined> {
    const key = `${providerId} ${environment}`;
    let entry = this.#entries.get(key);
    if (!entry || this.#now() - entry.loadedAt >= this.#ttlMs) {
      const generation = this.#generation;
      const record = await this.#load(providerId, environment);
      entry = { value: record ? prepared(record, this.#masterKey) : undefined, loadedAt: this.#now() };
      // A load in flight across an invalidation answers its own call but is not kept.
      if (generation === this.#generation) {
        if (this.#entries.size > 10_000) this.#entries.clear();
        this.#entries.set(key, entry);
      }
    }
    return entry.value;
  }

  /** Their keys verifying now (a rotated one until its overlap ends). */
  keysInForce(entry: ConnectorEntry): KeyObject[] {
    const now = this.#now();
    return entry.theirKeys.filter((k) => k.expiresAt === null || now < k.expiresAt).map((k) => k.key);
  }

  /** Their secrets named `name` in force now (Betsy's partnerSecret: the key its signatures are checked with). */
  secretsInForce(entry: ConnectorEntry, name: string): string[] {
    const now = this.#now();
    return entry.theirSecrets.filter((s) => s.name === name && (s.expiresAt === null || now < s.expiresAt)).map((s) => s.value);
  }

  /** True when `given` is one of their secrets named `name` in force (compared in constant time). */
  secretMatches(entry: ConnectorEntry, name: string, given: string | undefined): boolean {
    if (!given) return false;
    const now = this.#now();
    return entry.theirSecrets.some((s) => s.name === name && (s.expiresAt === null || now < s.expiresAt) && safeEqual(s.value, given));
  }
}

function prepared(record: ConnectorRecord, masterKey: string): ConnectorEntry {
  return {
    record,
    isAllowedIp: compileAllowList(record.allowedIps),
    // A key the wallet accepted parses; one that would not is left out rather than failing every call.
    theirKeys: record.theirKeys.flatMap((k) => {
      try {
        return [{ key: hub88PublicKey(k.publicKey), expiresAt: k.expiresAt === null ? null : new Date(k.expiresAt).getTime() }];
      } catch {
        return [];
      }
    }),
    // A secret that does not open (another master key) is left out the same way.
    theirSecrets: (record.theirSecrets ?? []).flatMap((k) => {
      try {
        return [{ name: k.name, value: openSecret(k.sealed, masterKey), expiresAt: k.expiresAt === null ? null : new Date(k.expiresAt).getTime() }];
      } catch {
        return [];
      }
    }),
  };
}
