// Issuing credentials: keys identify, secrets sign. Both are random; secrets are shown once.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { CredentialStatus } from '@bo/contracts';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function base62(length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += BASE62[randomInt(62)];
  return s;
}

export function issueOperatorKey(environment: 'sandbox' | 'production'): string {
  return `bk_${environment === 'sandbox' ? 'test' : 'live'}_${base62(32)}`;
}
export function issueOperatorSecret(environment: 'sandbox' | 'production'): string {
  return `sk_${environment === 'sandbox' ? 'test' : 'live'}_${base62(48)}`;
}
/** whsec_ + base64 of 32 random bytes, so Standard Webhooks libraries can use it too. */
export function issueWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What a key is stored and looked up by: its SHA-256 (the gateway computes the same). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What is kept of a key to show it: its first 12 characters (`bk_test_AbCd`), never more. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, 12);
}

/**
 * A key is refused once revoked, and from its `expiresAt` on (the gateway's credential cache applies
 * the same rule at every lookup). Only `active` and `expiring` keys are accepted.
 */
export function credentialStatus(c: { revokedAt?: Date | null; expiresAt?: Date | null }, now: number): CredentialStatus {
  if (c.revokedAt) return 'revoked';
  if (!c.expiresAt) return 'active';
  return now >= c.expiresAt.getTime() ? 'expired' : 'expiring';
}
