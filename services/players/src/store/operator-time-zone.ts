// The time zone of an operator's per-day reports (the closures after a hit, the marketing
// suppressions): its compliance setting's, through the ORM (the day's bounds: brand-days.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import { COMPLIANCE_DEFAULTS } from '@bo/contracts';
import { OperatorComplianceEntity } from './entities.ts';

/** The operator's time zone (its compliance setting; the default when never set). */
export async function timeZoneOf(em: EntityManager, operatorId: string | undefined): Promise<string> {
  if (!operatorId) return COMPLIANCE_DEFAULTS.timeZone;
  return (await em.findOne(OperatorComplianceEntity, { operatorId }))?.timeZone ?? COMPLIANCE_DEFAULTS.timeZone;
}
