// Who may call what: operator operations need an operator credential, admin operations our
// team (or another service), endpoint sync only the gateway (internal) or the team.
import { AppError, type AdminScope, type InternalScope, type OperatorScope, type OperationRequest } from '@bo/contracts';

export function operatorScopeOf(req: OperationRequest): OperatorScope {
  if (req.ctx?.scope?.kind !== 'operator') throw new AppError('NOT_FOUND');
  return req.ctx.scope;
}

export function teamScopeOf(req: OperationRequest): AdminScope | InternalScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'admin' && scope?.kind !== 'internal') throw new AppError('NOT_FOUND');
  return scope;
}
