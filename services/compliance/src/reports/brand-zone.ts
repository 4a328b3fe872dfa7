// A brand's time zone, the one its daily regulator file's calendar day and its yearly
// "no occurrence" year are counted in: its operator's compliance profile (players.compliance.get).
// This service knows a brand's operator only from the events it has watched (money events,
// screened players); a brand it has not seen gets the default zone, and the file says so
// (`timeZoneSource: default`).
import { COMPLIANCE_DEFAULTS, complianceProfileMessages, type OperatorCompliance, type TimeZoneSource } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';
import { operatorOfBrand } from '../store/brands.ts';

export interface BrandZone {
  timeZone: string;
  source: TimeZoneSource;
  operatorId: string | null;
}

export async function brandZone(deps: Pick<ServiceDeps, 'sql' | 'call'>, brandId: string): Promise<BrandZone> {
  const operatorId = await operatorOfBrand(deps.sql, brandId);
  if (!operatorId) return { timeZone: COMPLIANCE_DEFAULTS.timeZone, source: 'default', operatorId: null };
  const profile = await deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId });
  return { timeZone: profile.timeZone, source: 'profile', operatorId };
}

/** The calendar date (YYYY-MM-DD) of `instant` in `timeZone`, and of the day before. */
export function localDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant);
}

export function dayBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}
