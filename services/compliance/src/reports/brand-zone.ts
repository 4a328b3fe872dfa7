// A brand's time zone, the one its daily regulator file's calendar day and its yearly
// "no occurrence" year are counted in: its operator's compliance profile (players.compliance.get).
// The brand must be one of ours (issue #61: a file typed for "Demo Operator" was made and kept
// for five years): a brand this service has seen in the events it watched (money events, screened
// players) is; any other is asked of the operators service, which owns the brands
// (operators.brands.get), and one it does not have is refused with 404 BRAND_NOT_FOUND.
import {
  AppError,
  COMPLIANCE_DEFAULTS,
  brandMessages,
  complianceProfileMessages,
  type Brand,
  type Environment,
  type OperatorCompliance,
  type TimeZoneSource,
} from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';
import { brandEnvironment, operatorOfBrand } from '../store/brands.ts';

export interface BrandZone {
  timeZone: string;
  source: TimeZoneSource;
  operatorId: string | null;
  /** The brand's environment (null only for a file kept before the brand had to be one of ours). */
  environment: Environment | null;
}

/** The brand's operator and environment: as the watched events said, else as the operators service has it; 404 when it has none. */
export async function brandOfOurs(deps: Pick<ServiceDeps, 'sql' | 'call'>, brandId: string): Promise<{ operatorId: string; environment: Environment }> {
  const seen = await operatorOfBrand(deps.sql, brandId);
  const environment = seen ? await brandEnvironment(deps.sql, brandId) : null;
  if (seen && environment) return { operatorId: seen, environment };
  const { brand } = await deps.call<{ brand: Brand | null }>(brandMessages.get.subject, { brandId });
  if (!brand) throw new AppError('BRAND_NOT_FOUND', undefined, { brandId });
  return { operatorId: brand.operatorId, environment: brand.environment };
}

export async function brandZone(deps: Pick<ServiceDeps, 'sql' | 'call'>, brandId: string): Promise<BrandZone> {
  const { operatorId, environment } = await brandOfOurs(deps, brandId);
  const profile = await deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId });
  return { timeZone: profile.timeZone, source: 'profile', operatorId, environment };
}

/**
 * The zone a read counts a brand's year in when it makes and keeps nothing (the yearly "no occurrence"
 * statement): a brand seen in the events, its operator's; any other, the default zone, unasked.
 */
export async function zoneForRead(deps: Pick<ServiceDeps, 'sql' | 'call'>, brandId: string): Promise<string> {
  const operatorId = await operatorOfBrand(deps.sql, brandId);
  if (!operatorId) return COMPLIANCE_DEFAULTS.timeZone;
  return (await deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId })).timeZone;
}

/** The calendar date (YYYY-MM-DD) of `instant` in `timeZone`, and of the day before. */
export function localDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant);
}

export function dayBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}
