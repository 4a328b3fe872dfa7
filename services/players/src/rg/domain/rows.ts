// The stored rows' fields the responsible-gaming rules read, as plain data. The entities (the
// shared store's entities.ts) have these fields and more, and are passed as they are; `domain/`
// imports no store (issue #43, the service template's `domain-imports-no-store`), so the rules name
// here what they need of a row.
import type { ComplianceProfile, LimitPeriod, LimitType, PlayerStatus } from '@bo/contracts';

/** What the player's standing rules (standing.ts) read and set. */
export interface StandingFields {
  status: PlayerStatus;
  frozenAt?: Date | null;
  statusBeforeFreeze?: PlayerStatus | null;
  selfExcludedSince?: Date | null;
  selfExcludedUntil?: Date | null;
  /** The status a running self-exclusion replaced with `autoexcluido`, which its end gives back. */
  statusBeforeSelfExclusion?: PlayerStatus | null;
  restrictedAt?: Date | null;
}

/** An operator's compliance profile as stored (compliance-profile.ts). */
export interface OperatorComplianceFields {
  profile: ComplianceProfile;
  timeZone: string;
  coolingOffHours: number;
  realityCheckMinutes: number;
  selfExclusionPlatformUrl?: string | null;
  updatedAt: Date;
  updatedBy: string;
}

/** A limit as stored: `value` in force, a relaxing change waiting in `pending*` (rg-limits.ts). */
export interface RgLimitFields {
  type: LimitType;
  period: LimitPeriod;
  value: string;
  pendingValue?: string | null;
  pendingRemoval: boolean;
  pendingEffectiveAt?: Date | null;
}
