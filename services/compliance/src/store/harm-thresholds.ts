// An operator's harm thresholds as our team set them (compliance.harm_thresholds, issue #68): read,
// and set under the row's lock with the reason (team-settings.ts). Entities; the assessments read
// them in SQL (harm.ts, storedHarmThresholds).
import type { SqlRunner } from '@bo/service-kit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { HarmThresholdsEntity } from './entities.ts';
import { setUnderRowLock } from './team-settings.ts';

export interface HarmThresholdsRow {
  operatorId: string;
  thresholds: Record<string, unknown>;
  reason: string;
  updatedAt: Date;
  updatedBy: string;
}

/** The operator's row; null when our team never set its thresholds. */
export const harmThresholdsRowOf = (orm: MikroORM, operatorId: string): Promise<HarmThresholdsRow | null> =>
  orm.em.fork().findOne(HarmThresholdsEntity, { operatorId });

/** Sets the operator's thresholds (updated now) under the row's lock; `audit` as in setUnderRowLock. */
export function setHarmThresholds<T>(
  orm: MikroORM,
  set: Omit<HarmThresholdsRow, 'updatedAt'>,
  audit: (before: HarmThresholdsRow | null, after: HarmThresholdsRow, tx: SqlRunner) => Promise<T>,
): Promise<T> {
  return setUnderRowLock<HarmThresholdsRow, T>(orm, HarmThresholdsEntity, 'operatorId', { ...set, updatedAt: new Date() }, audit);
}
