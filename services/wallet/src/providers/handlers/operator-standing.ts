// Whether a provider's bet may be taken for an operator: its status, asked of the operators
// service and kept for a second per wallet replica. Our team's change of an operator is broadcast
// by the operators service and flushed before its answer (the gateways' credential caches hear the
// same broadcast): this cache drops the operator's entry when it arrives, so a suspension stops
// bets at once; the TTL bounds a replica cut off from NATS at that moment.
import { gatewayInvalidateSubject, operatorMessages, type OperatorChanged } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

const TTL_MS = 1000;

export interface OperatorStanding {
  isActive(operatorId: string, requestId: string): Promise<boolean>;
  stop(): void;
}

export function operatorStanding(deps: Pick<ServiceDeps, 'nc' | 'prefix' | 'call'>): OperatorStanding {
  const entries = new Map<string, { active: boolean; at: number }>();
  // Bumped by every broadcast: an answer asked before a change is not kept after it.
  let generation = 0;
  const sub = deps.nc.subscribe(gatewayInvalidateSubject(deps.prefix), {
    callback: (err, msg) => {
      generation++;
      if (err) return entries.clear();
      try {
        entries.delete(msg.json<OperatorChanged>().operatorId);
      } catch {
        entries.clear();
      }
    },
  });
  return {
    async isActive(operatorId, requestId) {
      const kept = entries.get(operatorId);
      if (kept && Date.now() - kept.at < TTL_MS) return kept.active;
      const seen = generation;
      const { status } = await deps.call<{ status: 'active' | 'suspended' | null }>(operatorMessages.status.subject, { operatorId }, { requestId });
      const active = status === 'active';
      if (seen === generation) {
        if (entries.size > 10_000) entries.clear();
        entries.set(operatorId, { active, at: Date.now() });
      }
      return active;
    },
    stop: () => sub.unsubscribe(),
  };
}
