// The requests each scenario sends, signed the way an operator's server signs them. Built for
// autocannon's setupRequest hook, which runs once per request on the load generator.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { signRequest } from '@bo/contracts';
import type { AutocannonRequest } from 'autocannon';

export interface Credentials {
  key: string;
  secret: string;
}

export const API_PREFIX = '/api/v1';

const nowSeconds = (): string => String(Math.floor(Date.now() / 1000));

/** A CPF with real check digits, derived from a counter (never all-equal digits). */
export function cpfFor(n: number): string {
  const base = String(100_000_000 + (n % 800_000_000))
    .padStart(9, '0')
    .split('')
    .map(Number);
  const digit = (ds: number[]): number => {
    const sum = ds.reduce((acc, d, i) => acc + d * (ds.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = digit(base);
  const d2 = digit([...base, d1]);
  return [...base, d1, d2].join('');
}

/**
 * GET /api/v1/me, signed. The signature covers only method, path, timestamp and an empty body,
 * so it is recomputed once per second rather than per request: the gateway still verifies every
 * request, and the load generator spends its CPU on sending.
 */
export function meRequest(creds: Credentials): AutocannonRequest {
  const secret: KeyObject = createSecretKey(Buffer.from(creds.secret, 'utf8'));
  const path = `${API_PREFIX}/me`;
  let ts = '';
  let headers: Record<string, string> = {};
  return {
    method: 'GET',
    path,
    setupRequest(req) {
      const now = nowSeconds();
      if (now !== ts) {
        ts = now;
        headers = { 'x-operator-key': creds.key, 'x-timestamp': ts, 'x-signature': signRequest(secret, 'GET', path, ts) };
      }
      return { ...req, headers: { ...req.headers, ...headers } };
    },
  };
}

/**
 * POST /api/v1/players with a fresh externalId, Idempotency-Key, timestamp and signature per
 * request: every request is a new player, through NATS, the players service and Postgres.
 * `runId` keeps identifiers unique across benchmark invocations on the same database.
 */
export function createPlayerRequest(creds: Credentials, runId: string, counter: { n: number }, cpfBase = 0, withLimits = false): AutocannonRequest {
  const secret = createSecretKey(Buffer.from(creds.secret, 'utf8'));
  const path = `${API_PREFIX}/players`;
  return {
    method: 'POST',
    path,
    setupRequest(req) {
      const n = counter.n++;
      const id = `${runId}-${n}`;
      const body = JSON.stringify({
        externalId: `bench-${id}`,
        name: `Bench Player ${n}`,
        email: `bench-${id}@example.com`,
        cpf: cpfFor(cpfBase + n),
        birthDate: '1990-05-17',
        ...(withLimits
          ? {
              phone: '+5511987654321',
              gender: 'feminino',
              signupIp: '198.51.100.7',
              address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
              limits: [
                { type: 'loss', period: 'day', value: '100000.00' },
                { type: 'time', period: 'day', value: 1440 },
              ],
            }
          : {}),
      });
      const ts = nowSeconds();
      return {
        ...req,
        body,
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'idempotency-key': `bench-${id}`,
          'x-operator-key': creds.key,
          'x-timestamp': ts,
          'x-signature': signRequest(secret, 'POST', path, ts, body),
        },
      };
    },
  };
}
