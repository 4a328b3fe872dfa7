// The HTTP side of idempotency, one place for the public API and the admin API: read and check
// the Idempotency-Key, claim it at the edge (key-claims.ts: one request per key, whichever
// operation and whichever layer keeps its answer), then at the layer that keeps the answer
// (replay, conflict, in progress), keep the claim's lease alive while the request runs, and store
// the answer (2xx/4xx) or release the key (5xx) on the way out.
// For an operation whose service keeps its idempotency records (serviceKeepsIdempotency: the
// money operations on the hot path), the key is only held in this replica's memory while the
// request runs; the service answers replays and conflicts and stores the answer in the effect's
// own statement, and a refusal made here is handed to it to store (docs/decisions.md).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, requestOperation, statusOf, type ErrorBody, type OperationReply, recordRefusalMessage } from '@bo/contracts';
import { IDEMPOTENCY_KEY_FORMAT, fingerprint, type ClaimedKey, type IdemScope, type IdempotencyStore } from './idempotency-store.ts';
import type { KeyClaims } from './key-claims.ts';
import { operatorContext, type ForwardDeps } from '../operations.ts';

const stopLease = new WeakMap<FastifyRequest, () => void>();

/** The stores of the edge's idempotency: the key claims every keyed request makes, and the gateway's answers. */
export interface EdgeIdempotency {
  claims: KeyClaims;
  store: IdempotencyStore;
}

/**
 * The request's Idempotency-Key, checked: undefined when it has none. `required`: a missing key
 * is 400 IDEMPOTENCY_KEY_REQUIRED; a malformed one is always 422.
 */
export function idempotencyKeyOf(req: FastifyRequest, required: boolean): string | undefined {
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
  return key;
}

export interface ClaimOptions {
  count?: (outcome: string) => void;
  /** The service that keeps this operation's idempotency records, if one does. */
  keptBy?: string;
  /**
   * A check that must pass before the key is used (the signature binding), run at the same time
   * as the key claim: both are a NATS KV round trip. Its refusal wins over the claim's.
   */
  alongside?: Promise<void>;
}

/**
 * Claims the key (`scope`: an operator's environment, or the admin API, and the key) for this
 * request: first the edge's claim, shared by every replica and operation (another request with
 * the key is 409 IDEMPOTENCY_CONFLICT), then the layer that keeps the key's answer. Returns the
 * reply when it was answered here (a replay).
 */
export async function claimIdempotencyKey(
  req: FastifyRequest,
  reply: FastifyReply,
  idem: EdgeIdempotency,
  scope: IdemScope,
  opts: ClaimOptions = {},
): Promise<FastifyReply | undefined> {
  const { count, keptBy } = opts;
  const store = idem.store;
  const fp = fingerprint(req.method, req.raw.url ?? req.url, req.rawBody);
  const [edgeClaim, check] = await Promise.allSettled([idem.claims.claim(scope, fp), opts.alongside]);
  if (check.status === 'rejected') throw check.reason;
  if (edgeClaim.status === 'rejected') throw edgeClaim.reason;
  if (edgeClaim.value === 'conflict') {
    count?.('conflict');
    throw new AppError('IDEMPOTENCY_CONFLICT');
  }
  if (keptBy) {
    // Two copies on one replica: the second is told the first is running. Copies on two replicas
    // both reach the service, which answers the later one with the first one's answer.
    if (!store.holdLocally(scope)) {
      count?.('in_progress');
      throw new AppError('IDEMPOTENCY_IN_PROGRESS', undefined, undefined, { 'retry-after': '1' });
    }
    count?.('service');
    req.idempotency = { ...scope, fingerprint: fp, keptBy };
    return undefined;
  }
  const claim = await store.claim(scope, fp);
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
  req.idempotency = { ...scope, fingerprint: fp };
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
export function idempotencyRecorder(store: IdempotencyStore, forward?: ForwardDeps) {
  return async function record(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const scope = req.idempotency;
    if (!scope) return payload;
    req.idempotency = undefined;
    stopLease.get(req)?.();
    stopLease.delete(req);
    if (scope.keptBy) {
      store.releaseLocally(scope);
      // The service stored its own answer; a 5xx is never stored; a refusal made here is kept there.
      if (req.answeredByService || reply.statusCode >= 500 || !forward) return payload;
      return keepRefusalAtService(req, reply, payload, scope, forward);
    }
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

/**
 * A refusal made here (415, 422) for an operation whose service keeps the key's records: the
 * service stores it, or answers with what the key already has (then that answer, replayed, is
 * sent instead). If the service cannot be asked, the refusal is sent unstored.
 */
async function keepRefusalAtService(req: FastifyRequest, reply: FastifyReply, payload: unknown, scope: ClaimedKey, forward: ForwardDeps): Promise<unknown> {
  const op = req.routeOptions.config.op;
  let error: ErrorBody | undefined;
  try {
    error = (JSON.parse(String(payload)) as { error?: ErrorBody }).error;
  } catch {
    error = undefined;
  }
  if (!op?.subject || !error || !req.credential) return payload;
  const ctx = operatorContext(req, scope);
  let answer: OperationReply;
  try {
    answer = await requestOperation(
      forward.nc,
      recordRefusalMessage(scope.keptBy!).subject,
      {
        ctx,
        params: {},
        query: {},
        body: {
          operation: op.subject,
          error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) },
        },
      },
      { prefix: forward.natsPrefix, timeoutMs: forward.rpcTimeoutMs },
    );
  } catch (err) {
    req.log.warn({ err, requestId: req.id }, 'could not hand the refusal to its service; sent unstored');
    return payload;
  }
  if (!answer.ok && answer.error.code === 'IDEMPOTENCY_CONFLICT') {
    reply.code(statusOf('IDEMPOTENCY_CONFLICT'));
    return JSON.stringify({ error: { code: answer.error.code, message: answer.error.message, requestId: req.id } });
  }
  if (!answer.replayed) return payload; // ours is now the key's answer
  reply.header('idempotent-replayed', 'true');
  if (answer.ok) {
    reply.code(answer.status);
    return JSON.stringify(answer.body);
  }
  reply.code(answer.status ?? statusOf(answer.error.code));
  return JSON.stringify({
    error: {
      code: answer.error.code,
      message: answer.error.message,
      requestId: answer.requestId ?? req.id,
      ...(answer.error.details !== undefined ? { details: answer.error.details } : {}),
    },
  });
}

/** onResponse: a request that ended without onSend (aborted) must not renew its lease forever, nor hold its key in memory. */
export function stopIdempotencyLease(store: IdempotencyStore, req: FastifyRequest): void {
  stopLease.get(req)?.();
  stopLease.delete(req);
  if (req.idempotency?.keptBy) store.releaseLocally(req.idempotency);
}
