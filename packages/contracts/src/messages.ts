// The request-reply envelope between the gateway and the domain services (and between services).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { EnvironmentSchema } from './common.ts';
import type { ErrorBody } from './errors.ts';

/** Who is calling: an operator credential (scoped to one brand) or our own team via the admin API. */
export const OperatorScopeSchema = Type.Object({
  kind: Type.Literal('operator'),
  operatorId: Type.String(),
  brandId: Type.String(),
  environment: EnvironmentSchema,
  currency: Type.String(),
});
/**
 * Our team: `actor` is who the audit log names (`user:<email>`); `personId` the team member's id
 * (four eyes compares it), absent for a caller who is not a person (ADMIN_TOKEN in production, a
 * named service token): the gateway refuses those on a decision (PERSON_REQUIRED).
 */
export const AdminScopeSchema = Type.Object({
  kind: Type.Literal('admin'),
  actor: Type.String(),
  personId: Type.Optional(Type.String()),
  /**
   * The caller's role reads only (the regulator's inspectors, issue #69): every service refuses it a
   * change (403 READ_ONLY_ROLE) whatever the gateway let through.
   */
  readOnly: Type.Optional(Type.Literal(true)),
});
export const InternalScopeSchema = Type.Object({ kind: Type.Literal('internal'), service: Type.String() });
/** A game provider calling the provider wallet API (/provider/v1) with its credential for one environment. */
export const ProviderScopeSchema = Type.Object({ kind: Type.Literal('provider'), providerId: Type.String(), environment: EnvironmentSchema });
export type OperatorScope = Static<typeof OperatorScopeSchema>;
export type AdminScope = Static<typeof AdminScopeSchema>;
export type InternalScope = Static<typeof InternalScopeSchema>;
export type ProviderScope = Static<typeof ProviderScopeSchema>;
export type Scope = OperatorScope | AdminScope | InternalScope | ProviderScope;

export interface RequestContext {
  requestId: string;
  scope: Scope;
  /** The request's Idempotency-Key, when it has one: the owning service keeps the key's answer (the kit's idempotency/). */
  idempotencyKey?: string;
  /** Method, raw path and SHA-256 of the body (the gateway's): a stored answer is replayed only to the same request. */
  idempotencyFingerprint?: string;
}

export interface OperationRequest<B = unknown, P = Record<string, string>, Q = Record<string, unknown>> {
  ctx: RequestContext;
  params: P;
  query: Q;
  body: B;
}

/**
 * A NATS request-reply message between our own processes that is not an HTTP operation (a
 * service asking another, the gateway's launch page asking the wallet): its subject and the
 * schemas of its parts and reply. Services serve it like an operation (the kit's `handle`),
 * checked against these schemas before the handler runs.
 */
export interface MessageDefinition {
  subject: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  reply: TSchema;
}

export function defineMessages<const T extends Record<string, MessageDefinition>>(messages: T): T {
  return messages;
}

/** `<service>.ping`: every service answers it (the kit does), so the gateway's /readyz sees it is up. */
export const PingReplySchema = Type.Object({ ok: Type.Literal(true) });
export function pingMessage(service: string) {
  return { subject: `${service}.ping`, reply: PingReplySchema } satisfies MessageDefinition;
}

/**
 * How long a replica may use an operator's status it asked for (the play page's check at the gateway,
 * the provider wallet's bets in the wallet), counted from before it asked. A change of status waits
 * this long after its commit before it answers (the operators service), so every status read before
 * the change has expired by then, broadcast or not: a lease (packages/service-kit/src/operator-status-lease.ts).
 */
export const OPERATOR_STATUS_LEASE_MS = 1000;

/** `<prefix>.gateway.invalidate` (core NATS broadcast): our team changed this operator; every replica drops its cached credentials. */
export const OperatorChangedSchema = Type.Object({ operatorId: Type.String() });
export type OperatorChanged = Static<typeof OperatorChangedSchema>;

/**
 * `replayed`: the answer was stored under the request's idempotency key by an earlier request
 * (the gateway adds `Idempotent-Replayed: true`); `requestId` is that request's, which a replayed
 * error envelope keeps.
 */
export type OperationReply<R = unknown> =
  | { ok: true; status: number; body: R; replayed?: true }
  | { ok: false; error: ErrorBody; status?: number; replayed?: true; requestId?: string };

/**
 * `<service>.idempotency.record` (`<service>`: the first word of the operation's subject): a
 * refusal the gateway made itself (415, 422 before the request could be forwarded). The service
 * stores it under the request's key unless an answer is stored already, and answers with the
 * key's answer either way (a replay when it was stored before). The reply is an OperationReply.
 */
export const RecordRefusalSchema = Type.Object({
  operation: Type.String({ minLength: 1 }),
  error: Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Unknown()) }),
});
export type RecordRefusal = Static<typeof RecordRefusalSchema>;
export function recordRefusalMessage(service: string) {
  return { subject: `${service}.idempotency.record`, body: RecordRefusalSchema, reply: Type.Unknown() } satisfies MessageDefinition;
}
