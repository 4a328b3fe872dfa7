// A brand's time zone, the one its daily regulator file's calendar day and its yearly
// "no occurrence" year are counted in: its operator's compliance profile (players.compliance.get).
// This service knows a brand's operator only from the events it has watched (money events,
// screened players); a brand it has not seen gets the default zone, and the file says so
// (`timeZoneSource: default`).
import { COMPLIANCE_DEFAULTS, complianceProfileMessages, type OperatorCompliance, type TimeZoneSource } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

export interface BrandZone {
  timeZone: string;
  source: TimeZoneSource;
  operatorId: string | null;
}

/** The operator of a brand, as the watched events said; undefined when none was seen. */
export async function operatorOfBrand(deps: Pick<ServiceDeps, 'sql'>, brandId: string): Promise<string | undefined> {
  const rows = await deps.sql.query<{ operator_id: string }>(
    `(select operator_id from compliance.watched_money where brand_id = ? limit 1)
     union all (select operator_id from compliance.screened_players where brand_id = ? limit 1) limit 1`,
    [brandId, brandId],
  );
  return rows[0]?.operator_id;
}

export async function brandZone(deps: Pick<ServiceDeps, 'sql' | 'call'>, brandId: string): Promise<BrandZone> {
  const operatorId = await operatorOfBrand(deps, brandId);
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
