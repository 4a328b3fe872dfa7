// A provider session token: opaque, random, and kept only as its SHA-256 (a database read never
// yields a usable token). It is bound by its row to player, brand, environment, game, currency,
// provider and expiry (docs/providers.md, "Launch").
import { createHash, randomBytes } from 'node:crypto';
import { BR_SPA_SESSION_IDLE_SECONDS } from '@bo/contracts';

export function issueSessionToken(): string {
  return `pst_${randomBytes(32).toString('base64url')}`;
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A provider session's inactivity window (issue #59 item 4; docs/providers.md, "Sessions end on
 * inactivity"): under br-spa 30 minutes without play end it (Portaria SPA/MF 1.207/2024), or the
 * deployment's session lifetime when that is shorter; otherwise the deployment's lifetime.
 */
export function sessionIdleSeconds(profile: string | undefined, ttlSeconds: number): number {
  return profile === 'br-spa' ? Math.min(ttlSeconds, BR_SPA_SESSION_IDLE_SECONDS) : ttlSeconds;
}
