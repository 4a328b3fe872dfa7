// The operators' compliance profiles GET /me shows (issue #56), asked of the players service, which
// owns them (`players.compliance.get`), and kept per operator for CREDENTIAL_CACHE_TTL_MS as
// credentials are: GET /me stays the edge's own path (authentication and the rate limit, measured
// in docs/benchmarks.md), and a change our team makes is shown within that on every replica.
// Concurrent misses of one operator share one question; an unanswered one is 503 (no entry kept).
import { callOperation, complianceProfileMessages, type OperatorCompliance } from '@bo/contracts';
import type { ForwardDeps } from './operations.ts';

const MAX_ENTRIES = 10_000;

export type ComplianceProfiles = (operatorId: string, requestId: string) => Promise<OperatorCompliance>;

export function complianceProfiles(deps: ForwardDeps, ttlMs: number, clock: () => number = () => performance.now()): ComplianceProfiles {
  const entries = new Map<string, { profile: OperatorCompliance; until: number }>();
  const asking = new Map<string, Promise<OperatorCompliance>>();
  const ask = (operatorId: string, requestId: string) =>
    callOperation<OperatorCompliance>(
      deps.nc,
      complianceProfileMessages.get.subject,
      { ctx: { requestId, scope: { kind: 'internal', service: 'gateway' } }, params: {}, query: {}, body: { operatorId } },
      { prefix: deps.natsPrefix, timeoutMs: deps.rpcTimeoutMs },
    );
  return (operatorId, requestId) => {
    const kept = entries.get(operatorId);
    if (kept && clock() < kept.until) return Promise.resolve(kept.profile);
    let pending = asking.get(operatorId);
    if (!pending) {
      const askedAt = clock();
      pending = ask(operatorId, requestId)
        .then((profile) => {
          if (entries.size >= MAX_ENTRIES) entries.clear();
          entries.set(operatorId, { profile, until: askedAt + ttlMs });
          return profile;
        })
        .finally(() => asking.delete(operatorId));
      asking.set(operatorId, pending);
    }
    return pending;
  };
}
