// Registers every operation of the contract table: a gateway-local handler where one exists
// (GET /me), a file streamed chunk by chunk (`download`), otherwise a forwarder to the owning service
// over NATS request-reply.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AppError, requestOperation, type Operation, type RequestContext } from '@bo/contracts';
import { sendRequest } from '@bo/service-kit/edge';
import { context, trace } from '@opentelemetry/api';
import { fileDownloader } from './file-download.ts';
import type { ForwardDeps } from './forward-deps.ts';
import type { ClaimedKey } from './idempotency/keys-in-flight.ts';

/** The query of an operation that takes no parameters: any names, ignored. */
const NO_QUERY = Type.Object({});

export type { ForwardDeps } from './forward-deps.ts';

/** The operator request's context for its service; `key` when the request's claim has already been let go (the recorder). */
export function operatorContext(req: FastifyRequest, key: ClaimedKey | undefined = req.idempotency): RequestContext {
  const c = req.credential!;
  return {
    requestId: req.id,
    scope: { kind: 'operator', operatorId: c.operatorId, brandId: c.brand.id, environment: c.environment, currency: c.brand.currency },
    ...(key ? { idempotencyKey: key.key, idempotencyFingerprint: key.fingerprint } : {}),
  };
}

export function forwarder(op: Operation, deps: ForwardDeps, contextOf: (req: FastifyRequest) => RequestContext) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    // In a producer span under the request's HTTP span when tracing is on (messaging conventions).
    const parent = req.span ? trace.setSpan(context.active(), req.span) : context.active();
    const result = await sendRequest(deps.natsPrefix, op.subject!, parent, (headers) =>
      requestOperation(
        deps.nc,
        op.subject!,
        {
          ctx: contextOf(req),
          params: req.params ?? {},
          query: req.query ?? {},
          body: req.body ?? {},
        },
        {
          prefix: deps.natsPrefix,
          timeoutMs: Math.max(op.timeoutMs ?? 0, deps.rpcTimeoutMs),
          headers,
        },
      ),
    );
    req.answeredByService = true;
    if (result.replayed) {
      reply.header('idempotent-replayed', 'true');
      if (!result.ok && result.requestId) req.replayedRequestId = result.requestId;
    }
    if (!result.ok) throw AppError.fromBody(result.error);
    return { result, reply: reply.code(result.status) };
  };
}

export function registerOperations(
  app: FastifyInstance,
  operations: Record<string, Operation>,
  deps: ForwardDeps,
  local: Record<string, RouteHandlerMethod>,
  context: (req: FastifyRequest) => RequestContext,
): void {
  for (const op of Object.values(operations)) {
    const handler =
      local[op.id] ??
      // A file: streamed chunk by chunk, each chunk one message from the owning service.
      (op.download
        ? fileDownloader(op, deps, context)
        : async (req: FastifyRequest, reply: FastifyReply) => {
            const { result } = await forwarder(op, deps, context)(req, reply);
            return reply.send(result.body);
          });
    if (!op.subject && !local[op.id]) throw new Error(`operation ${op.id} has neither a subject nor a local handler`);
    app.route({
      method: op.method,
      url: op.path,
      config: { op },
      schema: {
        ...(op.params ? { params: op.params } : {}),
        // Operations without parameters validate their query too, so that a malformed one (bad
        // percent-encoding, a NUL) is refused on every operation alike (validation.ts).
        querystring: op.query ?? NO_QUERY,
        ...(op.body ? { body: op.body } : {}),
      },
      handler,
    });
  }
}
