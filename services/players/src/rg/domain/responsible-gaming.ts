// Self-exclusion as other services must apply it (RG_BLOCKED): the status autoexcluido, or a
// selfExcludedUntil still in the future.
import type { PlayerStatus } from '@bo/contracts';

export function isSelfExcluded(status: PlayerStatus, selfExcludedUntil: Date | null | undefined, now: Date = new Date()): boolean {
  return status === 'autoexcluido' || (selfExcludedUntil != null && selfExcludedUntil.getTime() > now.getTime());
}
