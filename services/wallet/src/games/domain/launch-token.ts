// The launch token in gameUrl is the player's only credential for the game page, so it is signed
// (HMAC-SHA256 under GAME_LAUNCH_SECRET), short-lived and carries nothing but the session id and
// its expiry: `v1.<sessionId>.<expEpochSeconds>.<base64url signature>`. URL-safe as it stands.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export interface LaunchTokenClaims {
  sessionId: string;
  expiresAt: Date;
}
export type VerifiedToken = { ok: true; claims: LaunchTokenClaims } | { ok: false; reason: 'invalid' | 'expired' };

const TOKEN_RE = /^v1\.(gs_[0-9a-f]{32})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface LaunchTokenSigner {
  sign(claims: LaunchTokenClaims): string;
  verify(token: string, now?: Date): VerifiedToken;
}

export function createLaunchTokenSigner(secret: string): LaunchTokenSigner {
  // Prepared once: createHmac with a KeyObject is several times cheaper than with a raw string.
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (body: string): Buffer => createHmac('sha256', key).update(body).digest();
  return {
    sign({ sessionId, expiresAt }) {
      const body = `v1.${sessionId}.${Math.floor(expiresAt.getTime() / 1000)}`;
      return `${body}.${mac(body).toString('base64url')}`;
    },
    verify(token, now = new Date()) {
      const m = TOKEN_RE.exec(token);
      if (!m) return { ok: false, reason: 'invalid' };
      const [, sessionId, exp, sig] = m as unknown as [string, string, string, string];
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(`v1.${sessionId}.${exp}`);
      // The signature is checked before the expiry, so a forged token never learns "expired".
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
      const expiresAt = new Date(Number(exp) * 1000);
      if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, claims: { sessionId, expiresAt } };
    },
  };
}
