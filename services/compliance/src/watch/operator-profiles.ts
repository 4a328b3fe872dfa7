// Which operators the watch applies to: their compliance profile, asked of the players service
// (players.compliance.get) and reused for PROFILE_CACHE_MS. An operator switched to br-spa is
// watched from its next events once the entry expires; events before that are not replayed.
import { complianceProfileMessages, type ComplianceProfile, type OperatorCompliance } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

export interface OperatorProfiles {
  profileOf(operatorId: string): Promise<ComplianceProfile>;
}

export function operatorProfiles(deps: Pick<ServiceDeps, 'call'>, ttlMs: number, now: () => number = Date.now): OperatorProfiles {
  const cache = new Map<string, { profile: ComplianceProfile; until: number }>();
  return {
    async profileOf(operatorId) {
      const hit = cache.get(operatorId);
      if (hit && hit.until > now()) return hit.profile;
      const answer = await deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId });
      cache.set(operatorId, { profile: answer.profile, until: now() + ttlMs });
      return answer.profile;
    },
  };
}
