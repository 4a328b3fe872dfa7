// Which operators the watch applies to: their compliance profile, asked of the players service
// (players.compliance.get) and reused for PROFILE_CACHE_MS. An operator switched to br-spa is
// watched from its next events once the entry expires; events before that are not replayed.
import { complianceProfileMessages, type ComplianceProfile, type OperatorCompliance } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

export interface OperatorProfiles {
  profileOf(operatorId: string): Promise<ComplianceProfile>;
  /** The whole answer (profile and time zone), from the same cache. */
  complianceOf(operatorId: string): Promise<OperatorCompliance>;
}

export function operatorProfiles(deps: Pick<ServiceDeps, 'call'>, ttlMs: number, now: () => number = Date.now): OperatorProfiles {
  const cache = new Map<string, { answer: OperatorCompliance; until: number }>();
  const complianceOf = async (operatorId: string): Promise<OperatorCompliance> => {
    const hit = cache.get(operatorId);
    if (hit && hit.until > now()) return hit.answer;
    const answer = await deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId });
    cache.set(operatorId, { answer, until: now() + ttlMs });
    return answer;
  };
  return { complianceOf, profileOf: async (operatorId) => (await complianceOf(operatorId)).profile };
}
