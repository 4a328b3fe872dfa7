// The rules of a connector's keys (docs/connectors.md, "Keys"): what a key's state is at a time,
// which of ours signs, and what an uploaded public key must be. Plain functions: the store keeps
// the rows, the handlers draw the transactions.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { validationError, type ConnectorKey, type ConnectorKeyOwner, type ConnectorSecret, type Environment } from '@bo/contracts';

/** A key as its row keeps it (the private key, ours only, stays sealed and is never part of a view). */
export interface ConnectorKeyRow {
  id: string;
  environment: Environment;
  owner: ConnectorKeyOwner;
  publicKey: string;
  fingerprint: string;
  startsAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** RSA keys shorter than this are refused: Hub88's examples make 2048-bit pairs, so do we. */
export const MIN_RSA_BITS = 2048;

export function keyStatus(k: Pick<ConnectorKeyRow, 'startsAt' | 'expiresAt' | 'revokedAt'>, now: Date): ConnectorKey['status'] {
  if (k.revokedAt) return 'revoked';
  if (k.startsAt.getTime() > now.getTime()) return 'pending';
  if (k.expiresAt && k.expiresAt.getTime() <= now.getTime()) return 'expired';
  return k.expiresAt ? 'expiring' : 'active';
}

/** In force at `now`: verifying (theirs) or signing (ours). */
export const inForce = (k: Pick<ConnectorKeyRow, 'startsAt' | 'expiresAt' | 'revokedAt'>, now: Date) => {
  const s = keyStatus(k, now);
  return s === 'active' || s === 'expiring';
};

/** The one of our keys that signs at `now`: the latest started of those in force. */
export function signingKey<K extends Pick<ConnectorKeyRow, 'owner' | 'startsAt' | 'expiresAt' | 'revokedAt'>>(keys: readonly K[], now: Date): K | undefined {
  return keys.filter((k) => k.owner === 'ours' && inForce(k, now)).sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0];
}

/** SHA-256 of the public key's DER (SPKI), hex: the same key gives the same fingerprint whatever its PEM's form. */
export function fingerprintOf(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/**
 * An aggregator's public key as we keep it: SPKI PEM and its fingerprint. Refused (422 at
 * /publicKey) unless it is an RSA public key of at least MIN_RSA_BITS.
 */
export function acceptPublicKey(pem: string): { publicKey: string; fingerprint: string } {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw validationError('body', [{ path: '/publicKey', message: 'Must be a PEM public key (BEGIN PUBLIC KEY or BEGIN RSA PUBLIC KEY).' }]);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS) {
    throw validationError('body', [{ path: '/publicKey', message: `Must be an RSA public key of at least ${MIN_RSA_BITS} bits.` }]);
  }
  return { publicKey: String(key.export({ type: 'spki', format: 'pem' })), fingerprint: fingerprintOf(key) };
}

export function keyView(k: ConnectorKeyRow, now: Date): ConnectorKey {
  return {
    id: k.id,
    environment: k.environment,
    owner: k.owner,
    status: keyStatus(k, now),
    publicKey: k.publicKey,
    fingerprint: k.fingerprint,
    startsAt: k.startsAt.toISOString(),
    expiresAt: k.expiresAt ? k.expiresAt.toISOString() : null,
    revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
    createdAt: k.createdAt.toISOString(),
  };
}

/** A shared secret as its row keeps it (the value stays sealed and is never part of a view). */
export interface ConnectorSecretRow {
  id: string;
  environment: Environment;
  name: string;
  owner: ConnectorKeyOwner;
  fingerprint: string;
  startsAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** The first 16 hex digits of the secret's SHA-256: enough to tell two apart, too little to guess one from. */
export const secretFingerprintOf = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16);

export function secretView(k: ConnectorSecretRow, now: Date): ConnectorSecret {
  return {
    id: k.id,
    environment: k.environment,
    name: k.name,
    owner: k.owner,
    status: keyStatus(k, now),
    fingerprint: k.fingerprint,
    startsAt: k.startsAt.toISOString(),
    expiresAt: k.expiresAt ? k.expiresAt.toISOString() : null,
    revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
    createdAt: k.createdAt.toISOString(),
  };
}
