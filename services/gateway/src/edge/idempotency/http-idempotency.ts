// The HTTP side of idempotency, one place for the public API and the admin API: read and check
// the Idempotency-Key, claim it at the edge (key-claims.ts: one request per key, whichever
// operation), hold it on this replica while the request runs (a copy here is 409
// IDEMPOTENCY_IN_PROGRESS), and forward key and fingerprint to the service that owns the
// operation, which answers replays, copies running elsewhere and conflicts, and keeps the answer
// (the kit's idempotency/). A refusal made here after the key check (415, 422 of the body) is
// handed to that service to keep (docs/architecture.md, "Idempotency").
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError, requestOperation, statusOf, type ErrorBody, type OperationReply, type RequestContext, recordRefusalMessage } from '@bo/contracts';
import { IDEMPOTENCY_KEY_FORMAT, fingerprint, type ClaimedKey, type IdemScope, type KeysInFlight } from './keys-in-flight.ts';
import type { KeyClaims } from './key-claims.ts';

/** The edge's idempotency: the key claims every keyed request makes, and the keys running on this replica. */
export interface EdgeIdempotency {
  claims: KeyClaims;
  inFlight: KeysInFlight;
}

/** How a refusal made here reaches the owning service, and the request's context for it. */
export interface RefusalForwarding {
  nc: NatsConnection;
  natsPrefix: string;
  rpcTimeoutMs: number;
  contextOf(req: FastifyRequest, key: ClaimedKey): RequestContext;
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
  /**
   * A check that must pass before the key is used (the signature binding), run at the same time
   * as the key claim: both are a NATS KV round trip. Its refusal wins over the claim's.
   */
  alongside?: Promise<void>;
}

/**
 * Claims the key (`scope`: an operator's environment, or the admin API, and the key) for this
 * request: the edge's claim, shared by every replica and operation (another request with the key
 * is 409 IDEMPOTENCY_CONFLICT), then this replica's hold. The service that keeps the answer is the
 * first word of the operation's subject.
 */
export async function claimIdempotencyKey(req: FastifyRequest, idem: EdgeIdempotency, scope: IdemScope, opts: ClaimOptions = {}): Promise<void> {
  const { count } = opts;
  const subject = req.routeOptions.config.op?.subject;
  if (!subject) return; // a gateway-local operation (reads only): nothing to keep
  const fp = fingerprint(req.method, req.raw.url ?? req.url, req.rawBody);
  const [edgeClaim, check] = await Promise.allSettled([idem.claims.claim(scope, fp), opts.alongside]);
  if (check.status === 'rejected') throw check.reason;
  if (edgeClaim.status === 'rejected') throw edgeClaim.reason;
  if (edgeClaim.value === 'conflict') {
    count?.('conflict');
    throw new AppError('IDEMPOTENCY_CONFLICT');
  }
  // Two copies on one replica: the second is told the first is running. Copies on two replicas
  // both reach the service, whose claim on the key answers the later one.
  if (!idem.inFlight.hold(scope)) {
    count?.('in_progress');
    throw new AppError('IDEMPOTENCY_IN_PROGRESS');
  }
  count?.(edgeClaim.value === 'claimed' ? 'claimed' : 'same');
  req.idempotency = { ...scope, fingerprint: fp, keptBy: subject.split('.')[0]! };
}

/**
 * onSend: let go of the key on this replica; a refusal made here (not the service's answer, not a
 * 5xx) is handed to the owning service to keep, which may answer with what the key has already.
 */
export function idempotencyRecorder(inFlight: KeysInFlight, forward: RefusalForwarding) {
  return async function record(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const scope = req.idempotency;
    if (!scope) return payload;
    req.idempotency = undefined;
    inFlight.release(scope);
    if (req.answeredByService || reply.statusCode >= 500) return payload;
    return keepRefusalAtService(req, reply, payload, scope, forward);
  };
}

/**
 * A refusal made here (415, 422): the owning service stores it, or answers with what the key
 * already has (then that answer, replayed, is sent instead). If the service cannot be asked, the
 * refusal is sent unstored.
 */
async function keepRefusalAtService(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  scope: ClaimedKey,
  forward: RefusalForwarding,
): Promise<unknown> {
  const op = req.routeOptions.config.op;
  let error: ErrorBody | undefined;
  try {
    error = (JSON.parse(String(payload)) as { error?: ErrorBody }).error;
  } catch {
    error = undefined;
  }
  if (!op?.subject || !error) return payload;
  let answer: OperationReply;
  try {
    answer = await requestOperation(
      forward.nc,
      recordRefusalMessage(scope.keptBy).subject,
      {
        ctx: forward.contextOf(req, scope),
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
  if (!answer.ok && (answer.error.code === 'IDEMPOTENCY_CONFLICT' || answer.error.code === 'IDEMPOTENCY_IN_PROGRESS')) {
    const code = answer.error.code;
    reply.code(statusOf(code));
    if (code === 'IDEMPOTENCY_IN_PROGRESS') reply.header('retry-after', '1');
    return JSON.stringify({ error: { code, message: answer.error.message, requestId: req.id } });
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

/** onResponse: a request that ended without onSend (aborted) must not hold its key on this replica. */
export function releaseIdempotencyKey(inFlight: KeysInFlight, req: FastifyRequest): void {
  if (req.idempotency) inFlight.release(req.idempotency);
}
