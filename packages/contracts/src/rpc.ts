// Typed request-reply over NATS, used by the gateway and by services calling each other.
import { headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { AppError } from './errors.ts';
import type { OperationReply, OperationRequest } from './messages.ts';
import { rpcSubject } from './subjects.ts';

/** headers: extra NATS headers, e.g. the W3C trace context. */
export interface RpcOptions {
  prefix: string;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export const DEFAULT_RPC_TIMEOUT_MS = 5000;

/**
 * Sends an operation request and returns the service's reply.
 * No responders or no answer within the deadline becomes 503 SERVICE_UNAVAILABLE, so the caller
 * (gateway) releases the idempotency key and the client may retry: services dedupe on the key.
 */
export async function requestOperation<R = unknown>(
  nc: NatsConnection,
  subject: string,
  request: OperationRequest<unknown, unknown, unknown>,
  opts: RpcOptions,
): Promise<OperationReply<R>> {
  const timeout = opts.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  let h: MsgHdrs | undefined;
  if (opts.headers && Object.keys(opts.headers).length > 0) {
    h = natsHeaders();
    for (const [k, v] of Object.entries(opts.headers)) h.set(k, v);
  }
  // Outside the try: a request that cannot be encoded is a fault of the request, not an outage.
  const payload = JSON.stringify(request);
  let msg: Msg;
  try {
    msg = await nc.request(rpcSubject(opts.prefix, subject), payload, { timeout, ...(h ? { headers: h } : {}) });
  } catch (e) {
    // Only real unavailability becomes a retryable 503; anything else is a fault to see as such.
    if (!isUnavailable(e)) throw e;
    throw new AppError('SERVICE_UNAVAILABLE', `The ${subject.split('.')[0]} service did not answer in time.`);
  }
  return msg.json<OperationReply<R>>();
}

const UNAVAILABLE = new Set([
  'TimeoutError',
  'NoResponders',
  'NoRespondersError',
  'RequestError',
  'ClosedConnectionError',
  'DrainingConnectionError',
  'ConnectionError',
]);

// JetStream API errors (err_code) of a cluster that cannot serve now though it will: no leader for
// the request (an election after a node was lost), a stream or consumer offline while its peers
// catch up. Beside these, every API error the server itself answers with status 503 (JetStream
// temporarily unavailable 10008, insufficient resources, incomplete results, ...).
const JETSTREAM_NOT_NOW = new Set([10009, 10118, 10119]);

/** A JetStream API error (@nats-io/jetstream's JetStreamApiError: `code` err_code, `status` the server's HTTP-like status) saying "not now". */
function isJetStreamNotNow(e: { code?: unknown; status?: unknown; apiError?: unknown }): boolean {
  if (typeof e.apiError !== 'function' || typeof e.code !== 'number') return false;
  return e.status === 503 || JETSTREAM_NOT_NOW.has(e.code);
}

/** No responders, no answer in time, no connection, or JetStream not able to serve now: the service may answer a retry. */
export function isUnavailable(err: unknown): boolean {
  for (let e = err as { name?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.name && UNAVAILABLE.has(e.name)) return true;
    if (typeof e === 'object' && isJetStreamNotNow(e as { code?: unknown; status?: unknown; apiError?: unknown })) return true;
  }
  return false;
}

/** Like requestOperation, but returns the body of a success reply and throws the AppError of a failure. */
export async function callOperation<R = unknown>(
  nc: NatsConnection,
  subject: string,
  request: OperationRequest<unknown, unknown, unknown>,
  opts: RpcOptions,
): Promise<R> {
  const reply = await requestOperation<R>(nc, subject, request, opts);
  if (!reply.ok) throw AppError.fromBody(reply.error);
  return reply.body;
}
