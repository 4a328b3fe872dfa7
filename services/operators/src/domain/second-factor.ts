// The console's optional second factor: TOTP (RFC 6238, 6 digits, 30 s, through otpauth). A code is
// accepted one step either side of the server's clock, and each time step once (no replay).
import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Back-office console';
const PERIOD_SECONDS = 30;

const totpOf = (secretBase32: string, email: string) =>
  new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });

/** A fresh secret (base32, for typing in) and its otpauth:// URI (for an authenticator app). */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, email).toString() };
}

/** The time step the code belongs to, or undefined when it matches none of the allowed steps. */
export function totpStep(secretBase32: string, email: string, code: string, now = Date.now()): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const delta = totpOf(secretBase32, email).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
