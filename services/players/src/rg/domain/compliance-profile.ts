// The operator's compliance profile as its rules read it: the stored row, or `off` with the
// defaults for an operator our team never set.
import { COMPLIANCE_DEFAULTS, type OperatorCompliance } from '@bo/contracts';
import type { OperatorComplianceFields } from './rows.ts';

export function complianceView(operatorId: string, row: OperatorComplianceFields | null): OperatorCompliance {
  if (!row) return { operatorId, ...COMPLIANCE_DEFAULTS, selfExclusionPlatformUrl: null, updatedAt: null, updatedBy: null };
  return {
    operatorId,
    profile: row.profile,
    timeZone: row.timeZone,
    coolingOffHours: row.coolingOffHours,
    realityCheckMinutes: row.realityCheckMinutes,
    selfExclusionPlatformUrl: row.selfExclusionPlatformUrl ?? null,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

/** An IANA time zone the runtime knows (`America/Sao_Paulo`), as `Intl` resolves it. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The link to the central self-exclusion platform a player's responsible-gaming view shows: under
 * br-spa the operator's own, else the deployment's; none under `off` (the SPA's platform is Brazil's).
 */
export function centralSelfExclusionUrl(compliance: Pick<OperatorCompliance, 'profile' | 'selfExclusionPlatformUrl'>, deploymentUrl: string): string | null {
  if (compliance.profile !== 'br-spa') return null;
  return compliance.selfExclusionPlatformUrl ?? deploymentUrl;
}
