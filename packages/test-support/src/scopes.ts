// Callers as the gateway would present them: an operator credential of one brand, our admin team,
// another service.
import { randomBytes } from 'node:crypto';
import type { AdminScope, InternalScope, OperatorScope } from '@bo/contracts';

export function operatorScope(label = 'a', environment: 'sandbox' | 'production' = 'sandbox'): OperatorScope {
  const tag = `${label}${randomBytes(3).toString('hex')}`;
  return { kind: 'operator', operatorId: `op_${tag}`, brandId: `brd_${tag}`, environment, currency: 'BRL' };
}
export const adminScope: AdminScope = { kind: 'admin', actor: 'test-admin' };
export const internalScope = (service = 'payments'): InternalScope => ({ kind: 'internal', service });
