// Constant-time comparison of secrets (tokens, MACs, CSRF tokens), for every process: the kit, the
// gateway's admin guard and the console (which need no service-kit for it).
import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison of two strings (lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
