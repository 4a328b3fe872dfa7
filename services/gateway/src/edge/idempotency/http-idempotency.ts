// The HTTP side of idempotency, one place for the public API and the admin API: read and check
// the Idempotency-Key, claim it (replay, conflict, in progress), keep the claim's lease alive
// while the request runs, and store the answer (2xx/4xx) or release the key (5xx) on the way out.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@bo/contracts';
import { IDEMPOTENCY_KEY_FORMAT, fingerprint, type IdempotencyStore } from './idempotency-store.ts';

const stopLease = new WeakMap<FastifyRequest, () => void>();

/**
 * Claims the request's key for `owner` (an operator's environment, or the admin API). `required`:
 * a missing key is 400 IDEMPOTENCY_KEY_REQUIRED; otherwise a request without one runs as is.
 * Returns the reply when it was answered here (a replay).
 */
export async function claimIdempotencyKey(
  req: FastifyRequest,
  reply: FastifyReply,
  store: IdempotencyStore,
  owner: { operatorId: string; environment: string },
  required: boolean,
  count?: (outcome: string) => void,
): Promise<FastifyReply | undefined> {
  const raw = req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    if (required) throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
    return undefined;
  }
  if (!IDEMPOTENCY_KEY_FORMAT.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 8 to 128 characters of letters, digits, _ - : .', {
      in: 'header',
      issues: [{ path: '/Idempotency-Key', message: 'Must be 8 to 128 characters of letters, digits, _ - : .' }],
    });
  }
  const scope = { ...owner, key };
  const claim = await store.claim(scope, fingerprint(req.method, req.raw.url ?? req.url, req.rawBody));
  count?.(claim.kind);
  if (claim.kind === 'conflict') throw new AppError('IDEMPOTENCY_CONFLICT');
  if (claim.kind === 'in_progress') throw new AppError('IDEMPOTENCY_IN_PROGRESS', undefined, undefined, { 'retry-after': '1' });
  if (claim.kind === 'replay') {
    return reply
      .code(claim.response.status)
      .headers(claim.response.headers)
      .header('idempotent-replayed', 'true')
      .type('application/json')
      .send(claim.response.body);
  }
  req.idempotency = scope;
  stopLease.set(
    req,
    store.keepAlive(scope, (err) => req.log.warn({ err, requestId: req.id }, 'idempotency lease renewal failed')),
  );
  return undefined;
}

/**
 * onSend: store 2xx/4xx answers of a claimed key; a 5xx releases it for a retry. If the store
 * cannot be written (database down), the caller still gets the real answer: the key stays
 * claimed until its lease lapses, and a retry then reaches the service, which dedupes.
 */
export function idempotencyRecorder(store: IdempotencyStore) {
  return async function record(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const scope = req.idempotency;
    if (!scope) return payload;
    req.idempotency = undefined;
    stopLease.get(req)?.();
    stopLease.delete(req);
    try {
      if (reply.statusCode >= 500) {
        await store.release(scope);
      } else {
        const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : JSON.stringify(payload ?? null);
        const headers: Record<string, string> = {};
        const ct = reply.getHeader('content-type');
        if (typeof ct === 'string') headers['content-type'] = ct;
        await store.complete(scope, { status: reply.statusCode, headers, body });
      }
    } catch (err) {
      req.log.error({ err, requestId: req.id }, 'could not record the idempotent answer; the key is released when its lease lapses');
    }
    return payload;
  };
}

/** onResponse: a request that ended without onSend (aborted) must not renew its lease forever. */
export function stopIdempotencyLease(req: FastifyRequest): void {
  stopLease.get(req)?.();
  stopLease.delete(req);
}
