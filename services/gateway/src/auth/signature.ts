// Verifying request signatures (contract "Authentication"); signing itself lives in contracts.
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { canonicalString } from '@bo/contracts';

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** Constant-time check of a hex signature (hex compared case-insensitively). */
export function verifyRequestSignature(key: KeyObject, method: string, rawPath: string, timestamp: string, body: Buffer | undefined, signature: string | undefined): boolean {
  if (!signature || !HEX64.test(signature)) return false;
  const expected = createHmac('sha256', key).update(canonicalString(method, rawPath, timestamp, body)).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** X-Timestamp: an integer of epoch seconds within ±300 s of now. */
export function timestampInRange(value: string | undefined, nowMs = Date.now()): boolean {
  if (!value || !/^-?\d{1,15}$/.test(value)) return false;
  return Math.abs(Number(value) - Math.floor(nowMs / 1000)) <= TIMESTAMP_TOLERANCE_SECONDS;
}
