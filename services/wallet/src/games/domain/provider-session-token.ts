// A provider session token: opaque, random, and kept only as its SHA-256 (a database read never
// yields a usable token). It is bound by its row to player, brand, environment, game, currency,
// provider and expiry (docs/providers.md, "Launch").
import { createHash, randomBytes } from 'node:crypto';

export function issueSessionToken(): string {
  return `pst_${randomBytes(32).toString('base64url')}`;
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
