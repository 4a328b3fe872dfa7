// Everything that happens to an operator request before validation, in the order docs/decisions.md
// fixes: credentials → timestamp → signature → suspended → caller IP → rate limit →
// SANDBOX_ONLY → idempotency, with the signature's binding to the key → (JSON body parse, then
// schema validation by Fastify).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, SIGNATURE_VERSIONS, timestampInRange, verifyRequestSignature } from '@bo/contracts';
import type { CredentialCache } from './credential-cache.ts';
import type { SharedRateLimiter } from '../rate-limit/shared-rate-limiter.ts';
import type { Metrics } from '../http/observability.ts';
import type { SignatureBindings } from './signature-binding.ts';
import { claimId } from '../idempotency/key-claims.ts';
import { claimIdempotencyKey, idempotencyKeyOf, type EdgeIdempotency } from '../idempotency/http-idempotency.ts';
import { jsonObjectBody } from '@bo/http-kit';

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export interface GuardDeps {
  credentials: CredentialCache;
  limiter: SharedRateLimiter;
  idempotency: EdgeIdempotency;
  signatures: SignatureBindings;
  metrics: Metrics;
}

export function operatorGuard(deps: GuardDeps) {
  return async function guard(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const op = req.routeOptions.config.op;
    if (!op) return undefined;

    const cred = await deps.credentials.lookup(header(req, 'x-operator-key'));
    if (!cred) throw new AppError('INVALID_CREDENTIALS');
    const ts = header(req, 'x-timestamp');
    if (!timestampInRange(ts)) throw new AppError('TIMESTAMP_OUT_OF_RANGE');
    // Version 2 covers the Idempotency-Key too (issue #61); without the header, version 1.
    const version = header(req, 'x-signature-version') ?? '1';
    if (!(SIGNATURE_VERSIONS as readonly string[]).includes(version)) {
      throw new AppError('INVALID_SIGNATURE', 'X-Signature-Version is 1 (or absent) or 2.');
    }
    const v2 = version === '2' ? { idempotencyKey: header(req, 'idempotency-key') } : undefined;
    if (!verifyRequestSignature(cred.key, req.method, req.raw.url ?? req.url, ts!, req.rawBody, header(req, 'x-signature'), v2)) {
      throw new AppError('INVALID_SIGNATURE');
    }
    if (cred.operatorStatus !== 'active') throw new AppError('OPERATOR_SUSPENDED');
    if (!cred.isAllowedIp(req.ip)) throw new AppError('FORBIDDEN_IP');

    const rate = await deps.limiter.take(cred.operatorId, cred.rateLimitPerMinute);
    reply.header('ratelimit-limit', String(rate.limit));
    reply.header('ratelimit-remaining', String(rate.remaining));
    reply.header('ratelimit-reset', String(rate.resetSeconds));
    if (!rate.allowed) deps.metrics.rateLimitRefusals.inc();
    if (!rate.allowed) throw new AppError('RATE_LIMITED', undefined, undefined, { 'retry-after': String(rate.resetSeconds) });
    req.credential = cred;

    if (op.sandboxOnly && cred.environment !== 'sandbox') throw new AppError('SANDBOX_ONLY');

    // Idempotent operations require a key; every other mutation (the sandbox decisions, game
    // sessions, webhook tests) accepts one with the same semantics. A change's signature is bound
    // to its key, or to having none, so that captured bytes cannot be sent again with another key;
    // the binding and the key claim are one NATS KV round trip each, made at the same time.
    if (op.method !== 'GET') {
      const key = idempotencyKeyOf(req, op.idempotent === true);
      const scope = key === undefined ? undefined : { operatorId: cred.operatorId, environment: cred.environment, key };
      const signatureBound = deps.signatures.bind(cred.keyHash, header(req, 'x-signature')!, scope && claimId(scope));
      if (!scope) await signatureBound;
      else {
        await claimIdempotencyKey(req, deps.idempotency, scope, {
          count: (outcome) => deps.metrics.idempotencyOutcomes.inc({ outcome }),
          alongside: signatureBound,
        });
      }
    }

    // Checked also where the operation takes no body: malformed JSON is refused on every operation.
    const body = jsonObjectBody(req);
    if (op.body) req.body = body;
    return undefined;
  };
}
