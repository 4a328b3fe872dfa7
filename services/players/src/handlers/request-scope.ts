// Which caller an operation serves. The gateway only forwards public operations with an operator
// scope and admin operations with an admin scope; a mismatch here means a wiring bug, refused.
import { AppError, type OperationRequest, type OperatorScope, type AdminScope } from '@bo/contracts';

export function operatorScope(req: OperationRequest<any, any, any>): OperatorScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'operator') throw new AppError('UNAUTHORIZED', 'This operation needs an operator credential.');
  return scope;
}

export function adminScope(req: OperationRequest<any, any, any>): AdminScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'admin') throw new AppError('UNAUTHORIZED', 'This operation is for the admin API.');
  return scope;
}
