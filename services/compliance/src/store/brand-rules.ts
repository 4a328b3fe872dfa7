// A brand's rule thresholds as our team set them (compliance.brand_rules): read, and set under the
// row's lock with the audit row written by the caller with the kit's SQL on the same transaction
// (`sqlIn`). Entities only; the watch reads them in SQL (watch.ts).
import { sqlIn, type SqlRunner } from '@bo/service-kit';
import { LockMode, type MikroORM } from '@mikro-orm/postgresql';
import { BrandRulesEntity } from './entities.ts';

export interface BrandRulesRow {
  brandId: string;
  thresholds: Record<string, unknown>;
  updatedAt: Date;
  updatedBy: string;
}

/** The brand's row; null when our team never set its thresholds. */
export const brandRulesOf = (orm: MikroORM, brandId: string): Promise<BrandRulesRow | null> => orm.em.fork().findOne(BrandRulesEntity, { brandId });

/**
 * Sets the brand's thresholds under the row's lock (updated now): `audit` is given the row as it was,
 * as it is, and the transaction's runner, after the write and before the commit; its answer is the call's.
 */
export function setBrandRules<T>(
  orm: MikroORM,
  set: Omit<BrandRulesRow, 'updatedAt'>,
  audit: (before: BrandRulesRow | null, after: BrandRulesRow, tx: SqlRunner) => Promise<T>,
): Promise<T> {
  return orm.em.fork().transactional(async (em) => {
    const row = await em.findOne(BrandRulesEntity, { brandId: set.brandId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const before = row ? { brandId: row.brandId, thresholds: row.thresholds, updatedAt: row.updatedAt, updatedBy: row.updatedBy } : null;
    const next = { ...set, updatedAt: new Date() };
    if (row) Object.assign(row, next);
    else em.persist(em.create(BrandRulesEntity, next));
    await em.flush();
    return audit(before, next, sqlIn(em));
  });
}
