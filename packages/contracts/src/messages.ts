// The request-reply envelope between the gateway and the domain services (and between services).
import { Type, type Static } from '@sinclair/typebox';
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
export const AdminScopeSchema = Type.Object({ kind: Type.Literal('admin'), actor: Type.String() });
export const InternalScopeSchema = Type.Object({ kind: Type.Literal('internal'), service: Type.String() });
export type OperatorScope = Static<typeof OperatorScopeSchema>;
export type AdminScope = Static<typeof AdminScopeSchema>;
export type InternalScope = Static<typeof InternalScopeSchema>;
export type Scope = OperatorScope | AdminScope | InternalScope;

export interface RequestContext {
  requestId: string;
  scope: Scope;
  /** Present for idempotent operations: the owning service dedupes on it inside its own transaction. */
  idempotencyKey?: string;
}

export interface OperationRequest<B = unknown, P = Record<string, string>, Q = Record<string, unknown>> {
  ctx: RequestContext;
  params: P;
  query: Q;
  body: B;
}

/** An audit trail the gateway records for admin operations that change something. */
export interface AuditTrail { target: string; before: unknown; after: unknown }

export type OperationReply<R = unknown> =
  | { ok: true; status: number; body: R; audit?: AuditTrail }
  | { ok: false; error: ErrorBody; status?: number };
