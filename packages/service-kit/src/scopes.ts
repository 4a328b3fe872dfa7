// Which caller an operation serves. The gateway forwards public operations with an operator
// scope and admin operations with an admin scope; services call each other with an internal
// scope; the provider wallet API, with a provider scope. A mismatch means a wiring bug, refused with UNAUTHORIZED and never served.
import { AppError, type AdminScope, type InternalScope, type OperationRequest, type OperatorScope, type ProviderScope } from '@bo/contracts';

// biome-ignore lint/suspicious/noExplicitAny: any operation's request
type AnyRequest = OperationRequest<any, any, any>;

export function operatorScopeOf(req: AnyRequest): OperatorScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'operator') throw new AppError('UNAUTHORIZED', 'This operation needs an operator credential.');
  return scope;
}

export function providerScopeOf(req: AnyRequest): ProviderScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'provider') throw new AppError('UNAUTHORIZED', 'This operation needs a provider credential.');
  return scope;
}

export function adminScopeOf(req: AnyRequest): AdminScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'admin') throw new AppError('UNAUTHORIZED', 'This operation is for the admin API.');
  return scope;
}

export function internalScopeOf(req: AnyRequest): InternalScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'internal') throw new AppError('UNAUTHORIZED', 'This operation is internal.');
  return scope;
}

/** Our own side: the admin API or another service. */
export function teamScopeOf(req: AnyRequest): AdminScope | InternalScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'admin' && scope?.kind !== 'internal') throw new AppError('UNAUTHORIZED', 'This operation is for our own team or services.');
  return scope;
}
