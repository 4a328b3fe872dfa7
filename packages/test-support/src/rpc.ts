// Calls an operation over NATS exactly as the gateway does (same envelope, same subject).
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { isAppError, requestOperation, type OperationReply, type Scope } from '@bo/contracts';

export interface CallOptions {
  scope: Scope;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  key?: string;
  /** The gateway's fingerprint of the request (method, path, body hash) sent with the key. */
  fingerprint?: string;
  timeoutMs?: number;
}

export type Caller = <R = any>(subject: string, opts: CallOptions) => Promise<OperationReply<R>>;

/** No answer in time becomes the 503 reply the gateway would render, so tests can assert on it. */
export function caller(nc: NatsConnection, prefix: string): Caller {
  return <R>(subject: string, opts: CallOptions): Promise<OperationReply<R>> =>
    requestOperation<R>(
      nc,
      subject,
      {
        ctx: {
          requestId: `req_${randomUUID()}`,
          scope: opts.scope,
          ...(opts.key ? { idempotencyKey: opts.key } : {}),
          ...(opts.fingerprint ? { idempotencyFingerprint: opts.fingerprint } : {}),
        },
        params: opts.params ?? {},
        query: opts.query ?? {},
        body: opts.body ?? {},
      },
      { prefix, timeoutMs: opts.timeoutMs ?? 60_000 },
    ).catch((e: unknown) => {
      if (isAppError(e)) return { ok: false, error: e.toBody() } as OperationReply<R>;
      throw e;
    });
}

/** A reply without its replay marks: what a replay must repeat exactly. */
export function answerOf(reply: OperationReply): OperationReply {
  const { replayed: _replayed, ...answer } = reply;
  if (!answer.ok) delete (answer as { requestId?: string }).requestId;
  return answer;
}

/** The body of a success reply; fails loudly on an error reply. */
export function ok<R>(reply: OperationReply<R>): R {
  if (!reply.ok) throw new Error(`expected success, got ${JSON.stringify(reply.error)}`);
  return reply.body;
}
/** The error code of a failure reply (undefined for a success). */
export function errorOf(reply: OperationReply): { code: string; details?: unknown } | undefined {
  return reply.ok ? undefined : reply.error;
}
