// Secrets at rest (operator secrets, webhook secrets) are sealed with AES-256-GCM under a key
// derived from SECRETS_MASTER_KEY. The stored form is `v1.<iv>.<tag>.<ciphertext>` (base64url).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const DEV_MASTER_KEY = 'dev-only-master-key-change-me-in-production';

function keyFrom(master: string): Buffer {
  return createHash('sha256').update(`bo-secrets:${master}`).digest();
}

export function sealSecret(plain: string, master: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(master), iv);
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), enc.toString('base64url')].join('.');
}

export function openSecret(sealed: string, master: string): string {
  const [v, iv, tag, enc] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || enc === undefined) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(master), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(enc, 'base64url')), decipher.final()]).toString('utf8');
}
