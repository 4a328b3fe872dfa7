// Typed request-reply over NATS, used by the gateway and by services calling each other.
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { AppError } from './errors.ts';
import type { OperationReply, OperationRequest } from './messages.ts';
import { rpcSubject } from './subjects.ts';

/** headers: extra NATS headers, e.g. the W3C trace context. */
export interface RpcOptions { prefix: string; timeoutMs?: number; headers?: Record<string, string> }

export const DEFAULT_RPC_TIMEOUT_MS = 5000;

/**
 * Sends an operation request and returns the service's reply.
 * No responders or no answer within the deadline becomes 503 SERVICE_UNAVAILABLE, so the caller
 * (gateway) releases the idempotency key and the client may retry: services dedupe on the key.
 */
export async function requestOperation<R = unknown>(
  nc: NatsConnection, subject: string, request: OperationRequest<unknown, unknown, unknown>, opts: RpcOptions,
): Promise<OperationReply<R>> {
  const timeout = opts.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  let msg;
  try {
    let h: MsgHdrs | undefined;
    if (opts.headers && Object.keys(opts.headers).length > 0) {
      h = natsHeaders();
      for (const [k, v] of Object.entries(opts.headers)) h.set(k, v);
    }
    msg = await nc.request(rpcSubject(opts.prefix, subject), JSON.stringify(request), { timeout, ...(h ? { headers: h } : {}) });
  } catch (e) {
    throw new AppError('SERVICE_UNAVAILABLE', `The ${subject.split('.')[0]} service did not answer in time.`, undefined, { 'retry-after': '1' });
  }
  return msg.json<OperationReply<R>>();
}

/** Like requestOperation, but returns the body of a success reply and throws the AppError of a failure. */
export async function callOperation<R = unknown>(
  nc: NatsConnection, subject: string, request: OperationRequest<unknown, unknown, unknown>, opts: RpcOptions,
): Promise<R> {
  const reply = await requestOperation<R>(nc, subject, request, opts);
  if (!reply.ok) throw AppError.fromBody(reply.error);
  return reply.body;
}
