// Whether a provider's bet may be taken for an operator: its status, asked of the operators service
// and kept for a lease per wallet replica (the kit's operator-status-lease.ts: the operators
// service's answer to a suspension waits out the lease, so a suspension stops bets on every replica
// before it answers).
import { operatorMessages } from '@bo/contracts';
import { operatorStatusLease, type ServiceDeps } from '@bo/service-kit';

export interface OperatorStanding {
  isActive(operatorId: string, requestId: string): Promise<boolean>;
  stop(): void;
}

export function operatorStanding(deps: Pick<ServiceDeps, 'nc' | 'prefix' | 'call'>): OperatorStanding {
  const lease = operatorStatusLease({
    nc: deps.nc,
    prefix: deps.prefix,
    ask: async (operatorId, requestId) =>
      (await deps.call<{ status: 'active' | 'suspended' | null }>(operatorMessages.status.subject, { operatorId }, { requestId })).status ?? undefined,
  });
  return {
    isActive: async (operatorId, requestId) => (await lease.status(operatorId, requestId)) === 'active',
    stop: () => lease.stop(),
  };
}
