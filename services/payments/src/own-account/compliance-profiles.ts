// Each operator's compliance profile as payments reads it (players.compliance.get), cached per
// process. The players service broadcasts `players.changed` with `everyone` after a profile change
// commits and before it answers, so the change (br-spa restricts) is in force here before the
// request that made it returns; a broadcast asked-before is never stored after (generation), and
// the cache is emptied when the connection drops, as the kit's player-state cache does.
import {
  EVERY_PLAYER,
  OPERATOR_COMPLIANCE_SUBJECT,
  playerChangedSubject,
  type ComplianceProfile,
  type OperatorCompliance,
  type PlayerChanged,
} from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

const TTL_MS = 60_000;

export interface ComplianceProfiles {
  of(operatorId: string): Promise<ComplianceProfile>;
  stop(): void;
}

export function complianceProfiles(deps: Pick<ServiceDeps, 'nc' | 'prefix' | 'call'>): ComplianceProfiles {
  const entries = new Map<string, { profile: ComplianceProfile; expiresAt: number }>();
  let generation = 0;
  const sub = deps.nc.subscribe(playerChangedSubject(deps.prefix), {
    callback: (err, msg) => {
      if (err) return;
      try {
        if (msg.json<PlayerChanged>().playerId !== EVERY_PLAYER) return;
      } catch {
        // unreadable: drop everything, as for a profile change
      }
      generation++;
      entries.clear();
    },
  });
  void (async () => {
    for await (const s of deps.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect') {
        generation++;
        entries.clear();
      }
    }
  })().catch(() => undefined);
  return {
    async of(operatorId) {
      const hit = entries.get(operatorId);
      if (hit && hit.expiresAt > Date.now()) return hit.profile;
      const asked = generation;
      const { profile } = await deps.call<OperatorCompliance>(OPERATOR_COMPLIANCE_SUBJECT, { operatorId });
      if (asked === generation) entries.set(operatorId, { profile, expiresAt: Date.now() + TTL_MS });
      return profile;
    },
    stop() {
      sub.unsubscribe();
    },
  };
}
