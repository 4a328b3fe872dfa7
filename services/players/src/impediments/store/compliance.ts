// The operator's profile as the eligibility rules read it: the entities (the ORM).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ComplianceProfile } from '@bo/contracts';
import { OperatorComplianceEntity } from '../../store/index.ts';

export interface ComplianceOfOperator {
  profile: ComplianceProfile;
  timeZone: string;
}

/** The operator's profile as the rules read it now (one primary-key read: a change is in force at once). */
export async function complianceOf(em: EntityManager, operatorId: string): Promise<ComplianceOfOperator> {
  const row = await em.findOne(OperatorComplianceEntity, { operatorId });
  return row ? { profile: row.profile, timeZone: row.timeZone } : { profile: 'off', timeZone: 'America/Sao_Paulo' };
}
