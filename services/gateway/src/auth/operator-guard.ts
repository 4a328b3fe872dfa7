// Everything that happens to an operator request before validation, in the order decisions.md
// fixes: credentials → timestamp → signature → suspended → caller IP → rate limit →
// SANDBOX_ONLY → idempotency → (JSON body parse, then schema validation by Fastify).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@bo/contracts';
import type { CredentialCache } from './credential-cache.ts';
import { timestampInRange, verifyRequestSignature } from './signature.ts';
import type { SharedRateLimiter } from '../rate-limit/shared-rate-limiter.ts';
import { IDEMPOTENCY_KEY_FORMAT, fingerprint, type IdempotencyStore } from '../idempotency/idempotency-store.ts';
import { parseJsonObject } from '../http/raw-body.ts';

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export interface GuardDeps { credentials: CredentialCache; limiter: SharedRateLimiter; idempotency: IdempotencyStore }

export function operatorGuard(deps: GuardDeps) {
  return async function guard(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const op = req.routeOptions.config.op;
    if (!op) return undefined;

    const cred = await deps.credentials.lookup(header(req, 'x-operator-key'));
    if (!cred) throw new AppError('INVALID_CREDENTIALS');
    const ts = header(req, 'x-timestamp');
    if (!timestampInRange(ts)) throw new AppError('TIMESTAMP_OUT_OF_RANGE');
    if (!verifyRequestSignature(cred.key, req.method, req.raw.url ?? req.url, ts!, req.rawBody, header(req, 'x-signature'))) {
      throw new AppError('INVALID_SIGNATURE');
    }
    if (cred.operatorStatus !== 'active') throw new AppError('OPERATOR_SUSPENDED');
    if (!cred.isAllowedIp(req.ip)) throw new AppError('FORBIDDEN_IP');

    const rate = await deps.limiter.take(cred.operatorId, cred.rateLimitPerMinute);
    reply.header('ratelimit-limit', String(rate.limit));
    reply.header('ratelimit-remaining', String(rate.remaining));
    reply.header('ratelimit-reset', String(rate.resetSeconds));
    if (!rate.allowed) throw new AppError('RATE_LIMITED', undefined, undefined, { 'retry-after': String(rate.resetSeconds) });
    req.credential = cred;

    if (op.sandboxOnly && cred.environment !== 'sandbox') throw new AppError('SANDBOX_ONLY');

    if (op.idempotent) {
      const key = header(req, 'idempotency-key');
      if (key === undefined || key === '') throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
      if (!IDEMPOTENCY_KEY_FORMAT.test(key)) {
        throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 8 to 128 characters of letters, digits, _ - : .', {
          in: 'header', issues: [{ path: '/Idempotency-Key', message: 'Must be 8 to 128 characters of letters, digits, _ - : .' }],
        });
      }
      const scope = { operatorId: cred.operatorId, environment: cred.environment, key };
      const claim = await deps.idempotency.claim(scope, fingerprint(req.method, req.raw.url ?? req.url, req.rawBody));
      if (claim.kind === 'conflict') throw new AppError('IDEMPOTENCY_CONFLICT');
      if (claim.kind === 'in_progress') throw new AppError('IDEMPOTENCY_IN_PROGRESS', undefined, undefined, { 'retry-after': '1' });
      if (claim.kind === 'replay') {
        return reply.code(claim.response.status).headers(claim.response.headers).header('idempotent-replayed', 'true')
          .type('application/json').send(claim.response.body);
      }
      req.idempotency = scope;
    }

    if (op.body) req.body = parseJsonObject(req.rawBody);
    return undefined;
  };
}

/** onSend: store 2xx/4xx responses of a claimed key; a 5xx releases it for a retry. */
export function idempotencyRecorder(store: IdempotencyStore) {
  return async function record(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const scope = req.idempotency;
    if (!scope) return payload;
    req.idempotency = undefined;
    if (reply.statusCode >= 500) {
      await store.release(scope);
    } else {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : JSON.stringify(payload ?? null);
      const headers: Record<string, string> = {};
      const ct = reply.getHeader('content-type');
      if (typeof ct === 'string') headers['content-type'] = ct;
      await store.complete(scope, { status: reply.statusCode, headers, body });
    }
    return payload;
  };
}
