// A brand's rule thresholds as our team set them (compliance.brand_rules): read, and set under the
// row's lock (team-settings.ts). Entities; the watch reads them in SQL (watch.ts).
import type { SqlRunner } from '@bo/service-kit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { BrandRulesEntity } from './entities.ts';
import { setUnderRowLock } from './team-settings.ts';

export interface BrandRulesRow {
  brandId: string;
  thresholds: Record<string, unknown>;
  updatedAt: Date;
  updatedBy: string;
}

/** The brand's row; null when our team never set its thresholds. */
export const brandRulesOf = (orm: MikroORM, brandId: string): Promise<BrandRulesRow | null> => orm.em.fork().findOne(BrandRulesEntity, { brandId });

/** Sets the brand's thresholds (updated now) under the row's lock; `audit` as in setUnderRowLock. */
export function setBrandRules<T>(
  orm: MikroORM,
  set: Omit<BrandRulesRow, 'updatedAt'>,
  audit: (before: BrandRulesRow | null, after: BrandRulesRow, tx: SqlRunner) => Promise<T>,
): Promise<T> {
  return setUnderRowLock<BrandRulesRow, T>(orm, BrandRulesEntity, 'brandId', { ...set, updatedAt: new Date() }, audit);
}
